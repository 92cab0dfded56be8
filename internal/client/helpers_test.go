package client

import (
	"context"
	"crypto/tls"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"
)

const (
	testCustomerID = 1000
	testUser       = "api-user"
	testPassword   = "s3cret-pässword"
)

// newTestClient starts an httptest server with h and a client pointed at it.
// Retries wait a millisecond so that retry tests stay fast.
func newTestClient(t *testing.T, h http.Handler, mutate ...func(*Config)) (*Client, *httptest.Server) {
	t.Helper()
	srv := httptest.NewServer(h)
	t.Cleanup(srv.Close)
	return clientOf(t, srv, mutate...), srv
}

// clientOf is a client pointed at srv, started already.
func clientOf(t *testing.T, srv *httptest.Server, mutate ...func(*Config)) *Client {
	t.Helper()
	cfg := Config{
		BaseURL:      srv.URL,
		CustomerID:   testCustomerID,
		Auth:         BasicAuth{Username: testUser, Password: testPassword},
		MaxRetries:   3,
		RetryWaitMin: time.Millisecond,
		RetryWaitMax: time.Millisecond,
	}
	for _, m := range mutate {
		m(&cfg)
	}
	c, err := New(cfg)
	if err != nil {
		t.Fatalf("New: %v", err)
	}
	return c
}

func noRetries(c *Config) { c.MaxRetries = -1 }

// counter counts requests that reached a handler.
type counter struct{ n atomic.Int64 }

func (c *counter) inc() int { return int(c.n.Add(1)) }
func (c *counter) get() int { return int(c.n.Load()) }

// writeJSON answers with a JSON body the way the service does.
func writeJSON(w http.ResponseWriter, status int, body string) {
	w.Header().Set("Content-Type", "application/json; charset=utf-8")
	w.WriteHeader(status)
	_, _ = w.Write([]byte(body))
}

// writeError answers with the service's error shape.
func writeError(w http.ResponseWriter, status int, code, msg, field string) {
	body := fmt.Sprintf(`{"status":%d,"code":%q,"message":%q`, status, code, msg)
	if field != "" {
		body += fmt.Sprintf(`,"field":%q`, field)
	}
	writeJSON(w, status, body+"}")
}

// dropConnection closes the connection without answering.
func dropConnection(t *testing.T, w http.ResponseWriter) {
	hj, ok := w.(http.Hijacker)
	if !ok {
		t.Error("response writer cannot hijack")
		return
	}
	conn, _, err := hj.Hijack()
	if err != nil {
		t.Errorf("hijack: %v", err)
		return
	}
	_ = conn.Close()
}

// logEntry is one call to a Logger.
type logEntry struct {
	level  string
	msg    string
	fields map[string]any
}

// recordingLogger keeps every entry it receives.
type recordingLogger struct {
	mu      sync.Mutex
	entries []logEntry
}

func (l *recordingLogger) add(level, msg string, fields map[string]any) {
	l.mu.Lock()
	defer l.mu.Unlock()
	cp := make(map[string]any, len(fields))
	for k, v := range fields {
		cp[k] = v
	}
	l.entries = append(l.entries, logEntry{level: level, msg: msg, fields: cp})
}

func (l *recordingLogger) Debug(_ context.Context, msg string, f map[string]any) {
	l.add("debug", msg, f)
}
func (l *recordingLogger) Info(_ context.Context, msg string, f map[string]any) {
	l.add("info", msg, f)
}
func (l *recordingLogger) Warn(_ context.Context, msg string, f map[string]any) {
	l.add("warn", msg, f)
}

func (l *recordingLogger) all() []logEntry {
	l.mu.Lock()
	defer l.mu.Unlock()
	return append([]logEntry(nil), l.entries...)
}

// text renders an entry, keys and values, for searching.
func (e logEntry) text() string {
	var b strings.Builder
	b.WriteString(e.level + " " + e.msg)
	for k, v := range e.fields {
		fmt.Fprintf(&b, " %s=%v", k, v)
	}
	return b.String()
}

func mustContain(t *testing.T, got, want string) {
	t.Helper()
	if !strings.Contains(got, want) {
		t.Errorf("%q does not contain %q", got, want)
	}
}

// trackingBody records whether it was closed.
type trackingBody struct {
	io.Reader
	closed atomic.Bool
}

func (b *trackingBody) Close() error { b.closed.Store(true); return nil }

// tlsVerifyErr stands for a certificate the client must not retry past.
var tlsVerifyErr = tls.CertificateVerificationError{Err: errors.New("x509: certificate signed by unknown authority")}

// echoEntity answers a write as a service that echoes the entity would: the
// request's JSON object with "id" added (5 unless the body has one); other
// methods get {"id":5}.
func echoEntity(w http.ResponseWriter, status int, body []byte) {
	obj := map[string]any{}
	_ = json.Unmarshal(body, &obj)
	if _, ok := obj["id"]; !ok {
		obj["id"] = 5
	}
	b, _ := json.Marshal(obj)
	writeJSON(w, status, string(b))
}
