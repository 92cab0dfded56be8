package emulator

import (
	"bytes"
	"context"
	"encoding/json"
	"io"
	"net/http"
	"net/http/httptest"
	"net/url"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/getkin/kin-openapi/openapi3filter"
	"github.com/getkin/kin-openapi/routers/gorillamux"
)

// fakeClock is a clock tests move by hand.
type fakeClock struct {
	mu sync.Mutex
	t  time.Time
}

func (c *fakeClock) now() time.Time {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.t
}

func (c *fakeClock) add(d time.Duration) {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.t = c.t.Add(d)
}

// tokenRequest builds the options of a token request: form-encoded,
// without the default Basic credentials of do.
func tokenRequest(opts ...reqOption) []reqOption {
	return append([]reqOption{withoutAuth(), withHeader("Content-Type", "application/x-www-form-urlencoded")}, opts...)
}

func askToken(t *testing.T, h http.Handler, form url.Values, opts ...reqOption) (int, map[string]any) {
	t.Helper()
	rec := do(t, h, http.MethodPost, OAuth2TokenPath, form.Encode(), tokenRequest(opts...)...)
	var answer map[string]any
	if err := json.Unmarshal(rec.Body.Bytes(), &answer); err != nil {
		t.Fatalf("token answer %d is not JSON: %s", rec.Code, rec.Body)
	}
	if got := rec.Header().Get("Cache-Control"); got != "no-store" {
		t.Errorf("Cache-Control = %q, want no-store", got)
	}
	return rec.Code, answer
}

func TestOAuth2TokenRequests(t *testing.T) {
	s := New(Options{OAuth2Clients: map[string]string{"ci": "s3cret", "a:b": "p&q"}, TokenTTL: 90 * time.Second})
	grant := url.Values{"grant_type": {"client_credentials"}}
	withForm := func(extra url.Values) url.Values {
		f := url.Values{"grant_type": {"client_credentials"}}
		for k, v := range extra {
			f[k] = v
		}
		return f
	}
	basic := func(id, secret string) reqOption {
		return withAuth(url.QueryEscape(id), url.QueryEscape(secret))
	}
	cases := []struct {
		name      string
		form      url.Values
		opts      []reqOption
		want      int
		wantError string
	}{
		{"basic", grant, []reqOption{basic("ci", "s3cret")}, http.StatusOK, ""},
		{"basic, form-encoded id and secret", grant, []reqOption{basic("a:b", "p&q")}, http.StatusOK, ""},
		{"in the form", withForm(url.Values{"client_id": {"ci"}, "client_secret": {"s3cret"}}), nil, http.StatusOK, ""},
		{"scope echoed", withForm(url.Values{"scope": {"lists contacts"}}), []reqOption{basic("ci", "s3cret")}, http.StatusOK, ""},
		{"wrong secret", grant, []reqOption{basic("ci", "nope")}, http.StatusUnauthorized, "invalid_client"},
		{"unknown client", withForm(url.Values{"client_id": {"who"}, "client_secret": {"s3cret"}}), nil, http.StatusUnauthorized, "invalid_client"},
		{"no client", grant, nil, http.StatusUnauthorized, "invalid_client"},
		{"both ways", withForm(url.Values{"client_id": {"ci"}, "client_secret": {"s3cret"}}), []reqOption{basic("ci", "s3cret")}, http.StatusBadRequest, "invalid_request"},
		{"another grant", url.Values{"grant_type": {"password"}}, []reqOption{basic("ci", "s3cret")}, http.StatusBadRequest, "unsupported_grant_type"},
		{"not a form", grant, []reqOption{basic("ci", "s3cret"), withHeader("Content-Type", "application/json")}, http.StatusBadRequest, "invalid_request"},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			status, answer := askToken(t, s, tc.form, tc.opts...)
			if status != tc.want {
				t.Fatalf("status %d, want %d: %v", status, tc.want, answer)
			}
			if tc.wantError != "" {
				if answer["error"] != tc.wantError {
					t.Errorf("error %v, want %s", answer["error"], tc.wantError)
				}
				return
			}
			if answer["token_type"] != "Bearer" || answer["expires_in"] != float64(90) || answer["access_token"] == "" {
				t.Errorf("answer %v, want a Bearer token expiring in 90 s", answer)
			}
			if scope := tc.form.Get("scope"); scope != "" && answer["scope"] != scope {
				t.Errorf("scope %v, want %q", answer["scope"], scope)
			}
		})
	}
	if got := s.OAuth2Tokens(); got.Issued != 4 || got.Refused != 6 {
		t.Errorf("stats %+v, want 4 issued and 6 refused", got)
	}
}

// A token works until it expires, then is 401 with invalid_token; a
// revoked one is merely wrong.
func TestOAuth2TokenLifetime(t *testing.T) {
	clock := &fakeClock{t: time.Date(2026, 11, 26, 10, 0, 0, 0, time.UTC)}
	s := New(Options{OAuth2Clients: map[string]string{"ci": "s3cret"}, TokenTTL: time.Minute, Now: clock.now})
	status, answer := askToken(t, s, url.Values{"grant_type": {"client_credentials"}}, withAuth("ci", "s3cret"))
	if status != http.StatusOK {
		t.Fatalf("token request: %d %v", status, answer)
	}
	bearer := withHeader("Authorization", "Bearer "+answer["access_token"].(string))

	if rec := do(t, s, http.MethodGet, "/rest/1000/projects", nil, bearer); rec.Code != http.StatusOK {
		t.Fatalf("fresh token: %d %s", rec.Code, rec.Body)
	}
	// Basic stays off for an account of OAuth 2.0 clients only.
	if rec := do(t, s, http.MethodGet, "/rest/1000/projects", nil); rec.Code != http.StatusUnauthorized {
		t.Errorf("default Basic credentials on an OAuth 2.0 account: %d, want 401", rec.Code)
	}
	clock.add(59 * time.Second)
	if rec := do(t, s, http.MethodGet, "/rest/1000/projects", nil, bearer); rec.Code != http.StatusOK {
		t.Fatalf("token a second before it expires: %d %s", rec.Code, rec.Body)
	}
	clock.add(time.Second)
	rec := do(t, s, http.MethodGet, "/rest/1000/projects", nil, bearer)
	wantErrorCode(t, rec, http.StatusUnauthorized, CodeUnauthorized)
	if got := rec.Header().Get("WWW-Authenticate"); !strings.Contains(got, `error="invalid_token"`) {
		t.Errorf("WWW-Authenticate %q, want error=\"invalid_token\"", got)
	}
	if !strings.Contains(rec.Body.String(), "expired") {
		t.Errorf("body %s, want it to say the token expired", rec.Body)
	}
	if got := s.OAuth2Tokens(); got.Issued != 1 || got.Presented != 1 || got.Expired != 1 {
		t.Errorf("stats %+v, want 1 issued, 1 presented, 1 expired", got)
	}

	_, answer = askToken(t, s, url.Values{"grant_type": {"client_credentials"}}, withAuth("ci", "s3cret"))
	bearer = withHeader("Authorization", "Bearer "+answer["access_token"].(string))
	s.RevokeOAuth2Tokens()
	rec = do(t, s, http.MethodGet, "/rest/1000/projects", nil, bearer)
	wantErrorCode(t, rec, http.StatusUnauthorized, CodeUnauthorized)
	if !strings.Contains(rec.Body.String(), "bearer token is wrong") {
		t.Errorf("revoked token: body %s, want the token called wrong", rec.Body)
	}
}

// A token request reaches the account whose client it names, and that
// account's token opens only that account.
func TestOAuth2TokenAccounts(t *testing.T) {
	a := New(Options{CustomerID: 1000, OAuth2Clients: map[string]string{"one": "s1"}})
	b := New(Options{CustomerID: 2000, Username: "u2", OAuth2Clients: map[string]string{"two": "s2"}})
	accts, err := NewAccounts(a, b)
	if err != nil {
		t.Fatal(err)
	}
	status, answer := askToken(t, accts, url.Values{"grant_type": {"client_credentials"}, "client_id": {"two"}, "client_secret": {"s2"}})
	if status != http.StatusOK {
		t.Fatalf("token of the second account: %d %v", status, answer)
	}
	bearer := withHeader("Authorization", "Bearer "+answer["access_token"].(string))
	if rec := do(t, accts, http.MethodGet, "/rest/2000/projects", nil, bearer); rec.Code != http.StatusOK {
		t.Errorf("second account with its token: %d %s", rec.Code, rec.Body)
	}
	if rec := do(t, accts, http.MethodGet, "/rest/1000/projects", nil, bearer); rec.Code != http.StatusForbidden {
		t.Errorf("first account with the second's token: %d, want 403", rec.Code)
	}
	if got := b.OAuth2Tokens().Issued; got != 1 {
		t.Errorf("second account issued %d tokens, want 1", got)
	}

	_, err = NewAccounts(New(Options{CustomerID: 1, OAuth2Clients: map[string]string{"x": "1"}}), New(Options{CustomerID: 2, Username: "u", OAuth2Clients: map[string]string{"x": "2"}}))
	if err == nil || !strings.Contains(err.Error(), `OAuth 2.0 client "x"`) {
		t.Errorf("a client id on two accounts: %v, want it refused", err)
	}
}

// The token endpoint's answers, a token and a refusal, match the OpenAPI
// document, and so does a well-formed request.
func TestOAuth2TokenMatchesOpenAPIDocument(t *testing.T) {
	s := New(Options{OAuth2Clients: map[string]string{"ci": "s3cret"}})
	router, err := gorillamux.NewRouter(loadServedDocument(t, s))
	if err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct {
		name   string
		secret string
		want   int
	}{
		{"token", "s3cret", http.StatusOK},
		{"refusal", "wrong", http.StatusUnauthorized},
	} {
		t.Run(tc.name, func(t *testing.T) {
			form := url.Values{"grant_type": {"client_credentials"}, "client_id": {"ci"}, "client_secret": {tc.secret}}.Encode()
			rec := do(t, s, http.MethodPost, OAuth2TokenPath, form, tokenRequest()...)
			wantStatus(t, rec, tc.want)
			req := httptest.NewRequest(http.MethodPost, OAuth2TokenPath, strings.NewReader(form))
			req.Header.Set("Content-Type", "application/x-www-form-urlencoded")
			route, params, err := router.FindRoute(req)
			if err != nil {
				t.Fatalf("no documented route: %v", err)
			}
			in := &openapi3filter.RequestValidationInput{
				Request: req, PathParams: params, Route: route,
				Options: &openapi3filter.Options{AuthenticationFunc: openapi3filter.NoopAuthenticationFunc},
			}
			if err := openapi3filter.ValidateRequest(context.Background(), in); err != nil {
				t.Errorf("the request does not match the document: %v", err)
			}
			err = openapi3filter.ValidateResponse(context.Background(), &openapi3filter.ResponseValidationInput{
				RequestValidationInput: in,
				Status:                 rec.Code,
				Header:                 rec.Header(),
				Body:                   io.NopCloser(bytes.NewReader(rec.Body.Bytes())),
				Options:                &openapi3filter.Options{IncludeResponseStatus: true},
			})
			if err != nil {
				t.Errorf("the answer does not match the document: %v\n%s", err, rec.Body)
			}
		})
	}
}
