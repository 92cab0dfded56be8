package emulator

import (
	"bytes"
	"mime"
	"net/http"
	"strings"
	"testing"
)

// /mail/swagger answers a browser with the page and everything else with the
// document, byte for byte as before the page existed.
func TestSwaggerNegotiation(t *testing.T) {
	s := New(Options{})
	const browser = "text/html,application/xhtml+xml,application/xml;q=0.9,image/avif,image/webp,*/*;q=0.8"
	for _, tc := range []struct {
		name     string
		path     string
		opts     []reqOption
		wantPage bool
	}{
		{"no Accept header", "/mail/swagger", []reqOption{withoutHeader("Accept")}, false},
		{"application/json", "/mail/swagger", nil, false},
		{"any type", "/mail/swagger", []reqOption{withHeader("Accept", "*/*")}, false},
		{"tie keeps the document", "/mail/swagger", []reqOption{withHeader("Accept", "text/html, application/json")}, false},
		{"json preferred", "/mail/swagger", []reqOption{withHeader("Accept", "text/html;q=0.5, application/json")}, false},
		{"browser", "/mail/swagger", []reqOption{withHeader("Accept", browser)}, true},
		{"text/html only", "/mail/swagger", []reqOption{withHeader("Accept", "text/html")}, true},
		{"html, json refused", "/mail/swagger", []reqOption{withHeader("Accept", "application/json;q=0, text/*")}, true},
		{"format=json beats a browser", "/mail/swagger?format=json", []reqOption{withHeader("Accept", browser)}, false},
	} {
		t.Run(tc.name, func(t *testing.T) {
			rec := do(t, s, http.MethodGet, tc.path, nil, append([]reqOption{withoutAuth()}, tc.opts...)...)
			wantStatus(t, rec, http.StatusOK)
			if got := rec.Header().Get("Vary"); got != "Accept" {
				t.Errorf("Vary = %q, want Accept", got)
			}
			ct := rec.Header().Get("Content-Type")
			if tc.wantPage {
				if mt, _, _ := mime.ParseMediaType(ct); mt != "text/html" {
					t.Errorf("Content-Type = %q, want the page", ct)
				}
				if !strings.Contains(rec.Body.String(), `<div id="swagger-ui">`) {
					t.Errorf("not the page: %.200s", rec.Body.String())
				}
				return
			}
			if ct != jsonContentType {
				t.Errorf("Content-Type = %q, want the document", ct)
			}
			if !bytes.Equal(rec.Body.Bytes(), OpenAPIDocument()) {
				t.Errorf("body is not the OpenAPI document: %.200s", rec.Body.String())
			}
		})
	}
}

func TestAcceptQuality(t *testing.T) {
	for _, tc := range []struct {
		accept, typ string
		want        float64
	}{
		{"", "text/html", 1},
		{"application/json", "text/html", 0},
		{"text/html;q=0.4, */*;q=0.8", "text/html", 0.4},
		{"text/*;q=0.3, */*", "text/html", 0.3},
		{"*/*;q=0.8", "application/json", 0.8},
		{"application/json;q=0, */*", "application/json", 0},
	} {
		r, _ := http.NewRequest(http.MethodGet, "/", nil)
		if tc.accept != "" {
			r.Header.Set("Accept", tc.accept)
		}
		if got := acceptQuality(r, tc.typ); got != tc.want {
			t.Errorf("acceptQuality(%q, %s) = %v, want %v", tc.accept, tc.typ, got, tc.want)
		}
	}
}
