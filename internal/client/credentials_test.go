package client

import (
	"context"
	"errors"
	"net/http"
	"strings"
	"testing"
)

// The credentials check reads only the status: every 2xx passes whatever
// the body, 401 and 403 fail with their sentinels, failures that outlast
// the retries fail, and refusals of the call itself pass.
func TestCheckCredentials(t *testing.T) {
	tests := map[string]struct {
		answer   func(w http.ResponseWriter, calls int)
		wantErr  error  // a sentinel the error must match; nil with wantText "" means success
		wantText string // a part of the error's text
		calls    int    // requests the server must see
	}{
		"200 with a page":        {answer: func(w http.ResponseWriter, _ int) { writeJSON(w, 200, `[{"id":5,"name":"P"}]`) }, calls: 1},
		"200 with an empty page": {answer: func(w http.ResponseWriter, _ int) { writeJSON(w, 200, `[]`) }, calls: 1},
		"200 with an object":     {answer: func(w http.ResponseWriter, _ int) { writeJSON(w, 200, `{"items":[],"total":0}`) }, calls: 1},
		"200 with HTML": {answer: func(w http.ResponseWriter, _ int) {
			w.Header().Set("Content-Type", "text/html")
			_, _ = w.Write([]byte("<html>ok</html>"))
		}, calls: 1},
		"200 with truncated JSON": {answer: func(w http.ResponseWriter, _ int) { writeJSON(w, 200, `[{"id":5,"na`) }, calls: 1},
		"200 with a whole collection": {answer: func(w http.ResponseWriter, _ int) {
			writeJSON(w, 200, "["+strings.Repeat(`{"id":5},`, 20000)+`{"id":6}]`)
		}, calls: 1},
		"204 without a body":              {answer: func(w http.ResponseWriter, _ int) { w.WriteHeader(http.StatusNoContent) }, calls: 1},
		"401":                             {answer: func(w http.ResponseWriter, _ int) { writeError(w, 401, "UNAUTHORIZED", "credentials are wrong", "") }, wantErr: ErrUnauthorized, wantText: "checking the credentials: GET /rest/1000/projects: 401 UNAUTHORIZED: credentials are wrong", calls: 1},
		"403":                             {answer: func(w http.ResponseWriter, _ int) { writeError(w, 403, "FORBIDDEN", "not your account", "") }, wantErr: ErrForbidden, wantText: "403 FORBIDDEN: not your account", calls: 1},
		"503 then 200 is retried":         {answer: func(w http.ResponseWriter, n int) { answerAfter(w, n, 2, 503) }, calls: 3},
		"429 then 200 is retried":         {answer: func(w http.ResponseWriter, n int) { answerAfter(w, n, 1, 429) }, calls: 2},
		"a dropped connection is retried": {answer: nil, calls: 2},
		"503 after every retry":           {answer: func(w http.ResponseWriter, _ int) { writeError(w, 503, "UNAVAILABLE", "down", "") }, wantText: "503 UNAVAILABLE: down", calls: 4},
		"500":                             {answer: func(w http.ResponseWriter, _ int) { writeError(w, 500, "INTERNAL", "boom", "") }, wantText: "500 INTERNAL: boom", calls: 1},
		"404 refuses the call only":       {answer: func(w http.ResponseWriter, _ int) { writeError(w, 404, "NOT_FOUND", "no collection", "") }, calls: 1},
		"410 refuses the call only":       {answer: func(w http.ResponseWriter, _ int) { writeError(w, 410, "GONE", "projects moved", "") }, calls: 1},
		"405 refuses the call only":       {answer: func(w http.ResponseWriter, _ int) { w.WriteHeader(http.StatusMethodNotAllowed) }, calls: 1},
	}
	for name, tc := range tests {
		t.Run(name, func(t *testing.T) {
			var n counter
			c, _ := newTestClient(t, http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
				call := n.inc()
				if r.Method != http.MethodGet || r.URL.Path != "/rest/1000/projects" || r.URL.RawQuery != "page=0&pageSize=1" {
					t.Errorf("request %s %s?%s, want GET /rest/1000/projects?page=0&pageSize=1", r.Method, r.URL.Path, r.URL.RawQuery)
				}
				if user, pass, ok := r.BasicAuth(); !ok || user != testUser || pass != testPassword {
					t.Errorf("credentials not presented")
				}
				if tc.answer == nil { // drop the first connection, then answer
					if call == 1 {
						dropConnection(t, w)
						return
					}
					w.WriteHeader(http.StatusOK)
					return
				}
				tc.answer(w, call)
			}))
			err := c.CheckCredentials(context.Background())
			switch {
			case tc.wantErr == nil && tc.wantText == "":
				if err != nil {
					t.Errorf("error %v, want none", err)
				}
			case err == nil:
				t.Errorf("no error, want %q", tc.wantText)
			default:
				if tc.wantErr != nil && !errors.Is(err, tc.wantErr) {
					t.Errorf("error %v does not match %v", err, tc.wantErr)
				}
				mustContain(t, err.Error(), tc.wantText)
			}
			if n.get() != tc.calls {
				t.Errorf("%d requests, want %d", n.get(), tc.calls)
			}
		})
	}
}

// answerAfter fails the first `fails` calls with status, then answers 200.
func answerAfter(w http.ResponseWriter, call, fails, status int) {
	if call <= fails {
		w.Header().Set("Retry-After", "0")
		writeError(w, status, "BUSY", "try again", "")
		return
	}
	writeJSON(w, 200, `[]`)
}

// A server that cannot be reached fails the check with the network error.
func TestCheckCredentials_unreachable(t *testing.T) {
	c, srv := newTestClient(t, http.NotFoundHandler(), noRetries)
	srv.Close()
	err := c.CheckCredentials(context.Background())
	if err == nil {
		t.Fatal("no error from a closed server")
	}
	mustContain(t, err.Error(), "checking the credentials: GET /rest/1000/projects")
	if _, ok := AsAPIError(err); ok {
		t.Errorf("a network failure reads as an API error: %v", err)
	}
}
