package emulator

import (
	"bytes"
	"encoding/json"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
)

// advance moves the fake clock of the synctest bubble the test runs in by d,
// at once: the sleep ends when every other goroutine of the bubble is
// blocked and the clock has jumped, never in real time.
func advance(d time.Duration) { time.Sleep(d) }

// rfc3339 is a time as the emulator writes dateCreated, dateModified and
// event times by default: whole seconds, UTC, "Z". The layout is spelled
// out rather than taken from the emulator, so a test that compares with it
// checks the format as a literal would.
func rfc3339(t time.Time) string { return t.UTC().Format("2006-01-02T15:04:05Z") }

// reqOption changes a request before it is served.
type reqOption func(*http.Request)

func withHeader(k, v string) reqOption { return func(r *http.Request) { r.Header.Set(k, v) } }
func withoutHeader(k string) reqOption { return func(r *http.Request) { r.Header.Del(k) } }
func withAuth(user, pass string) reqOption {
	return func(r *http.Request) { r.SetBasicAuth(user, pass) }
}
func withoutAuth() reqOption { return withoutHeader("Authorization") }

// do serves one request, as a well-behaved client sends it: default
// credentials, Accept: application/json and, with a body, Content-Type:
// application/json. body is sent as is when a string, else JSON-encoded.
func do(t *testing.T, h http.Handler, method, path string, body any, opts ...reqOption) *httptest.ResponseRecorder {
	t.Helper()
	var raw []byte
	switch b := body.(type) {
	case nil:
	case string:
		raw = []byte(b)
	case []byte:
		raw = b
	default:
		var err error
		if raw, err = json.Marshal(b); err != nil {
			t.Fatalf("encoding request body: %v", err)
		}
	}
	r := httptest.NewRequest(method, path, bytes.NewReader(raw))
	r.SetBasicAuth(DefaultUsername, DefaultPassword)
	r.Header.Set("Accept", "application/json")
	if body != nil {
		r.Header.Set("Content-Type", "application/json")
	}
	for _, o := range opts {
		o(r)
	}
	rec := httptest.NewRecorder()
	h.ServeHTTP(rec, r)
	return rec
}

func wantStatus(t *testing.T, rec *httptest.ResponseRecorder, want int) {
	t.Helper()
	if rec.Code != want {
		t.Fatalf("status = %d, want %d; body: %s", rec.Code, want, rec.Body.String())
	}
}

// decodeObject decodes a JSON object response, keeping numbers exact.
func decodeObject(t *testing.T, rec *httptest.ResponseRecorder) map[string]any {
	t.Helper()
	var m map[string]any
	dec := json.NewDecoder(bytes.NewReader(rec.Body.Bytes()))
	dec.UseNumber()
	if err := dec.Decode(&m); err != nil {
		t.Fatalf("decoding object from %q: %v", rec.Body.String(), err)
	}
	return m
}

func decodeArray(t *testing.T, rec *httptest.ResponseRecorder) []map[string]any {
	t.Helper()
	var a []map[string]any
	dec := json.NewDecoder(bytes.NewReader(rec.Body.Bytes()))
	dec.UseNumber()
	if err := dec.Decode(&a); err != nil {
		t.Fatalf("decoding array from %q: %v", rec.Body.String(), err)
	}
	return a
}

// wantError checks status, JSON content type and the exact error body.
func wantError(t *testing.T, rec *httptest.ResponseRecorder, want ErrorBody) {
	t.Helper()
	wantStatus(t, rec, want.Status)
	if ct := rec.Header().Get("Content-Type"); !strings.HasPrefix(ct, "application/json") {
		t.Errorf("Content-Type = %q, want application/json", ct)
	}
	var got ErrorBody
	dec := json.NewDecoder(bytes.NewReader(rec.Body.Bytes()))
	dec.DisallowUnknownFields()
	if err := dec.Decode(&got); err != nil {
		t.Fatalf("decoding error body %q: %v", rec.Body.String(), err)
	}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("error body mismatch (-want +got):\n%s", diff)
	}
}

// wantErrorCode checks status and code, and that a message is present, for
// errors whose exact message is not the point of the test.
func wantErrorCode(t *testing.T, rec *httptest.ResponseRecorder, status int, code string) ErrorBody {
	t.Helper()
	wantStatus(t, rec, status)
	var got ErrorBody
	if err := json.Unmarshal(rec.Body.Bytes(), &got); err != nil {
		t.Fatalf("decoding error body %q: %v", rec.Body.String(), err)
	}
	if got.Status != status || got.Code != code || got.Message == "" {
		t.Errorf("error body = %+v, want status %d, code %s and a message", got, status, code)
	}
	return got
}

// mustCreate creates an entity and returns it.
func mustCreate(t *testing.T, h http.Handler, path string, body any) map[string]any {
	t.Helper()
	rec := do(t, h, http.MethodPost, path, body)
	wantStatus(t, rec, http.StatusCreated)
	return decodeObject(t, rec)
}

func idOf(t *testing.T, e map[string]any) string {
	t.Helper()
	n, ok := e["id"].(json.Number)
	if !ok {
		t.Fatalf("id %v (%T) is not a JSON number", e["id"], e["id"])
	}
	return n.String()
}
