package main

import (
	"context"
	"encoding/json"
	"flag"
	"io"
	"net/http"
	"net/url"
	"strings"
	"testing"
	"time"
)

func TestOAuth2Flags(t *testing.T) {
	cases := []struct {
		name    string
		args    []string
		want    map[string]string
		wantTTL time.Duration
		wantErr string
	}{
		{"none", nil, nil, 20 * time.Minute, ""},
		{"two clients and a ttl", []string{"-oauth2-client", "ci:s1", "-oauth2-client", "ops:s:2", "-token-ttl", "3s"}, map[string]string{"ci": "s1", "ops": "s:2"}, 3 * time.Second, ""},
		{"no secret", []string{"-oauth2-client", "ci"}, nil, 0, "ID:SECRET"},
		{"empty secret", []string{"-oauth2-client", "ci:"}, nil, 0, "ID:SECRET"},
		{"twice", []string{"-oauth2-client", "ci:a", "-oauth2-client", "ci:b"}, nil, 0, "given twice"},
		{"ttl below a second", []string{"-token-ttl", "500ms"}, nil, 0, "at least 1s"},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			fs := flag.NewFlagSet("t", flag.ContinueOnError)
			fs.SetOutput(io.Discard)
			f := registerOAuth2Flags(fs)
			err := fs.Parse(tc.args)
			var clients map[string]string
			var ttl time.Duration
			if err == nil {
				clients, ttl, err = f.options()
			}
			if tc.wantErr != "" {
				if err == nil || !strings.Contains(err.Error(), tc.wantErr) {
					t.Fatalf("error %v, want one containing %q", err, tc.wantErr)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			if ttl != tc.wantTTL || len(clients) != len(tc.want) {
				t.Fatalf("got %v, %s; want %v, %s", clients, ttl, tc.want, tc.wantTTL)
			}
			for id, secret := range tc.want {
				if clients[id] != secret {
					t.Errorf("client %s: secret %q, want %q", id, clients[id], secret)
				}
			}
			if s := f.clients.String(); strings.Contains(s, "s1") {
				t.Errorf("the flag's String %q shows a secret", s)
			}
		})
	}
}

// The command issues tokens to its -oauth2-client, living -token-ttl, and
// its banner shows the oauth2 block that reaches them.
func TestRunOAuth2Client(t *testing.T) {
	base, stdout, stop := startRun(t, "-addr", "127.0.0.1:0", "-oauth2-client", "ci:s3cret", "-token-ttl", "90s")
	form := url.Values{"grant_type": {"client_credentials"}, "client_id": {"ci"}, "client_secret": {"s3cret"}}
	resp, err := http.PostForm(base+"/oauth2/token", form)
	if err != nil {
		t.Fatal(err)
	}
	defer func() { _ = resp.Body.Close() }()
	var answer struct {
		AccessToken string `json:"access_token"`
		ExpiresIn   int    `json:"expires_in"`
	}
	if err := json.NewDecoder(resp.Body).Decode(&answer); err != nil || resp.StatusCode != http.StatusOK {
		t.Fatalf("token request: %d, %v", resp.StatusCode, err)
	}
	if answer.AccessToken == "" || answer.ExpiresIn != 90 {
		t.Errorf("answer %+v, want a token of 90 s", answer)
	}
	req, _ := http.NewRequest(http.MethodGet, base+"/rest/1000/projects", nil)
	req.Header.Set("Authorization", "Bearer "+answer.AccessToken)
	got, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	_ = got.Body.Close()
	if got.StatusCode != http.StatusOK {
		t.Errorf("a call with the token: %d, want 200", got.StatusCode)
	}
	if err := stop(); err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{`#   token_url     = "` + base + `/oauth2/token"`, `#   client_id     = "ci"`, "tokens live 1m30s"} {
		if !strings.Contains(stdout.String(), want) {
			t.Errorf("banner lacks %q:\n%s", want, stdout)
		}
	}
}

// -account ID:oauth2:CLIENT:SECRET serves an account reached only through
// that client's tokens: the token reaches that account and no other, the
// account has no Basic user, and the banner's provider block for it is the
// oauth2 block itself. A malformed value is refused without its secret.
func TestRunOAuth2Account(t *testing.T) {
	base, stdout, stop := startRun(t, "-addr", "127.0.0.1:0", "-oauth2-client", "ci:first", "-account", "2000:oauth2:ops:s3:cret")
	token := func(id, secret string) string {
		t.Helper()
		resp, err := http.PostForm(base+"/oauth2/token", url.Values{"grant_type": {"client_credentials"}, "client_id": {id}, "client_secret": {secret}})
		if err != nil {
			t.Fatal(err)
		}
		defer func() { _ = resp.Body.Close() }()
		var answer struct {
			AccessToken string `json:"access_token"`
		}
		if err := json.NewDecoder(resp.Body).Decode(&answer); err != nil || resp.StatusCode != http.StatusOK || answer.AccessToken == "" {
			t.Fatalf("token of client %s: %d, %v", id, resp.StatusCode, err)
		}
		return answer.AccessToken
	}
	get := func(path string, auth func(*http.Request)) int {
		t.Helper()
		req, _ := http.NewRequest(http.MethodGet, base+path, nil)
		auth(req)
		resp, err := http.DefaultClient.Do(req)
		if err != nil {
			t.Fatal(err)
		}
		_ = resp.Body.Close()
		return resp.StatusCode
	}
	bearer := func(tok string) func(*http.Request) {
		return func(r *http.Request) { r.Header.Set("Authorization", "Bearer "+tok) }
	}
	ops, ci := token("ops", "s3:cret"), token("ci", "first")
	for _, tc := range []struct {
		name, path string
		auth       func(*http.Request)
		want       int
	}{
		{"the account's client", "/rest/2000/lists", bearer(ops), http.StatusOK},
		{"the account's client, another account", "/rest/1000/lists", bearer(ops), http.StatusForbidden},
		{"the first account's client", "/rest/2000/lists", bearer(ci), http.StatusForbidden},
		{"the default Basic user", "/rest/2000/lists", func(r *http.Request) { r.SetBasicAuth("rms", "rms-password") }, http.StatusForbidden},
	} {
		if got := get(tc.path, tc.auth); got != tc.want {
			t.Errorf("%s: GET %s = %d, want %d", tc.name, tc.path, got, tc.want)
		}
	}
	if err := stop(); err != nil {
		t.Fatal(err)
	}
	want := "  customer_id = 2000\n  # OAuth 2.0 client credentials (tokens live 20m0s)\n  oauth2 = {\n    token_url     = \"" + base + "/oauth2/token\"\n    client_id     = \"ops\"\n"
	if !strings.Contains(stdout.String(), want) {
		t.Errorf("banner lacks the oauth2 block of account 2000:\n%s", stdout)
	}
	if strings.Contains(stdout.String(), `token       = ""`) {
		t.Errorf("banner shows an empty token:\n%s", stdout)
	}

	err := run(context.Background(), []string{"-addr", "127.0.0.1:0", "-account", "2000:oauth2:lonely-secret"}, io.Discard, io.Discard)
	if err == nil || !strings.Contains(err.Error(), "ID:SECRET") {
		t.Fatalf("run: %v, want an error asking for ID:SECRET", err)
	}
	if strings.Contains(err.Error(), "lonely") {
		t.Errorf("the error shows the secret: %v", err)
	}
}
