package main

import (
	"context"
	"io"
	"net/http"
	"path/filepath"
	"strings"
	"testing"
)

// callAs is call with other credentials.
func callAs(t *testing.T, user, pass, method, url, body string) (int, string) {
	t.Helper()
	req, _ := http.NewRequest(method, url, strings.NewReader(body))
	req.SetBasicAuth(user, pass)
	req.Header.Set("Accept", "application/json")
	if body != "" {
		req.Header.Set("Content-Type", "application/json")
	}
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	defer func() { _ = resp.Body.Close() }()
	b, _ := io.ReadAll(resp.Body)
	return resp.StatusCode, string(b)
}

// -account serves a second account beside the first, with its own data,
// which survives a restart in its own data directory.
func TestRunServesFurtherAccounts(t *testing.T) {
	dir := filepath.Join(t.TempDir(), "state")
	url, out, stop := startRun(t, "-data-dir", dir, "-account", "2000:bob:bob:pass")
	for _, want := range []string{"customer_id = 1000", "customer_id = 2000", `username    = "bob"`, `password    = "bob:pass"`} {
		if !strings.Contains(out.String(), want) {
			t.Errorf("banner lacks %q:\n%s", want, out.String())
		}
	}
	if status, body := callAs(t, "bob", "bob:pass", http.MethodPost, url+"/rest/2000/lists", `{"name":"bob's"}`); status != http.StatusCreated {
		t.Fatalf("bob creating a list: %d %s", status, body)
	}
	if status, _ := callAs(t, "bob", "bob:pass", http.MethodGet, url+"/rest/1000/lists", ""); status != http.StatusForbidden {
		t.Errorf("bob reading account 1000: %d, want 403", status)
	}
	if _, body := call(t, http.MethodGet, url+"/rest/1000/lists", ""); strings.TrimSpace(body) != "[]" {
		t.Errorf("account 1000 lists = %s, want none", body)
	}
	if err := stop(); err != nil {
		t.Fatalf("run: %v", err)
	}

	url, _, _ = startRun(t, "-data-dir", dir, "-account", "2000:bob:bob:pass")
	if _, body := callAs(t, "bob", "bob:pass", http.MethodGet, url+"/rest/2000/lists", ""); !strings.Contains(body, `"name":"bob's"`) {
		t.Errorf("bob's lists after restart = %s", body)
	}
}

func TestRunRefusesBadAccounts(t *testing.T) {
	tests := []struct {
		name, arg, wantErr string
	}{
		{"missing password", "2000:bob", "want customerid:username:password"},
		{"empty user", "2000::pw", "want customerid:username:password"},
		{"id not a number", "bob:bob:pw", "must be a positive number"},
		{"same id as the first", "1000:bob:pw", "customer id 1000 is served twice"},
		{"same user as the first", "2000:rms:pw", `the same user name "rms"`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			err := run(context.Background(), []string{"-addr", "127.0.0.1:0", "-account", tt.arg}, io.Discard, io.Discard)
			if err == nil || !strings.Contains(err.Error(), tt.wantErr) {
				t.Fatalf("run: %v, want an error containing %q", err, tt.wantErr)
			}
			if strings.Contains(err.Error(), ":pw") {
				t.Errorf("error shows the password: %v", err)
			}
		})
	}
}
