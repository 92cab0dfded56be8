package client

import (
	"context"
	"net/http"
	"net/url"
	"strings"
	"sync"
	"testing"
)

// Endpoint parameters (an audience a gateway requires) go with every token
// request, beside the flow's own; the flow's own cannot be set through
// them.
func TestOAuth2EndpointParams(t *testing.T) {
	var mu sync.Mutex
	var forms []url.Values
	mux := http.NewServeMux()
	mux.HandleFunc("POST /oauth2/token", func(w http.ResponseWriter, r *http.Request) {
		if err := r.ParseForm(); err != nil {
			t.Errorf("token request: %v", err)
		}
		mu.Lock()
		forms = append(forms, r.PostForm)
		mu.Unlock()
		writeJSON(w, http.StatusOK, `{"access_token":"tok-1","token_type":"Bearer","expires_in":3600}`)
	})
	mux.HandleFunc("GET /rest/{customerid}/projects/{id}", func(w http.ResponseWriter, r *http.Request) {
		if r.Header.Get("Authorization") != "Bearer tok-1" {
			writeJSON(w, http.StatusUnauthorized, `{"error":"no token"}`)
			return
		}
		writeJSON(w, http.StatusOK, `{"id":1}`)
	})
	c, _ := newTestClient(t, mux, func(cfg *Config) {
		o, err := NewOAuth2(cfg.BaseURL+"/oauth2/token", "ci", "s3cret", []string{"lists"}, map[string]string{"audience": "https://api.example.com", "resource": "rms"})
		if err != nil {
			t.Fatal(err)
		}
		cfg.Auth = o
	})
	if err := c.Resources.Get(context.Background(), "projects", "1", nil); err != nil {
		t.Fatal(err)
	}
	mu.Lock()
	defer mu.Unlock()
	if len(forms) != 1 {
		t.Fatalf("%d token requests, want 1", len(forms))
	}
	f := forms[0]
	for k, want := range map[string]string{"grant_type": "client_credentials", "scope": "lists", "audience": "https://api.example.com", "resource": "rms"} {
		if got := f.Get(k); got != want {
			t.Errorf("token request %s = %q, want %q (form %v)", k, got, want, f)
		}
	}

	for _, reserved := range ReservedTokenParams {
		_, err := NewOAuth2("https://auth.example.com/token", "ci", "s3cret", nil, map[string]string{reserved: "x"})
		if err == nil || !strings.Contains(err.Error(), reserved) {
			t.Errorf("endpoint parameter %q: error %v, want one naming it", reserved, err)
		}
	}
}
