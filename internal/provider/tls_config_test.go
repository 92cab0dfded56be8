package provider

import (
	"crypto/tls"
	"net/http"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

func TestNewTransport(t *testing.T) {
	dir := t.TempDir()
	notPEM := filepath.Join(dir, "not.pem")
	if err := os.WriteFile(notPEM, []byte("hello"), 0o600); err != nil {
		t.Fatal(err)
	}
	cases := map[string]struct {
		file        string
		insecure    bool
		wantError   string
		wantWarning string
	}{
		"defaults verify":         {},
		"missing bundle":          {file: filepath.Join(dir, "absent.pem"), wantError: "Unreadable CA bundle"},
		"bundle without PEM":      {file: notPEM, wantError: "Invalid CA bundle"},
		"insecure warns each run": {insecure: true, wantWarning: "TLS certificate verification is disabled"},
	}
	for name, tc := range cases {
		t.Run(name, func(t *testing.T) {
			rt, diags := newTransport(tc.file, tc.insecure, nil)
			if tc.wantError != "" {
				if !diags.HasError() || !strings.Contains(diags.Errors()[0].Summary(), tc.wantError) {
					t.Fatalf("diagnostics %v, want error %q", diags, tc.wantError)
				}
				return
			}
			if diags.HasError() {
				t.Fatalf("unexpected errors %v", diags)
			}
			if tc.wantWarning != "" && (len(diags.Warnings()) != 1 || diags.Warnings()[0].Summary() != tc.wantWarning) {
				t.Errorf("warnings %v, want %q", diags.Warnings(), tc.wantWarning)
			}
			cfg := rt.(*http.Transport).TLSClientConfig
			if cfg.InsecureSkipVerify != tc.insecure {
				t.Errorf("InsecureSkipVerify %v, want %v", cfg.InsecureSkipVerify, tc.insecure)
			}
			if cfg.MinVersion != tls.VersionTLS12 {
				t.Errorf("MinVersion %x, want TLS 1.2", cfg.MinVersion)
			}
		})
	}
}
