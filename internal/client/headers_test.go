package client

import (
	"context"
	"net/http"
	"strings"
	"sync"
	"testing"
)

func TestCheckHeader(t *testing.T) {
	cases := []struct {
		name, value string
		wantErr     string // empty: accepted
	}{
		{name: "X-Gateway-Key", value: "k-123"},
		{name: "x-tenant", value: "blue, green"},
		{name: "Authorization", value: "x", wantErr: "set by the provider itself"},
		{name: "content-type", value: "x", wantErr: "set by the provider itself"},
		{name: "ACCEPT", value: "x", wantErr: "set by the provider itself"},
		{name: "Host", value: "x", wantErr: "set by the provider itself"},
		{name: "Content-Length", value: "1", wantErr: "set by the provider itself"},
		{name: "user-agent", value: "x", wantErr: "set by the provider itself"},
		{name: "Bad Name", value: "x", wantErr: "not a valid HTTP header name"},
		{name: "", value: "x", wantErr: "not a valid HTTP header name"},
		{name: "X-Split", value: "a\r\nInjected: yes", wantErr: "control character"},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			err := CheckHeader(tc.name, tc.value)
			if tc.wantErr == "" {
				if err != nil {
					t.Fatalf("refused: %v", err)
				}
				return
			}
			if err == nil || !strings.Contains(err.Error(), tc.wantErr) {
				t.Fatalf("error %v, want one containing %q", err, tc.wantErr)
			}
			if tc.value != "" && strings.Contains(err.Error(), tc.value) && len(tc.value) > 1 {
				t.Errorf("error quotes the header value, which may be a secret: %v", err)
			}
		})
	}
}

func TestNewRefusesReservedHeaders(t *testing.T) {
	_, err := New(Config{
		BaseURL: "https://server.example.com", CustomerID: 1, Auth: BearerAuth{Token: "t"},
		Headers: map[string]string{"X-Ok": "1", "Authorization": "Bearer other"},
	})
	if err == nil || !strings.Contains(err.Error(), `"Authorization"`) {
		t.Fatalf("New accepted a reserved header, or the error does not name it: %v", err)
	}
}

// TestAuthAndExtraHeaders checks what reaches the server for each scheme,
// with extra headers, and that the client's own headers stay its own.
func TestAuthAndExtraHeaders(t *testing.T) {
	cases := map[string]struct {
		auth     Authenticator
		headers  map[string]string
		wantAuth string
	}{
		"basic":             {auth: BasicAuth{Username: "u", Password: "p"}, wantAuth: "Basic dTpw"},
		"bearer":            {auth: BearerAuth{Token: "tok-1"}, wantAuth: "Bearer tok-1"},
		"bearer and extras": {auth: BearerAuth{Token: "tok-2"}, headers: map[string]string{"X-Gateway-Key": "gk", "x-tenant": "blue"}, wantAuth: "Bearer tok-2"},
	}
	for name, tc := range cases {
		t.Run(name, func(t *testing.T) {
			var mu sync.Mutex
			var got http.Header
			c, _ := newTestClient(t, http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
				mu.Lock()
				got = r.Header.Clone()
				mu.Unlock()
				w.Header().Set("Content-Type", "application/json")
				_, _ = w.Write([]byte(`{"id":5}`))
			}), func(c *Config) { c.Auth, c.Headers = tc.auth, tc.headers })
			if err := c.Resources.Get(context.Background(), "projects", "5", &map[string]any{}); err != nil {
				t.Fatal(err)
			}
			mu.Lock()
			defer mu.Unlock()
			if a := got.Get("Authorization"); a != tc.wantAuth {
				t.Errorf("Authorization %q, want %q", a, tc.wantAuth)
			}
			if a := got.Get("Accept"); a != "application/json" {
				t.Errorf("Accept %q: extra headers displaced the client's own", a)
			}
			for k, v := range tc.headers {
				if g := got.Get(k); g != v {
					t.Errorf("header %s = %q, want %q", k, g, v)
				}
			}
		})
	}
}

func TestBearerAuthRefusesEmptyToken(t *testing.T) {
	req, _ := http.NewRequest(http.MethodGet, "https://x.example.com", nil)
	if err := (BearerAuth{}).Authenticate(req); err == nil || req.Header.Get("Authorization") != "" {
		t.Fatalf("an empty token was sent (err %v, header %q)", err, req.Header.Get("Authorization"))
	}
}
