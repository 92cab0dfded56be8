package client

import (
	"context"
	"encoding/base64"
	"errors"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"net/url"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
)

func TestPath(t *testing.T) {
	tests := []struct {
		segments []string
		want     string
	}{
		{[]string{"projects"}, "projects"},
		{[]string{"projects", "5"}, "projects/5"},
		{[]string{"lists", "7", "contacts", "a/b c"}, "lists/7/contacts/a%2Fb%20c"},
		{[]string{"lists", "7", "contacts", "50%"}, "lists/7/contacts/50%25"},
		{[]string{"lists", "7", "contacts", "x?y#z"}, "lists/7/contacts/x%3Fy%23z"},
		{[]string{"contacts", "jöhn@example.com"}, "contacts/j%C3%B6hn@example.com"},
		{nil, ""},
	}
	for _, tt := range tests {
		if got := Path(tt.segments...); got != tt.want {
			t.Errorf("Path(%q) = %q, want %q", tt.segments, got, tt.want)
		}
	}
}

// TestRequestURLs checks the path and query the server receives, as raw
// (escaped) text, so that double escaping would show.
func TestRequestURLs(t *testing.T) {
	tests := []struct {
		name    string
		base    string // path appended to the server URL in BaseURL
		call    func(context.Context, *Client) error
		wantURI string
	}{
		{
			name:    "get one",
			call:    func(ctx context.Context, c *Client) error { return c.Resources.Get(ctx, "projects", "5", nil) },
			wantURI: "/rest/1000/projects/5",
		},
		{
			name:    "base URL given with /rest/",
			base:    "/rest/",
			call:    func(ctx context.Context, c *Client) error { return c.Resources.Get(ctx, "projects", "5", nil) },
			wantURI: "/rest/1000/projects/5",
		},
		{
			name:    "base URL with a prefix",
			base:    "/gateway/rest",
			call:    func(ctx context.Context, c *Client) error { return c.Resources.Get(ctx, "projects", "5", nil) },
			wantURI: "/gateway/rest/1000/projects/5",
		},
		{
			name: "id needing escapes, nested collection built with Path",
			call: func(ctx context.Context, c *Client) error {
				return c.Resources.Get(ctx, Path("lists", "7", "contacts"), "a/b c%d", nil)
			},
			wantURI: "/rest/1000/lists/7/contacts/a%2Fb%20c%25d",
		},
		{
			name: "whole path from Path",
			call: func(ctx context.Context, c *Client) error {
				return c.doJSON(ctx, http.MethodGet, Path("lists", "x/y", "contacts", "ü"), nil, nil, nil)
			},
			wantURI: "/rest/1000/lists/x%2Fy/contacts/%C3%BC",
		},
		{
			name: "create posts to the collection",
			call: func(ctx context.Context, c *Client) error {
				return c.Resources.Create(ctx, "projects", map[string]any{}, nil)
			},
			wantURI: "/rest/1000/projects",
		},
		{
			name: "update puts to the entity",
			call: func(ctx context.Context, c *Client) error {
				return c.Resources.Update(ctx, "projects", "5", map[string]any{}, nil)
			},
			wantURI: "/rest/1000/projects/5",
		},
		{
			name:    "delete",
			call:    func(ctx context.Context, c *Client) error { return c.Resources.Delete(ctx, "projects", "a b") },
			wantURI: "/rest/1000/projects/a%20b",
		},
		{
			name: "query parameters",
			call: func(ctx context.Context, c *Client) error {
				return c.doJSON(ctx, http.MethodGet, "lists", url.Values{"name": {"a&b=c"}}, nil, nil)
			},
			wantURI: "/rest/1000/lists?name=a%26b%3Dc",
		},
		{
			name: "leading slash tolerated",
			call: func(ctx context.Context, c *Client) error {
				return c.doJSON(ctx, http.MethodGet, "/projects", nil, nil, nil)
			},
			wantURI: "/rest/1000/projects",
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			var got []string
			var mu sync.Mutex
			srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
				mu.Lock()
				got = append(got, r.RequestURI)
				mu.Unlock()
				b, _ := io.ReadAll(r.Body)
				echoEntity(w, http.StatusOK, b)
			}))
			defer srv.Close()
			c, err := New(Config{BaseURL: srv.URL + tt.base, CustomerID: testCustomerID, Auth: BasicAuth{Username: "u", Password: "p"}})
			if err != nil {
				t.Fatal(err)
			}
			if err := tt.call(context.Background(), c); err != nil {
				t.Fatalf("call: %v", err)
			}
			mu.Lock()
			defer mu.Unlock()
			if diff := cmp.Diff([]string{tt.wantURI}, got); diff != "" {
				t.Errorf("request URIs (-want +got):\n%s", diff)
			}
		})
	}
}

func TestRequestHeaders(t *testing.T) {
	type seen struct {
		Method, Accept, ContentType, UserAgent, User, Password string
		HasContentType, HasAuth                                bool
		Body                                                   string
	}
	tests := []struct {
		name      string
		userAgent string
		call      func(context.Context, *Client) error
		want      seen
	}{
		{
			name: "GET",
			call: func(ctx context.Context, c *Client) error {
				return c.Resources.Get(ctx, "projects", "5", &map[string]any{})
			},
			want: seen{Method: "GET", Accept: "application/json", UserAgent: "terraform-provider-rms"},
		},
		{
			name: "POST with body",
			call: func(ctx context.Context, c *Client) error {
				return c.Resources.Create(ctx, "projects", map[string]string{"name": "ünï"}, &map[string]any{})
			},
			want: seen{Method: "POST", Accept: "application/json", ContentType: "application/json; charset=utf-8",
				HasContentType: true, UserAgent: "terraform-provider-rms", Body: `{"name":"ünï"}`},
		},
		{
			name: "PUT with body",
			call: func(ctx context.Context, c *Client) error {
				return c.Resources.Update(ctx, "projects", "5", map[string]string{"name": "x"}, &map[string]any{})
			},
			want: seen{Method: "PUT", Accept: "application/json", ContentType: "application/json; charset=utf-8",
				HasContentType: true, UserAgent: "terraform-provider-rms", Body: `{"name":"x"}`},
		},
		{
			name: "DELETE",
			call: func(ctx context.Context, c *Client) error { return c.Resources.Delete(ctx, "projects", "5") },
			want: seen{Method: "DELETE", Accept: "application/json", UserAgent: "terraform-provider-rms"},
		},
		{
			name:      "custom User-Agent",
			userAgent: "terraform-provider-rms/1.2.3 (+terraform 1.11.4)",
			call:      func(ctx context.Context, c *Client) error { return c.Resources.Get(ctx, "projects", "5", nil) },
			want:      seen{Method: "GET", Accept: "application/json", UserAgent: "terraform-provider-rms/1.2.3 (+terraform 1.11.4)"},
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			var got []seen
			var mu sync.Mutex
			c, _ := newTestClient(t, http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
				b, _ := io.ReadAll(r.Body)
				s := seen{
					Method: r.Method, Accept: r.Header.Get("Accept"), ContentType: r.Header.Get("Content-Type"),
					UserAgent: r.Header.Get("User-Agent"), Body: string(b),
				}
				_, s.HasContentType = r.Header["Content-Type"]
				s.User, s.Password, s.HasAuth = r.BasicAuth()
				mu.Lock()
				got = append(got, s)
				mu.Unlock()
				if r.Method == http.MethodDelete {
					w.WriteHeader(http.StatusNoContent)
					return
				}
				echoEntity(w, http.StatusOK, b)
			}), func(c *Config) { c.UserAgent = tt.userAgent })
			if err := tt.call(context.Background(), c); err != nil {
				t.Fatalf("call: %v", err)
			}
			want := tt.want
			want.User, want.Password, want.HasAuth = testUser, testPassword, true
			mu.Lock()
			defer mu.Unlock()
			if diff := cmp.Diff([]seen{want}, got); diff != "" {
				t.Errorf("request as the server saw it (-want +got):\n%s", diff)
			}
		})
	}
}

func TestAPIErrors(t *testing.T) {
	sentinels := []error{ErrNotFound, ErrGone, ErrUnauthorized, ErrForbidden, ErrValidation, ErrConflict, ErrRateLimited}
	longHTML := "<!DOCTYPE html>\n<html>\n  <head><title>502 Bad Gateway</title></head>\n  <body>" +
		strings.Repeat("<p>upstream  went\taway</p>\n", 2000) + "</body></html>"
	tests := []struct {
		name        string
		status      int
		contentType string
		body        string
		want        APIError // Method and Path are filled in below
		wantIs      error    // nil: matches no sentinel
		wantText    []string
		wantReason  string
	}{
		{
			name: "validation with field", status: 400, contentType: "application/json; charset=utf-8",
			body:       `{"status":400,"code":"VALIDATION_ERROR","message":"name is mandatory","field":"name"}`,
			want:       APIError{StatusCode: 400, Code: "VALIDATION_ERROR", Message: "name is mandatory", Field: "name"},
			wantIs:     ErrValidation,
			wantText:   []string{"GET /rest/1000/projects/5: 400 VALIDATION_ERROR: name is mandatory (field \"name\")"},
			wantReason: "name is mandatory",
		},
		{
			name: "unprocessable is a validation error", status: 422, contentType: "application/json",
			body:   `{"code":"VALIDATION_ERROR","message":"bad value","field":"properties.colour"}`,
			want:   APIError{StatusCode: 422, Code: "VALIDATION_ERROR", Message: "bad value", Field: "properties.colour"},
			wantIs: ErrValidation, wantText: []string{`(field "properties.colour")`}, wantReason: "bad value",
		},
		{
			name: "unauthorized", status: 401, contentType: "application/json",
			body:   `{"status":401,"code":"UNAUTHORIZED","message":"wrong credentials"}`,
			want:   APIError{StatusCode: 401, Code: "UNAUTHORIZED", Message: "wrong credentials"},
			wantIs: ErrUnauthorized, wantText: []string{"401 UNAUTHORIZED: wrong credentials"}, wantReason: "wrong credentials",
		},
		{
			name: "forbidden", status: 403, contentType: "application/json",
			body:   `{"status":403,"code":"FORBIDDEN","message":"not your account"}`,
			want:   APIError{StatusCode: 403, Code: "FORBIDDEN", Message: "not your account"},
			wantIs: ErrForbidden, wantReason: "not your account",
		},
		{
			name: "not found", status: 404, contentType: "application/json",
			body:   `{"status":404,"code":"NOT_FOUND","message":"project 5 does not exist"}`,
			want:   APIError{StatusCode: 404, Code: "NOT_FOUND", Message: "project 5 does not exist"},
			wantIs: ErrNotFound, wantText: []string{"GET /rest/1000/projects/5: 404 NOT_FOUND: project 5 does not exist"},
			wantReason: "project 5 does not exist",
		},
		{
			name: "conflict", status: 409, contentType: "application/json",
			body:   `{"status":409,"code":"CONFLICT","message":"exists"}`,
			want:   APIError{StatusCode: 409, Code: "CONFLICT", Message: "exists"},
			wantIs: ErrConflict, wantReason: "exists",
		},
		{
			name: "gone carries the reason", status: 410, contentType: "application/json",
			body:   `{"status":410,"code":"GONE","message":"Projects were retired on 2026-01-01; use lists"}`,
			want:   APIError{StatusCode: 410, Code: "GONE", Message: "Projects were retired on 2026-01-01; use lists"},
			wantIs: ErrGone, wantText: []string{"410 GONE: Projects were retired"},
			wantReason: "Projects were retired on 2026-01-01; use lists",
		},
		{
			name: "rate limited", status: 429, contentType: "application/json",
			body:   `{"status":429,"code":"TOO_MANY_REQUESTS","message":"slow down"}`,
			want:   APIError{StatusCode: 429, Code: "TOO_MANY_REQUESTS", Message: "slow down"},
			wantIs: ErrRateLimited, wantReason: "slow down",
		},
		{
			name: "server error matches no sentinel", status: 500, contentType: "application/json",
			body: `{"status":500,"code":"INTERNAL_ERROR","message":"boom"}`,
			want: APIError{StatusCode: 500, Code: "INTERNAL_ERROR", Message: "boom"}, wantReason: "boom",
		},
		{
			name: "error instead of code, unknown fields", status: 400, contentType: "application/json",
			body: `{"error":"Bad Request","message":"page is malformed","timestamp":"2026-11-22T10:00:00Z"}`,
			want: APIError{StatusCode: 400, Code: "Bad Request", Message: "page is malformed"}, wantIs: ErrValidation,
			wantReason: "page is malformed",
		},
		{
			name: "JSON without a message keeps the body", status: 409, contentType: "application/json",
			body: `{"code":"CONFLICT"}`,
			want: APIError{StatusCode: 409, Code: "CONFLICT", Body: `{"code":"CONFLICT"}`}, wantIs: ErrConflict,
			wantReason: `{"code":"CONFLICT"}`,
		},
		{
			// Gateways relabel: a JSON object is read whatever its label.
			name: "JSON body labelled as text is parsed", status: 404, contentType: "text/plain",
			body: `{"code":"NOT_FOUND","message":"x"}`,
			want: APIError{StatusCode: 404, Code: "NOT_FOUND", Message: "x"}, wantIs: ErrNotFound,
			wantText: []string{"404 NOT_FOUND: x"},
		},
		{
			name: "other JSON: nested error object", status: 400, contentType: "application/problem+json",
			body: `{"error":{"code":"BadArgument","description":"name is too long","target":"name"}}`,
			want: APIError{StatusCode: 400, Code: "BadArgument", Message: "name is too long", Field: "name"}, wantIs: ErrValidation,
			wantText: []string{`400 BadArgument: name is too long (field "name")`},
		},
		{
			name: "other JSON: problem details", status: 409, contentType: "application/problem+json",
			body: `{"type":"about:blank","title":"Conflict","detail":"originalId exists","status":409}`,
			want: APIError{StatusCode: 409, Message: "originalId exists"}, wantIs: ErrConflict,
			wantText: []string{"409 Conflict: originalId exists"},
		},
		{
			name: "other JSON: error word and errors list", status: 400, contentType: "application/json",
			body: `{"error":"Bad Request","errors":[{"message":"must not be blank","field":"name"}]}`,
			want: APIError{StatusCode: 400, Code: "Bad Request", Message: "must not be blank", Field: "name"}, wantIs: ErrValidation,
			wantText: []string{`must not be blank (field "name")`},
		},
		{
			name: "other JSON without a message keeps the body", status: 500, contentType: "application/json",
			body:     `{"timestamp":1700000000000,"path":"/x"}`,
			want:     APIError{StatusCode: 500, Body: `{"timestamp":1700000000000,"path":"/x"}`},
			wantText: []string{`500 Internal Server Error: {"timestamp"`},
		},
		{
			name: "plain text", status: 403, contentType: "text/plain",
			body: "  Access\n denied  \n", want: APIError{StatusCode: 403, Body: "Access denied"}, wantIs: ErrForbidden,
			wantText: []string{"403 Forbidden: Access denied"}, wantReason: "Access denied",
		},
		{
			name: "empty body", status: 401, contentType: "",
			want: APIError{StatusCode: 401}, wantIs: ErrUnauthorized, wantText: []string{"401 Unauthorized"},
		},
		{
			name: "broken JSON", status: 400, contentType: "application/json", body: `{"code":"VALIDATION_`,
			want: APIError{StatusCode: 400, Body: `{"code":"VALIDATION_`}, wantIs: ErrValidation,
		},
		{
			name: "HTML without a title", status: 503, contentType: "text/html",
			body:       `<html><body><h1>Service Unavailable</h1><p>try &amp; later</p></body></html>`,
			want:       APIError{StatusCode: 503, Body: "an HTML page: Service Unavailable try & later"},
			wantText:   []string{"GET /rest/1000/projects/5: 503 Service Unavailable: an HTML page: Service Unavailable try & later"},
			wantReason: "an HTML page: Service Unavailable try & later",
		},
		{
			name: "text/html with a charset, title, script and style", status: 403, contentType: "text/html; charset=UTF-8",
			body: `<html><head><title>Access Denied</title><style>p{color:red}</style></head><body><script>track()</script><p>blocked by policy</p></body></html>`,
			want: APIError{StatusCode: 403, Body: "an HTML page: Access Denied: blocked by policy"}, wantIs: ErrForbidden,
			wantText: []string{"403 Forbidden: an HTML page: Access Denied: blocked by policy"},
		},
		{
			name: "HTML recognised without a content type", status: 500, contentType: "",
			body: "<!DOCTYPE html>\n<html><body>oops</body></html>",
			want: APIError{StatusCode: 500, Body: "an HTML page: oops"}, wantText: []string{"500 Internal Server Error: an HTML page: oops"},
		},
		{
			name: "other JSON: nested error object in plain JSON", status: 422, contentType: "application/json",
			body: `{"error":{"code":"InvalidInput","description":"name is too long","target":"name","details":[]}}`,
			want: APIError{StatusCode: 422, Code: "InvalidInput", Message: "name is too long", Field: "name"}, wantIs: ErrValidation,
			wantText: []string{`422 InvalidInput: name is too long (field "name")`},
		},
		{
			name: "other JSON: nested error with a numeric code", status: 400, contentType: "application/json",
			body: `{"error":{"code":4001,"message":"bad value","target":"properties.age"}}`,
			want: APIError{StatusCode: 400, Code: "4001", Message: "bad value", Field: "properties.age"}, wantIs: ErrValidation,
		},
		{
			name: "other JSON: OAuth style", status: 401, contentType: "application/json",
			body: `{"error":"invalid_token","error_description":"the token expired"}`,
			want: APIError{StatusCode: 401, Code: "invalid_token", Message: "the token expired"}, wantIs: ErrUnauthorized,
			wantText: []string{"401 invalid_token: the token expired"},
		},
		{
			name: "other JSON: errors list, first entry wins", status: 400, contentType: "application/json",
			body: `{"errors":[{"code":"TOO_SHORT","detail":"name is too short","property":"name"},{"code":"OTHER","detail":"x"}]}`,
			want: APIError{StatusCode: 400, Code: "TOO_SHORT", Message: "name is too short", Field: "name"}, wantIs: ErrValidation,
		},
		{
			name: "empty body with 502 names the status and path", status: 502, contentType: "application/json",
			want: APIError{StatusCode: 502}, wantText: []string{"GET /rest/1000/projects/5: 502 Bad Gateway"},
		},
		{
			name: "blank body with 500", status: 500, contentType: "text/plain",
			body: " \n ", want: APIError{StatusCode: 500}, wantText: []string{"GET /rest/1000/projects/5: 500 Internal Server Error"},
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			c, _ := newTestClient(t, http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
				if tt.contentType != "" {
					w.Header().Set("Content-Type", tt.contentType)
				} else {
					w.Header()["Content-Type"] = nil // no sniffing
				}
				w.WriteHeader(tt.status)
				_, _ = io.WriteString(w, tt.body)
			}), noRetries)
			err := c.Resources.Get(context.Background(), "projects", "5", &map[string]any{})
			if err == nil {
				t.Fatal("want an error")
			}
			apiErr, ok := AsAPIError(err)
			if !ok {
				t.Fatalf("AsAPIError(%v) = false", err)
			}
			want := tt.want
			want.Method, want.Path = "GET", "/rest/1000/projects/5"
			if diff := cmp.Diff(&want, apiErr); diff != "" {
				t.Errorf("APIError (-want +got):\n%s", diff)
			}
			for _, s := range sentinels {
				if got := errors.Is(err, s); got != (s == tt.wantIs) { //nolint:errorlint // which sentinel of the table, by identity
					t.Errorf("errors.Is(err, %v) = %v", s, got)
				}
			}
			for _, s := range tt.wantText {
				mustContain(t, err.Error(), s)
			}
			if got := apiErr.Reason(); got != tt.wantReason && tt.wantReason != "" {
				t.Errorf("Reason() = %q, want %q", got, tt.wantReason)
			}
		})
	}

	t.Run("HTML error page gives a bounded excerpt", func(t *testing.T) {
		c, _ := newTestClient(t, http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
			w.Header().Set("Content-Type", "text/html")
			w.WriteHeader(http.StatusBadGateway)
			_, _ = io.WriteString(w, longHTML)
		}), noRetries)
		err := c.Resources.Get(context.Background(), "projects", "5", nil)
		if err == nil {
			t.Fatal("want an error")
		}
		msg := err.Error()
		// The page's text, without tags and without the title that repeats
		// the status.
		mustContain(t, msg, "502 Bad Gateway: an HTML page: upstream went away upstream went away")
		if strings.Contains(msg, "<") {
			t.Errorf("HTML tags in the message: %q", msg)
		}
		if strings.ContainsAny(msg, "\n\t") {
			t.Errorf("excerpt is not one line: %q", msg)
		}
		if len(msg) > 400 {
			t.Errorf("error text is %d bytes, want a bounded excerpt: %q", len(msg), msg)
		}
		if !strings.HasSuffix(msg, "...") {
			t.Errorf("truncated excerpt should end with an ellipsis: %q", msg)
		}
	})

	t.Run("empty 502 to a POST is uncertain and names the call", func(t *testing.T) {
		var n counter
		c, _ := newTestClient(t, http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
			n.inc()
			w.WriteHeader(http.StatusBadGateway)
		}))
		_, err := c.Projects.Create(context.Background(), ProjectInput{Name: "n"})
		if !IsUncertain(err) || IsActed(err) {
			t.Fatalf("err = %v, want uncertain and not acted", err)
		}
		mustContain(t, err.Error(), "POST /rest/1000/projects")
		mustContain(t, err.Error(), "502 Bad Gateway")
		if apiErr, ok := AsAPIError(err); !ok || apiErr.StatusCode != http.StatusBadGateway {
			t.Errorf("AsAPIError = %v, %v", apiErr, ok)
		}
		if n.get() != 1 {
			t.Errorf("%d POSTs, want 1: a 502 may hide a create that happened", n.get())
		}
	})

	t.Run("invalid UTF-8 in the excerpt is replaced", func(t *testing.T) {
		c, _ := newTestClient(t, http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
			w.Header().Set("Content-Type", "text/plain")
			w.WriteHeader(http.StatusForbidden)
			_, _ = w.Write([]byte("caf\xe9 closed"))
		}), noRetries)
		err := c.Resources.Get(context.Background(), "projects", "5", nil)
		apiErr, ok := AsAPIError(err)
		if !ok {
			t.Fatalf("not an APIError: %v", err)
		}
		if apiErr.Body != "caf? closed" {
			t.Errorf("Body = %q, want %q", apiErr.Body, "caf? closed")
		}
	})

	t.Run("typed errors survive wrapping by helpers", func(t *testing.T) {
		c, _ := newTestClient(t, http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
			writeError(w, http.StatusGone, "GONE", "retired", "")
		}), noRetries)
		_, err := c.Projects.Get(context.Background(), "5")
		if !errors.Is(err, ErrGone) {
			t.Fatalf("errors.Is(%v, ErrGone) = false", err)
		}
		mustContain(t, err.Error(), "reading project 5: ")
		apiErr, ok := AsAPIError(err)
		if !ok || apiErr.Reason() != "retired" {
			t.Errorf("AsAPIError = %v, %v; want reason %q", apiErr, ok, "retired")
		}
	})

	t.Run("AsAPIError on other errors", func(t *testing.T) {
		for _, err := range []error{nil, errors.New("plain"), fmt.Errorf("wrapped: %w", context.Canceled)} {
			if apiErr, ok := AsAPIError(err); ok || apiErr != nil {
				t.Errorf("AsAPIError(%v) = %v, %v; want nil, false", err, apiErr, ok)
			}
		}
	})
}

func TestDecodeSuccess(t *testing.T) {
	type target struct {
		ID   ID     `json:"id"`
		Name string `json:"name"`
	}
	tests := []struct {
		name        string
		contentType string // "-" means no header at all
		body        string
		want        target
		wantErr     string
	}{
		{name: "plain", contentType: "application/json; charset=utf-8", body: `{"id":5,"name":"a"}`, want: target{ID: "5", Name: "a"}},
		{name: "unknown fields tolerated", contentType: "application/json", body: `{"id":5,"name":"a","new":{"x":[1,2]},"other":null}`, want: target{ID: "5", Name: "a"}},
		{name: "string id", contentType: "application/json", body: `{"id":"7"}`, want: target{ID: "7"}},
		{name: "big id exact", contentType: "application/json", body: `{"id":123456789012345678901234567890}`, want: target{ID: "123456789012345678901234567890"}},
		{name: "int64 edge exact", contentType: "application/json", body: `{"id":9007199254740993}`, want: target{ID: "9007199254740993"}},
		{name: "problem+json accepted", contentType: "application/problem+json", body: `{"id":1}`, want: target{ID: "1"}},
		{name: "no content type", contentType: "-", body: `{"id":2}`, want: target{ID: "2"}},
		{name: "html with 200", contentType: "text/html; charset=utf-8", body: "<html><body>Please log in</body></html>",
			wantErr: "GET /rest/1000/things/1: expected a JSON answer but the server sent text/html: <html><body>Please log in</body></html>"},
		{name: "empty body", contentType: "application/json", body: "", wantErr: "empty body"},
		{name: "whitespace body", contentType: "application/json", body: " \n", wantErr: "empty body"},
		{name: "truncated", contentType: "application/json", body: `{"id":5,"name":"ab`, wantErr: "cut short"},
		{name: "malformed", contentType: "application/json", body: `{"id":5,,}`, wantErr: "decoding the JSON answer"},
		{name: "wrong type", contentType: "application/json", body: `{"name":5}`, wantErr: "decoding the JSON answer"},
		{name: "bad id", contentType: "application/json", body: `{"id":true}`, wantErr: "expected a number or a string"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			c, _ := newTestClient(t, http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
				if tt.contentType == "-" {
					w.Header()["Content-Type"] = nil
				} else {
					w.Header().Set("Content-Type", tt.contentType)
				}
				_, _ = io.WriteString(w, tt.body)
			}))
			var got target
			err := c.Resources.Get(context.Background(), "things", "1", &got)
			if tt.wantErr != "" {
				if err == nil {
					t.Fatalf("decoded %+v, want an error containing %q", got, tt.wantErr)
				}
				mustContain(t, err.Error(), tt.wantErr)
				if _, ok := AsAPIError(err); ok {
					t.Errorf("a 200 answer must not read as an APIError: %v", err)
				}
				return
			}
			if err != nil {
				t.Fatalf("Resources.Get: %v", err)
			}
			if diff := cmp.Diff(tt.want, got); diff != "" {
				t.Errorf("decoded (-want +got):\n%s", diff)
			}
		})
	}

	t.Run("HTML excerpt is bounded", func(t *testing.T) {
		c, _ := newTestClient(t, http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
			w.Header().Set("Content-Type", "text/html")
			_, _ = io.WriteString(w, "<html>"+strings.Repeat("x", 100000)+"</html>")
		}))
		err := c.Resources.Get(context.Background(), "things", "1", &map[string]any{})
		if err == nil {
			t.Fatal("want an error")
		}
		if len(err.Error()) > 500 {
			t.Errorf("error is %d bytes long", len(err.Error()))
		}
	})

	t.Run("numbers in entities round-trip exactly", func(t *testing.T) {
		c, _ := newTestClient(t, http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
			writeJSON(w, http.StatusOK, `{"big":12345678901234567890,"f":0.1}`)
		}))
		var got Entity
		if err := c.Resources.Get(context.Background(), "things", "1", &got); err != nil {
			t.Fatal(err)
		}
		if s := fmt.Sprint(got["big"]); s != "12345678901234567890" {
			t.Errorf("big = %s", s)
		}
		if s := fmt.Sprint(got["f"]); s != "0.1" {
			t.Errorf("f = %s", s)
		}
	})

	t.Run("nil out discards the body", func(t *testing.T) {
		c, _ := newTestClient(t, http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
			w.Header().Set("Content-Type", "text/html")
			_, _ = io.WriteString(w, "<html>not checked</html>")
		}))
		if err := c.Resources.Get(context.Background(), "things", "1", nil); err != nil {
			t.Errorf("Resources.Get with nil out: %v", err)
		}
	})
}

func TestRedirectNotFollowed(t *testing.T) {
	methods := []struct {
		name string
		call func(context.Context, *Client) error
	}{
		{"GET", func(ctx context.Context, c *Client) error {
			return c.Resources.Get(ctx, "projects", "5", &map[string]any{})
		}},
		{"POST", func(ctx context.Context, c *Client) error {
			return c.Resources.Create(ctx, "projects", map[string]any{"name": "x"}, &map[string]any{})
		}},
		{"PUT", func(ctx context.Context, c *Client) error {
			return c.Resources.Update(ctx, "projects", "5", map[string]any{"name": "x"}, &map[string]any{})
		}},
		{"DELETE", func(ctx context.Context, c *Client) error { return c.Resources.Delete(ctx, "projects", "5") }},
	}
	for _, status := range []int{http.StatusFound, http.StatusTemporaryRedirect, http.StatusPermanentRedirect} {
		for _, m := range methods {
			t.Run(fmt.Sprintf("%s %d", m.name, status), func(t *testing.T) {
				var other, origin counter
				otherSrv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
					other.inc()
					writeJSON(w, http.StatusOK, `{"id":5}`)
				}))
				defer otherSrv.Close()
				c, _ := newTestClient(t, http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
					origin.inc()
					http.Redirect(w, r, otherSrv.URL+r.URL.Path, status)
				}))
				err := m.call(context.Background(), c)
				if err == nil {
					t.Fatal("a redirect was accepted")
				}
				mustContain(t, err.Error(), "redirect")
				if n := other.get(); n != 0 {
					t.Errorf("the redirect target received %d requests", n)
				}
				if n := origin.get(); n != 1 {
					t.Errorf("the origin received %d requests, want 1 (no retry of a refused redirect)", n)
				}
			})
		}
	}
}

func TestLoggerNeverSeesCredentials(t *testing.T) {
	var attempts counter
	log := &recordingLogger{}
	c, srv := newTestClient(t, http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		switch {
		case r.URL.Path == "/rest/1000/projects/5" && attempts.inc() == 1:
			writeError(w, http.StatusServiceUnavailable, "UNAVAILABLE", "try again", "")
		case r.URL.Path == "/rest/1000/projects/5":
			writeJSON(w, http.StatusOK, `{"id":5,"name":"p"}`)
		case r.URL.Path == "/rest/1000/projects/6":
			writeError(w, http.StatusBadRequest, "VALIDATION_ERROR", "nope", "name")
		default:
			dropConnection(t, w)
		}
	}), func(c *Config) { c.Logger = log })
	ctx := context.Background()
	if _, err := c.Projects.Get(ctx, "5"); err != nil {
		t.Fatalf("Projects.Get: %v", err)
	}
	if err := c.Resources.Update(ctx, "projects", "6", map[string]string{"name": ""}, nil); err == nil {
		t.Fatal("want a validation error")
	}
	if err := c.Resources.Create(ctx, "projects", map[string]string{"name": "x"}, nil); err == nil {
		t.Fatal("want a transport error")
	}

	entries := log.all()
	secret := base64.StdEncoding.EncodeToString([]byte(testUser + ":" + testPassword))
	for _, e := range entries {
		text := e.text()
		for _, bad := range []string{testPassword, secret, "Authorization", "Basic "} {
			if strings.Contains(text, bad) {
				t.Errorf("log entry contains %q: %s", bad, text)
			}
		}
	}

	// Each request is logged with its method, path and status (or error).
	type summary struct {
		Level, Msg, Method, Path string
		Status                   any
		HasError                 bool
	}
	var got []summary
	for _, e := range entries {
		_, hasErr := e.fields["error"]
		got = append(got, summary{e.level, e.msg, fmt.Sprint(e.fields["method"]), fmt.Sprint(e.fields["path"]), e.fields["status"], hasErr})
	}
	want := []summary{
		{"info", "retrying request", "GET", "/rest/1000/projects/5", nil, false},
		{"debug", "request", "GET", "/rest/1000/projects/5", 200, false},
		{"debug", "request", "PUT", "/rest/1000/projects/6", 400, false},
		{"debug", "request failed", "POST", "/rest/1000/projects", nil, true},
	}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("log entries (-want +got):\n%s", diff)
	}
	for _, e := range entries {
		if e.msg == "request failed" {
			// The error names the URL; it must be the one without credentials.
			mustContain(t, fmt.Sprint(e.fields["error"]), srv.URL)
		}
	}
}

func TestContextCancellationStopsRetries(t *testing.T) {
	t.Run("cancelled while waiting to retry", func(t *testing.T) {
		var attempts counter
		ctx, cancel := context.WithCancel(context.Background())
		defer cancel()
		c, _ := newTestClient(t, http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
			attempts.inc()
			writeError(w, http.StatusServiceUnavailable, "UNAVAILABLE", "down", "")
			w.(http.Flusher).Flush()
			cancel()
		}), func(c *Config) {
			// Without cancellation this test would wait an hour before retrying.
			c.RetryWaitMin, c.RetryWaitMax, c.MaxRetries = time.Hour, time.Hour, 10
		})
		done := make(chan error, 1)
		go func() { done <- c.Resources.Get(ctx, "projects", "5", nil) }()
		var err error
		select {
		case err = <-done:
		case <-time.After(20 * time.Second): // a watchdog, not a timing assertion
			t.Fatal("the call did not return after its context was cancelled")
		}
		if !errors.Is(err, context.Canceled) {
			t.Errorf("error %v does not wrap context.Canceled", err)
		}
		if n := attempts.get(); n != 1 {
			t.Errorf("%d attempts, want 1", n)
		}
	})

	t.Run("already cancelled", func(t *testing.T) {
		var attempts counter
		c, _ := newTestClient(t, http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
			attempts.inc()
			writeJSON(w, http.StatusOK, `{}`)
		}))
		ctx, cancel := context.WithCancel(context.Background())
		cancel()
		err := c.Resources.Create(ctx, "projects", map[string]string{"name": "x"}, nil)
		if !errors.Is(err, context.Canceled) {
			t.Errorf("error %v does not wrap context.Canceled", err)
		}
		if n := attempts.get(); n != 0 {
			t.Errorf("%d requests reached the server", n)
		}
	})

	t.Run("cancelled as the answer arrives: body closed", func(t *testing.T) {
		ctx, cancel := context.WithCancel(context.Background())
		defer cancel()
		body := &trackingBody{Reader: strings.NewReader(`{"id":1}`)}
		c, err := New(Config{
			BaseURL: "https://server.example.com", CustomerID: 1, Auth: BasicAuth{},
			Transport: roundTripFunc(func(r *http.Request) (*http.Response, error) {
				cancel()
				return &http.Response{
					StatusCode: http.StatusOK, Header: http.Header{"Content-Type": {"application/json"}},
					Body: body, Request: r,
				}, nil
			}),
		})
		if err != nil {
			t.Fatal(err)
		}
		err = c.Resources.Get(ctx, "projects", "1", &map[string]any{})
		if !errors.Is(err, context.Canceled) {
			t.Errorf("error %v does not wrap context.Canceled", err)
		}
		if !body.closed.Load() {
			t.Error("the response body was left open")
		}
	})
}

type roundTripFunc func(*http.Request) (*http.Response, error)

func (f roundTripFunc) RoundTrip(r *http.Request) (*http.Response, error) { return f(r) }
