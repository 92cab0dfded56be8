package emulator

import (
	"net/http"
	"strings"
	"testing"
)

// TestBearerToken covers an account with a token, alone or beside Basic.
func TestBearerToken(t *testing.T) {
	both := New(Options{Token: "tok-both", Username: DefaultUsername}) // Basic kept: a user is named
	only := New(Options{Token: "tok-only"})
	cases := []struct {
		name     string
		s        *Server
		opts     []reqOption
		want     int
		wantMsg  string
		wantAuth []string // WWW-Authenticate values on a 401
	}{
		{"token accepted", both, []reqOption{withHeader("Authorization", "Bearer tok-both")}, http.StatusOK, "", nil},
		{"scheme is case-insensitive", both, []reqOption{withHeader("Authorization", "bearer tok-both")}, http.StatusOK, "", nil},
		{"basic still accepted beside a token", both, nil, http.StatusOK, "", nil},
		{"wrong token", both, []reqOption{withHeader("Authorization", "Bearer nope")}, http.StatusUnauthorized, "bearer token is wrong", []string{`Basic realm="rms"`, `Bearer realm="rms"`}},
		{"token-only account accepts its token", only, []reqOption{withHeader("Authorization", "Bearer tok-only")}, http.StatusOK, "", nil},
		{"token-only account refuses the default Basic user", only, nil, http.StatusUnauthorized, "credentials are wrong", []string{`Bearer realm="rms"`}},
		{"token-only account without credentials", only, []reqOption{withoutAuth()}, http.StatusUnauthorized, "Authorization: Bearer", []string{`Bearer realm="rms"`}},
		{"another account's token", only, []reqOption{withHeader("Authorization", "Bearer tok-both")}, http.StatusUnauthorized, "bearer token is wrong", nil},
		{"empty bearer", only, []reqOption{withHeader("Authorization", "Bearer ")}, http.StatusUnauthorized, "", nil},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			rec := do(t, tc.s, http.MethodGet, "/rest/1000/projects", nil, tc.opts...)
			if tc.want != http.StatusUnauthorized {
				wantStatus(t, rec, tc.want)
				return
			}
			wantErrorCode(t, rec, tc.want, CodeUnauthorized)
			if !strings.Contains(rec.Body.String(), tc.wantMsg) {
				t.Errorf("body %s, want it to contain %q", rec.Body, tc.wantMsg)
			}
			if tc.wantAuth != nil {
				got := rec.Header().Values("WWW-Authenticate")
				if strings.Join(got, "|") != strings.Join(tc.wantAuth, "|") {
					t.Errorf("WWW-Authenticate %q, want %q", got, tc.wantAuth)
				}
			}
		})
	}
	if o := only.Options(); o.Username != "" || o.Password != "" {
		t.Errorf("a token-only account got Basic defaults %q/%q", o.Username, o.Password)
	}
}

// TestAccountsRouteByToken: a token reaches its own account only, and
// accounts may not share a token.
func TestAccountsRouteByToken(t *testing.T) {
	a := New(Options{CustomerID: 1000, Token: "tok-a"})
	b := New(Options{CustomerID: 2000, Username: "bob", Password: "bob-pw", Token: "tok-b"})
	front, err := NewAccounts(a, b)
	if err != nil {
		t.Fatal(err)
	}
	wantStatus(t, do(t, front, http.MethodGet, "/rest/2000/projects", nil, withHeader("Authorization", "Bearer tok-b")), http.StatusOK)
	wantStatus(t, do(t, front, http.MethodGet, "/rest/1000/projects", nil, withHeader("Authorization", "Bearer tok-a")), http.StatusOK)
	wantErrorCode(t, do(t, front, http.MethodGet, "/rest/1000/projects", nil, withHeader("Authorization", "Bearer tok-b")), http.StatusForbidden, CodeForbidden)
	wantErrorCode(t, do(t, front, http.MethodGet, "/rest/1000/projects", nil, withHeader("Authorization", "Bearer tok-c")), http.StatusUnauthorized, CodeUnauthorized)

	_, err = NewAccounts(New(Options{CustomerID: 1, Token: "same"}), New(Options{CustomerID: 2, Token: "same"}))
	if err == nil || !strings.Contains(err.Error(), "accounts 1 and 2 have the same token") || strings.Contains(err.Error(), "same\"") {
		t.Errorf("err = %v, want a refusal of the shared token that does not quote it", err)
	}
}
