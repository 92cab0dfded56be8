package client

import (
	"context"
	"errors"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
	"time"
)

// The credentials check tells what its failure proves about the settings:
// a token endpoint's client error other than the credentials' and a scheme
// mismatch either way are the settings' fault; a refused client, a failing
// endpoint and an unreachable one are not. Scheme mismatches are not
// retried: every attempt would meet them.
func TestFault(t *testing.T) {
	tokenAnswer := func(status int, body string) http.HandlerFunc {
		return func(w http.ResponseWriter, _ *http.Request) { writeJSON(w, status, body) }
	}
	tests := map[string]struct {
		tokenServer func(t *testing.T) string // the token URL; "" for Basic credentials
		baseURL     func(t *testing.T) string // base_url; "" for the plain test server
		want        SettingsFault
		wantToken   bool
		wantText    string
	}{
		"token endpoint 404": {
			tokenServer: func(t *testing.T) string { return serve(t, false, tokenAnswer(404, `{"code":"NOT_FOUND"}`)) },
			want:        TokenEndpointRefused, wantToken: true, wantText: "(HTTP 404)",
		},
		"token endpoint 400 invalid_request": {
			tokenServer: func(t *testing.T) string {
				return serve(t, false, tokenAnswer(400, `{"error":"invalid_request","error_description":"audience missing"}`))
			},
			want: TokenEndpointRefused, wantToken: true, wantText: "audience missing",
		},
		"token endpoint 405": {
			tokenServer: func(t *testing.T) string { return serve(t, false, tokenAnswer(405, `{}`)) },
			want:        TokenEndpointRefused, wantToken: true, wantText: "(HTTP 405)",
		},
		"token endpoint 401 invalid_client": {
			tokenServer: func(t *testing.T) string { return serve(t, false, tokenAnswer(401, `{"error":"invalid_client"}`)) },
			want:        NoSettingsFault, wantToken: true, wantText: "invalid_client",
		},
		"token endpoint 400 invalid_client": {
			tokenServer: func(t *testing.T) string { return serve(t, false, tokenAnswer(400, `{"error":"invalid_client"}`)) },
			want:        NoSettingsFault, wantToken: true, wantText: "invalid_client",
		},
		"token endpoint 400 invalid_scope": {
			tokenServer: func(t *testing.T) string { return serve(t, false, tokenAnswer(400, `{"error":"invalid_scope"}`)) },
			want:        NoSettingsFault, wantToken: true, wantText: "invalid_scope",
		},
		"token endpoint 429": {
			tokenServer: func(t *testing.T) string { return serve(t, false, tokenAnswer(429, `{}`)) },
			want:        NoSettingsFault, wantToken: true,
		},
		"token endpoint 500": {
			tokenServer: func(t *testing.T) string { return serve(t, false, tokenAnswer(500, `{}`)) },
			want:        NoSettingsFault, wantToken: true,
		},
		"token endpoint unreachable": {
			tokenServer: func(*testing.T) string { return "http://127.0.0.1:9/token" },
			want:        NoSettingsFault, wantToken: true, wantText: "connection refused",
		},
		"https token URL to a plain-HTTP server": {
			tokenServer: func(t *testing.T) string {
				return strings.Replace(serve(t, false, tokenAnswer(200, `{}`)), "http://", "https://", 1)
			},
			want: TLSToPlainHTTP, wantToken: true, wantText: "HTTP response to HTTPS client",
		},
		"http token URL to a TLS server": {
			tokenServer: func(t *testing.T) string {
				return strings.Replace(serve(t, true, tokenAnswer(200, `{}`)), "https://", "http://", 1)
			},
			want: PlainHTTPToTLS, wantToken: true, wantText: "speaks TLS",
		},
		"https base_url to a plain-HTTP server": {
			baseURL: func(t *testing.T) string {
				return strings.Replace(serve(t, false, tokenAnswer(200, `[]`)), "http://", "https://", 1)
			},
			want: TLSToPlainHTTP, wantText: "HTTP response to HTTPS client",
		},
		"http base_url to a TLS server": {
			baseURL: func(t *testing.T) string {
				return strings.Replace(serve(t, true, tokenAnswer(200, `[]`)), "https://", "http://", 1)
			},
			want: PlainHTTPToTLS, wantText: "Client sent an HTTP request to an HTTPS server",
		},
		"base_url unreachable": {
			baseURL: func(*testing.T) string { return "http://127.0.0.1:9" },
			want:    NoSettingsFault, wantText: "connection refused",
		},
	}
	for name, tc := range tests {
		t.Run(name, func(t *testing.T) {
			var calls counter
			c, _ := newTestClient(t, http.HandlerFunc(func(w http.ResponseWriter, _ *http.Request) {
				calls.inc()
				writeJSON(w, 200, `[]`)
			}), func(cfg *Config) {
				cfg.MaxRetries = 1
				if tc.baseURL != nil {
					cfg.BaseURL = tc.baseURL(t)
				}
				if tc.tokenServer != nil {
					o, err := NewOAuth2(tc.tokenServer(t), "ci", "s3cret", nil, nil)
					if err != nil {
						t.Fatal(err)
					}
					cfg.Auth = o
				}
			})
			ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
			defer cancel()
			err := c.CheckCredentials(ctx)
			if err == nil {
				t.Fatal("the check passed")
			}
			got, atToken := Fault(err)
			if got != tc.want || atToken != tc.wantToken {
				t.Errorf("Fault(%v) = %v, %v; want %v, %v", err, got, atToken, tc.want, tc.wantToken)
			}
			mustContain(t, err.Error(), tc.wantText)
			if errors.Is(err, ErrPlainHTTPToTLS) != (tc.want == PlainHTTPToTLS) {
				t.Errorf("errors.Is(%v, ErrPlainHTTPToTLS) disagrees with %v", err, tc.want)
			}
		})
	}
}

// serve starts a server of h, speaking TLS or plain HTTP, and returns its
// URL.
func serve(t *testing.T, tls bool, h http.Handler) string {
	t.Helper()
	srv := httptest.NewUnstartedServer(h)
	if tls {
		srv.StartTLS()
	} else {
		srv.Start()
	}
	t.Cleanup(srv.Close)
	return srv.URL
}
