package emulator

import (
	"bytes"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
)

func TestAcceptHeader(t *testing.T) {
	s := New(Options{})
	tests := []struct {
		accept string // "" means no Accept header
		want   int
	}{
		{"", http.StatusOK},
		{"application/json", http.StatusOK},
		{"*/*", http.StatusOK},
		{"application/*", http.StatusOK},
		{"text/html, application/json;q=0.9", http.StatusOK},
		{"application/json; charset=utf-8", http.StatusOK},
		{"text/plain", http.StatusNotAcceptable},
		{"text/csv, text/plain", http.StatusNotAcceptable},
		{"application/json;q=0", http.StatusNotAcceptable},
		{"application/json;q=0, */*", http.StatusNotAcceptable},
		{"application/xml", http.StatusNotAcceptable},
	}
	for _, tt := range tests {
		t.Run(tt.accept, func(t *testing.T) {
			opt := withHeader("Accept", tt.accept)
			if tt.accept == "" {
				opt = withoutHeader("Accept")
			}
			rec := do(t, s, http.MethodGet, "/rest/1000/projects", nil, opt)
			if tt.want == http.StatusOK {
				wantStatus(t, rec, http.StatusOK)
				return
			}
			wantErrorCode(t, rec, http.StatusNotAcceptable, CodeNotAcceptable)
		})
	}
}

func TestContentType(t *testing.T) {
	s := New(Options{})
	project := mustCreate(t, s, "/rest/1000/projects", map[string]any{"name": "p"})
	item := "/rest/1000/projects/" + idOf(t, project)
	tests := []struct {
		method, path, contentType string
		want                      int
	}{
		{http.MethodPost, "/rest/1000/projects", "application/json", http.StatusCreated},
		{http.MethodPost, "/rest/1000/projects", "application/json; charset=UTF-8", http.StatusCreated},
		{http.MethodPut, item, "application/json;charset=utf-8", http.StatusOK},
		{http.MethodPost, "/rest/1000/projects", "", http.StatusUnsupportedMediaType},
		{http.MethodPost, "/rest/1000/projects", "text/plain", http.StatusUnsupportedMediaType},
		{http.MethodPost, "/rest/1000/projects", "text/csv", http.StatusUnsupportedMediaType},
		{http.MethodPut, item, "application/json; charset=iso-8859-1", http.StatusUnsupportedMediaType},
		{http.MethodPut, item, "application/x-www-form-urlencoded", http.StatusUnsupportedMediaType},
		{http.MethodPut, item, "garbage;;", http.StatusUnsupportedMediaType},
	}
	for _, tt := range tests {
		t.Run(tt.method+" "+tt.contentType, func(t *testing.T) {
			opt := withHeader("Content-Type", tt.contentType)
			if tt.contentType == "" {
				opt = withoutHeader("Content-Type")
			}
			rec := do(t, s, tt.method, tt.path, map[string]any{"name": "n"}, opt)
			if tt.want != http.StatusUnsupportedMediaType {
				wantStatus(t, rec, tt.want)
				return
			}
			wantErrorCode(t, rec, http.StatusUnsupportedMediaType, CodeUnsupportedMediaType)
		})
	}
}

func TestBodyLimit(t *testing.T) {
	s := New(Options{})
	// A JSON object of exactly 1 MiB is accepted; one byte more is not.
	exact := `{"name":"n","pad":"` + strings.Repeat("x", maxJSONBody-len(`{"name":"n","pad":""}`)) + `"}`
	if len(exact) != maxJSONBody {
		t.Fatalf("test body is %d bytes", len(exact))
	}
	wantStatus(t, do(t, s, http.MethodPost, "/rest/1000/projects", exact), http.StatusCreated)
	over := `{"name":"n","pad":"` + strings.Repeat("x", maxJSONBody-len(`{"name":"n","pad":""}`)+1) + `"}`
	wantErrorCode(t, do(t, s, http.MethodPost, "/rest/1000/projects", over), http.StatusRequestEntityTooLarge, CodePayloadTooLarge)

	// Without a Content-Length (chunked), the limit holds while reading.
	r := httptest.NewRequest(http.MethodPost, "/rest/1000/projects", bytes.NewReader([]byte(over)))
	r.ContentLength = -1
	r.SetBasicAuth(DefaultUsername, DefaultPassword)
	r.Header.Set("Content-Type", "application/json")
	rec := httptest.NewRecorder()
	s.ServeHTTP(rec, r)
	wantErrorCode(t, rec, http.StatusRequestEntityTooLarge, CodePayloadTooLarge)
}

func TestMethodNotAllowed(t *testing.T) {
	s := New(Options{})
	project := mustCreate(t, s, "/rest/1000/projects", map[string]any{"name": "p"})
	tests := []struct {
		method, path, wantAllow string
	}{
		{http.MethodPatch, "/rest/1000/projects", "GET, HEAD, POST"},
		{http.MethodDelete, "/rest/1000/projects", "GET, HEAD, POST"},
		{http.MethodPost, "/rest/1000/projects/" + idOf(t, project), "DELETE, GET, HEAD, PUT"},
		{http.MethodPut, "/rest/1000/campaigns/1/notes", "GET, HEAD, POST"},
		{http.MethodPost, "/mail/swagger", "GET, HEAD"},
	}
	for _, tt := range tests {
		t.Run(tt.method+" "+tt.path, func(t *testing.T) {
			rec := do(t, s, tt.method, tt.path, map[string]any{})
			wantErrorCode(t, rec, http.StatusMethodNotAllowed, CodeMethodNotAllowed)
			if got := rec.Header().Get("Allow"); got != tt.wantAllow {
				t.Errorf("Allow = %q, want %q", got, tt.wantAllow)
			}
		})
	}
}
