package client

import (
	"bytes"
	"io"
	"net/http"
	"net/url"
	"strings"
	"testing"
	"unicode/utf8"
)

// FuzzNewAPIError feeds arbitrary bodies and content types to the error
// decoder: it must never panic, and its message must stay one bounded,
// valid UTF-8 line whatever the server sends.
func FuzzNewAPIError(f *testing.F) {
	f.Add(400, "application/json", []byte(`{"status":400,"code":"VALIDATION_ERROR","message":"name is mandatory","field":"name"}`))
	f.Add(410, "application/json; charset=utf-8", []byte(`{"code":"GONE","message":"retired"}`))
	f.Add(502, "text/html", []byte("<html><body><h1>Bad Gateway</h1></body></html>"))
	f.Add(500, "application/json", []byte(`{"message": 5}`))
	f.Add(404, "", []byte("\xff\xfe\x00"))
	f.Fuzz(func(t *testing.T, status int, contentType string, body []byte) {
		if len(body) > maxErrorBody {
			body = body[:maxErrorBody]
		}
		e := newAPIError("GET", "/rest/1/x", status, contentType, body)
		msg := e.Error()
		if !utf8.ValidString(e.Body) {
			t.Fatalf("excerpt is not valid UTF-8: %q", e.Body)
		}
		if strings.ContainsAny(e.Body, "\n\r") {
			t.Fatalf("excerpt spans lines: %q", e.Body)
		}
		if len(e.Body) > 400 {
			t.Fatalf("excerpt of %d bytes is not bounded", len(e.Body))
		}
		if !strings.HasPrefix(msg, "GET /rest/1/x: ") {
			t.Fatalf("message does not name the call: %q", msg)
		}
	})
}

// FuzzDecodeJSON feeds arbitrary successful answers to the JSON decoder: it
// must return an error or a value, never panic.
func FuzzDecodeJSON(f *testing.F) {
	f.Add("application/json", []byte(`{"id":5,"name":"x"}`))
	f.Add("application/json", []byte(`{"id":`))
	f.Add("text/html", []byte(`<html>`))
	f.Add("application/json", []byte(``))
	f.Add("application/problem+json", []byte(`[1,2,3]`))
	f.Fuzz(func(t *testing.T, contentType string, body []byte) {
		u, _ := url.Parse("http://127.0.0.1/rest/1/projects/5")
		resp := &http.Response{
			StatusCode: http.StatusOK,
			Header:     http.Header{"Content-Type": []string{contentType}},
			Body:       io.NopCloser(bytes.NewReader(body)),
			Request:    &http.Request{Method: http.MethodGet, URL: u},
		}
		var p Project
		if err := decodeJSON(resp, &p); err != nil && !strings.Contains(err.Error(), "GET /rest/1/projects/5") {
			t.Fatalf("error does not name the call: %v", err)
		}
	})
}
