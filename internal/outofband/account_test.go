package outofband

import (
	"context"
	"io"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
)

// TestAccountSend holds what every caller relies on: the path lands below
// the account's root with or without its slash, the credentials and the
// content type go with the request, a JSON body is encoded, and any status
// is an answer rather than an error.
func TestAccountSend(t *testing.T) {
	var got struct{ path, user, pass, contentType, accept, body string }
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		b, _ := io.ReadAll(r.Body)
		got.path, got.contentType, got.accept, got.body = r.URL.Path, r.Header.Get("Content-Type"), r.Header.Get("Accept"), string(b)
		got.user, got.pass, _ = r.BasicAuth()
		w.WriteHeader(http.StatusConflict)
		_, _ = w.Write([]byte(`{"error":"x"}`))
	}))
	defer srv.Close()
	acc := Account{Base: srv.URL + "/rest/7", Username: "u", Password: "p"}
	tests := []struct {
		name                         string
		send                         func() (int, []byte, error)
		wantPath, wantType, wantBody string
	}{
		{"json with slash", func() (int, []byte, error) {
			return acc.JSON(context.Background(), http.MethodPost, "/lists", map[string]string{"name": "a"})
		}, "/rest/7/lists", "application/json", `{"name":"a"}`},
		{"no body without slash", func() (int, []byte, error) {
			return acc.JSON(context.Background(), http.MethodGet, "lists/1", nil)
		}, "/rest/7/lists/1", "", ""},
		{"csv", func() (int, []byte, error) {
			return acc.Send(context.Background(), http.MethodPost, "/lists/1/recipients/2", "text/csv", strings.NewReader("originalId\na\n"))
		}, "/rest/7/lists/1/recipients/2", "text/csv", "originalId\na\n"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			status, raw, err := tc.send()
			if err != nil {
				t.Fatal(err)
			}
			if status != http.StatusConflict || string(raw) != `{"error":"x"}` {
				t.Errorf("answer %d %q, want 409 and the body", status, raw)
			}
			if got.path != tc.wantPath || got.contentType != tc.wantType || got.body != tc.wantBody {
				t.Errorf("sent %s (%q) %q, want %s (%q) %q", got.path, got.contentType, got.body, tc.wantPath, tc.wantType, tc.wantBody)
			}
			if got.user != "u" || got.pass != "p" || got.accept != "application/json" {
				t.Errorf("credentials %q:%q, Accept %q", got.user, got.pass, got.accept)
			}
		})
	}
}
