package emulator

import (
	"context"
	"io"
	"net/http"
	"strings"
	"testing"
)

func TestListen(t *testing.T) {
	l, err := Listen("127.0.0.1:0", Options{CustomerID: 7})
	if err != nil {
		t.Fatal(err)
	}
	if !strings.HasPrefix(l.URL, "http://127.0.0.1:") || strings.HasSuffix(l.URL, "/") {
		t.Errorf("URL = %q", l.URL)
	}
	if l.Server.Options().CustomerID != 7 {
		t.Errorf("Server options not applied")
	}
	req, err := http.NewRequestWithContext(context.Background(), http.MethodPost, l.URL+"/rest/7/projects", strings.NewReader(`{"name":"over tcp"}`))
	if err != nil {
		t.Fatal(err)
	}
	req.SetBasicAuth(DefaultUsername, DefaultPassword)
	req.Header.Set("Content-Type", "application/json")
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	body, _ := io.ReadAll(resp.Body)
	_ = resp.Body.Close() // a test client: nothing to report
	if resp.StatusCode != http.StatusCreated || !strings.Contains(string(body), `"name":"over tcp"`) {
		t.Fatalf("POST over TCP: %d %s", resp.StatusCode, body)
	}
	if err := l.Close(); err != nil {
		t.Fatalf("Close: %v", err)
	}
	if err := l.Close(); err != nil {
		t.Fatalf("second Close: %v", err)
	}
	if _, err := http.Get(l.URL + "/mail/swagger"); err == nil {
		t.Error("still serving after Close")
	}
}

func TestListenBadAddress(t *testing.T) {
	if _, err := Listen("127.0.0.1:notaport", Options{}); err == nil || !strings.Contains(err.Error(), "127.0.0.1:notaport") {
		t.Errorf("err = %v, want one naming the address", err)
	}
}
