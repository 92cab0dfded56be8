package provider

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/rms-labs/terraform-provider-rms/internal/testpki"
)

func TestTLSSettings(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	notPEM := filepath.Join(dir, "not.pem")
	if err := os.WriteFile(notPEM, []byte("hello"), 0o600); err != nil {
		t.Fatal(err)
	}
	bundle := filepath.Join(dir, "ca.pem")
	ca := testpki.NewCA(t, "private CA")
	if err := os.WriteFile(bundle, ca.CertPEM, 0o600); err != nil {
		t.Fatal(err)
	}
	cases := map[string]struct {
		file        string
		insecure    bool
		wantError   string
		wantWarning string
		wantBundle  bool
	}{
		"defaults verify":         {},
		"bundle passed on":        {file: bundle, wantBundle: true},
		"missing bundle":          {file: filepath.Join(dir, "absent.pem"), wantError: "Unreadable CA bundle"},
		"bundle without PEM":      {file: notPEM, wantError: "Invalid CA bundle"},
		"insecure warns each run": {insecure: true, wantWarning: "TLS certificate verification is disabled"},
	}
	for name, tc := range cases {
		t.Run(name, func(t *testing.T) {
			t.Parallel()
			settings, diags := tlsSettings(tc.file, tc.insecure, nil)
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
			if settings.InsecureSkipVerify != tc.insecure {
				t.Errorf("InsecureSkipVerify %v, want %v", settings.InsecureSkipVerify, tc.insecure)
			}
			if got := len(settings.CABundle) > 0; got != tc.wantBundle {
				t.Errorf("CA bundle passed on: %v, want %v", got, tc.wantBundle)
			}
		})
	}
}
