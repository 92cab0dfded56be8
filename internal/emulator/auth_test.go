package emulator

import (
	"net/http"
	"testing"
)

func TestAuthAndCustomerID(t *testing.T) {
	s := New(Options{})
	tests := []struct {
		name     string
		path     string
		opts     []reqOption
		want     int
		wantCode string
	}{
		{"missing credentials", "/rest/1000/projects", []reqOption{withoutAuth()}, http.StatusUnauthorized, CodeUnauthorized},
		{"wrong password", "/rest/1000/projects", []reqOption{withAuth("rms", "nope")}, http.StatusUnauthorized, CodeUnauthorized},
		{"wrong user", "/rest/1000/projects", []reqOption{withAuth("other", DefaultPassword)}, http.StatusUnauthorized, CodeUnauthorized},
		{"not basic", "/rest/1000/projects", []reqOption{withHeader("Authorization", "Bearer x")}, http.StatusUnauthorized, CodeUnauthorized},
		{"right credentials", "/rest/1000/projects", nil, http.StatusOK, ""},
		{"other account", "/rest/1001/projects", nil, http.StatusForbidden, CodeForbidden},
		{"non-numeric account", "/rest/abc/projects", nil, http.StatusNotFound, CodeNotFound},
		// Credentials are checked before the customer id, so nothing leaks.
		{"other account without credentials", "/rest/1001/projects", []reqOption{withoutAuth()}, http.StatusUnauthorized, CodeUnauthorized},
		{"non-numeric account without credentials", "/rest/abc/projects", []reqOption{withoutAuth()}, http.StatusUnauthorized, CodeUnauthorized},
		{"unknown path without credentials", "/rest/1000/nosuch/1/2/3/4", []reqOption{withoutAuth()}, http.StatusUnauthorized, CodeUnauthorized},
		{"swagger needs no credentials", "/mail/swagger", []reqOption{withoutAuth()}, http.StatusOK, ""},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			rec := do(t, s, http.MethodGet, tt.path, nil, tt.opts...)
			if tt.wantCode == "" {
				wantStatus(t, rec, tt.want)
				return
			}
			wantErrorCode(t, rec, tt.want, tt.wantCode)
			if tt.want == http.StatusUnauthorized {
				if got := rec.Header().Get("WWW-Authenticate"); got != `Basic realm="rms"` {
					t.Errorf("WWW-Authenticate = %q", got)
				}
			}
		})
	}
}

func TestCustomCredentialsAndAccount(t *testing.T) {
	s := New(Options{CustomerID: 42, Username: "u", Password: "p"})
	wantStatus(t, do(t, s, http.MethodGet, "/rest/42/projects", nil, withAuth("u", "p")), http.StatusOK)
	wantErrorCode(t, do(t, s, http.MethodGet, "/rest/42/projects", nil), http.StatusUnauthorized, CodeUnauthorized)
	wantErrorCode(t, do(t, s, http.MethodGet, "/rest/1000/projects", nil, withAuth("u", "p")), http.StatusForbidden, CodeForbidden)
}

func TestOptionsDefaults(t *testing.T) {
	got := New(Options{}).Options()
	if got.CustomerID != 1000 || got.Username != "rms" || got.Password != "rms-password" || got.Logger == nil || got.Now == nil {
		t.Errorf("defaults not filled: %+v", got)
	}
	retired := map[string]string{"campaigns": "gone"}
	s := New(Options{Retired: retired})
	retired["projects"] = "mutated after New"
	if _, ok := s.Options().Retired["projects"]; ok {
		t.Error("Server shares the caller's Retired map")
	}
}
