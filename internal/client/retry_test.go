package client

import (
	"context"
	"errors"
	"fmt"
	"io"
	"net"
	"net/http"
	"os"
	"strconv"
	"sync"
	"sync/atomic"
	"syscall"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
)

// call performs one client call of the given method against projects/5.
func call(ctx context.Context, c *Client, method string) error {
	switch method {
	case http.MethodGet:
		return c.Resources.Get(ctx, "projects", "5", &map[string]any{})
	case http.MethodPost:
		return c.Resources.Create(ctx, "projects", map[string]string{"name": "p"}, &map[string]any{})
	case http.MethodPut:
		return c.Resources.Update(ctx, "projects", "5", map[string]string{"name": "p"}, &map[string]any{})
	case http.MethodDelete:
		// doJSON rather than Resources.Delete, so that a 404 stays an error.
		return c.doJSON(ctx, http.MethodDelete, "projects/5", nil, nil, nil)
	}
	panic("unknown method " + method)
}

func TestRetryOnStatus(t *testing.T) {
	tests := []struct {
		method       string
		status       int
		wantAttempts int  // with failures=2 and MaxRetries=3
		wantOK       bool // the call succeeds after the failures
	}{
		{http.MethodGet, 429, 3, true},
		{http.MethodGet, 502, 3, true},
		{http.MethodGet, 503, 3, true},
		{http.MethodGet, 504, 3, true},
		{http.MethodGet, 400, 1, false},
		{http.MethodGet, 401, 1, false},
		{http.MethodGet, 404, 1, false},
		{http.MethodGet, 409, 1, false},
		{http.MethodGet, 410, 1, false},
		{http.MethodGet, 500, 1, false},
		{http.MethodGet, 501, 1, false},
		{http.MethodPut, 503, 3, true},
		{http.MethodPut, 429, 3, true},
		{http.MethodPut, 504, 3, true},
		{http.MethodPut, 500, 1, false},
		{http.MethodDelete, 503, 3, true},
		{http.MethodDelete, 502, 3, true},
		{http.MethodDelete, 429, 3, true},
		{http.MethodDelete, 400, 1, false},
		{http.MethodPost, 429, 3, true},
		{http.MethodPost, 502, 1, false},
		{http.MethodPost, 503, 1, false},
		{http.MethodPost, 504, 1, false},
		{http.MethodPost, 500, 1, false},
		{http.MethodPost, 409, 1, false},
	}
	for _, tt := range tests {
		t.Run(fmt.Sprintf("%s %d", tt.method, tt.status), func(t *testing.T) {
			const failures = 2
			var attempts counter
			var mu sync.Mutex
			var bodies []string
			c, _ := newTestClient(t, http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
				n := attempts.inc()
				b, _ := io.ReadAll(r.Body)
				mu.Lock()
				bodies = append(bodies, string(b))
				mu.Unlock()
				if r.Method != tt.method {
					t.Errorf("method %s", r.Method)
				}
				if n <= failures {
					writeError(w, tt.status, "X", "failure "+strconv.Itoa(n), "")
					return
				}
				if r.Method == http.MethodDelete {
					w.WriteHeader(http.StatusNoContent)
					return
				}
				writeJSON(w, http.StatusOK, `{"id":5,"name":"p"}`)
			}))
			err := call(context.Background(), c, tt.method)
			if got := attempts.get(); got != tt.wantAttempts {
				t.Errorf("%d attempts, want %d", got, tt.wantAttempts)
			}
			if tt.wantOK {
				if err != nil {
					t.Errorf("call failed: %v", err)
				}
			} else {
				apiErr, ok := AsAPIError(err)
				if !ok || apiErr.StatusCode != tt.status || apiErr.Message != "failure 1" {
					t.Errorf("error = %v, want the first %d answer as an APIError", err, tt.status)
				}
			}
			// A retried request carries its whole body every time.
			mu.Lock()
			defer mu.Unlock()
			for i, b := range bodies {
				if b != bodies[0] {
					t.Errorf("attempt %d sent body %q, the first sent %q", i+1, b, bodies[0])
				}
			}
		})
	}
}

func TestRetryLimits(t *testing.T) {
	tests := []struct {
		name         string
		method       string
		maxRetries   int
		status       int
		wantAttempts int
	}{
		{"GET 503, 2 retries", http.MethodGet, 2, 503, 3},
		{"GET 503, 0 retries means the default", http.MethodGet, 0, 503, DefaultMaxRetries + 1},
		{"GET 503, negative retries means one attempt", http.MethodGet, -1, 503, 1},
		{"GET 429, 4 retries", http.MethodGet, 4, 429, 5},
		{"POST 429, 1 retry", http.MethodPost, 1, 429, 2},
		{"POST 429, negative retries", http.MethodPost, -5, 429, 1},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			var attempts counter
			c, _ := newTestClient(t, http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
				attempts.inc()
				writeError(w, tt.status, "X", "still failing", "")
			}), func(c *Config) { c.MaxRetries = tt.maxRetries })
			err := call(context.Background(), c, tt.method)
			if got := attempts.get(); got != tt.wantAttempts {
				t.Errorf("%d attempts, want %d", got, tt.wantAttempts)
			}
			// When retries run out the last answer is reported as it is.
			apiErr, ok := AsAPIError(err)
			if !ok || apiErr.StatusCode != tt.status || apiErr.Message != "still failing" {
				t.Errorf("error = %v, want the %d answer as an APIError", err, tt.status)
			}
			if tt.status == 429 && !errors.Is(err, ErrRateLimited) {
				t.Errorf("errors.Is(%v, ErrRateLimited) = false", err)
			}
		})
	}
}

func TestRetryOnDroppedConnection(t *testing.T) {
	tests := []struct {
		method       string
		wantAttempts int
		wantOK       bool
	}{
		{http.MethodGet, 2, true},
		{http.MethodPut, 2, true},
		{http.MethodDelete, 2, true},
		// The server may have acted on a POST it received: never repeat it.
		{http.MethodPost, 1, false},
	}
	for _, tt := range tests {
		t.Run(tt.method, func(t *testing.T) {
			var attempts counter
			c, _ := newTestClient(t, http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
				if attempts.inc() == 1 {
					_, _ = io.ReadAll(r.Body) // the server got the whole request
					dropConnection(t, w)
					return
				}
				if r.Method == http.MethodDelete {
					w.WriteHeader(http.StatusNoContent)
					return
				}
				writeJSON(w, http.StatusOK, `{"id":5,"name":"p"}`)
			}))
			err := call(context.Background(), c, tt.method)
			if got := attempts.get(); got != tt.wantAttempts {
				t.Errorf("%d attempts reached the server, want %d", got, tt.wantAttempts)
			}
			if tt.wantOK != (err == nil) {
				t.Errorf("error = %v, want success %v", err, tt.wantOK)
			}
			if err != nil {
				if _, ok := AsAPIError(err); ok {
					t.Errorf("a dropped connection reads as an APIError: %v", err)
				}
			}
		})
	}
}

// refusingDialer fails the first `refuse` dials with ECONNREFUSED, as a
// server that is not listening yet would, then dials for real.
type refusingDialer struct {
	refuse int64
	dials  atomic.Int64
}

func (d *refusingDialer) DialContext(ctx context.Context, network, addr string) (net.Conn, error) {
	if n := d.dials.Add(1); n <= d.refuse {
		return nil, &net.OpError{Op: "dial", Net: network, Err: os.NewSyscallError("connect", syscall.ECONNREFUSED)}
	}
	var nd net.Dialer
	return nd.DialContext(ctx, network, addr)
}

func TestRetryOnRefusedConnection(t *testing.T) {
	t.Run("POST reaches a server that starts listening late, once", func(t *testing.T) {
		var attempts counter
		d := &refusingDialer{refuse: 2}
		c, _ := newTestClient(t, http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
			attempts.inc()
			writeJSON(w, http.StatusCreated, `{"id":9,"name":"p"}`)
		}), func(c *Config) { c.Transport = &http.Transport{DialContext: d.DialContext} })
		var out struct{ ID ID }
		if err := c.Resources.Create(context.Background(), "projects", map[string]string{"name": "p"}, &out); err != nil {
			t.Fatalf("Resources.Create: %v", err)
		}
		if out.ID != "9" {
			t.Errorf("id %q", out.ID)
		}
		if got := d.dials.Load(); got != 3 {
			t.Errorf("%d dials, want 3", got)
		}
		if got := attempts.get(); got != 1 {
			t.Errorf("%d requests reached the server, want exactly 1", got)
		}
	})

	// A real refused connection: the address of a closed listener.
	for _, method := range []string{http.MethodPost, http.MethodGet} {
		t.Run(method+" to a closed port", func(t *testing.T) {
			ln, err := net.Listen("tcp", "127.0.0.1:0")
			if err != nil {
				t.Fatal(err)
			}
			addr := ln.Addr().String()
			_ = ln.Close()
			var dials atomic.Int64
			c, err := New(Config{
				BaseURL: "http://" + addr, CustomerID: testCustomerID, Auth: BasicAuth{Username: "u", Password: "p"},
				MaxRetries: 2, RetryWaitMin: time.Millisecond, RetryWaitMax: time.Millisecond,
				Transport: &http.Transport{DialContext: func(ctx context.Context, network, a string) (net.Conn, error) {
					dials.Add(1)
					var nd net.Dialer
					return nd.DialContext(ctx, network, a)
				}},
			})
			if err != nil {
				t.Fatal(err)
			}
			err = call(context.Background(), c, method)
			if !errors.Is(err, syscall.ECONNREFUSED) {
				t.Errorf("error %v does not wrap ECONNREFUSED", err)
			}
			if got := dials.Load(); got != 3 {
				t.Errorf("%d dials, want MaxRetries+1 = 3", got)
			}
		})
	}
}

func TestCheckRetry(t *testing.T) {
	idem := withIdempotent(context.Background(), true)
	post := withIdempotent(context.Background(), false)
	cancelled, cancel := context.WithCancel(idem)
	cancel()
	resp := func(code int) *http.Response { return &http.Response{StatusCode: code} }
	refused := &net.OpError{Op: "dial", Net: "tcp", Err: syscall.ECONNREFUSED}
	reset := &net.OpError{Op: "read", Net: "tcp", Err: syscall.ECONNRESET}
	tests := []struct {
		name    string
		ctx     context.Context
		resp    *http.Response
		err     error
		want    bool
		wantErr error
	}{
		{"GET 200", idem, resp(200), nil, false, nil},
		{"GET 503", idem, resp(503), nil, true, nil},
		{"POST 503", post, resp(503), nil, false, nil},
		{"POST 429", post, resp(429), nil, true, nil},
		{"GET reset", idem, nil, reset, true, nil},
		{"POST reset", post, nil, reset, false, nil},
		{"POST EOF", post, nil, io.EOF, false, nil},
		{"POST refused", post, nil, refused, true, nil},
		{"POST dial timeout", post, nil, &net.OpError{Op: "dial", Err: errors.New("i/o timeout")}, true, nil},
		{"POST DNS failure", post, nil, &net.DNSError{Err: "no such host", Name: "x.invalid"}, true, nil},
		{"GET redirect refused", idem, resp(302), fmt.Errorf("wrapped: %w", errRedirect), false, nil},
		{"GET bad certificate", idem, nil, fmt.Errorf("tls: %w", &tlsVerifyErr), false, nil},
		{"cancelled", cancelled, resp(503), nil, false, context.Canceled},
		{"no marker counts as not idempotent", context.Background(), resp(503), nil, false, nil},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, err := checkRetry(tt.ctx, tt.resp, tt.err)
			if got != tt.want {
				t.Errorf("retry = %v, want %v", got, tt.want)
			}
			if !errors.Is(err, tt.wantErr) || (err == nil) != (tt.wantErr == nil) {
				t.Errorf("error = %v, want %v", err, tt.wantErr)
			}
		})
	}
}

func TestBackoff(t *testing.T) {
	const (
		lo = 100 * time.Millisecond
		hi = 2 * time.Second
	)
	withRetryAfter := func(code int, v string) *http.Response {
		return &http.Response{StatusCode: code, Header: http.Header{"Retry-After": {v}}}
	}
	exact := []struct {
		name string
		resp *http.Response
		want time.Duration
	}{
		{"429 seconds", withRetryAfter(429, "7"), 7 * time.Second},
		{"503 seconds", withRetryAfter(503, "3"), 3 * time.Second},
		{"429 zero", withRetryAfter(429, "0"), 0},
		{"seconds above max wait are honoured", withRetryAfter(429, "120"), 120 * time.Second},
		{"capped at MaxRetryAfter", withRetryAfter(429, "86400"), MaxRetryAfter},
		{"huge value capped, not overflowed", withRetryAfter(503, "99999999999999999"), MaxRetryAfter},
		{"HTTP date in the past", withRetryAfter(503, "Mon, 02 Jan 2006 15:04:05 GMT"), 0},
	}
	for _, tt := range exact {
		t.Run(tt.name, func(t *testing.T) {
			for attempt := range 4 {
				if got := backoff(lo, hi, attempt, tt.resp); got != tt.want {
					t.Errorf("backoff(attempt %d) = %v, want %v", attempt, got, tt.want)
				}
			}
		})
	}

	t.Run("HTTP date", func(t *testing.T) {
		when := time.Now().Add(90 * time.Second).UTC().Format(http.TimeFormat)
		got := backoff(lo, hi, 0, withRetryAfter(429, when))
		// the date has whole seconds; allow for that and for a slow machine
		if got < 80*time.Second || got > 90*time.Second {
			t.Errorf("backoff = %v, want about 90s", got)
		}
		far := time.Now().Add(48 * time.Hour).UTC().Format(http.TimeFormat)
		if got := backoff(lo, hi, 0, withRetryAfter(503, far)); got != MaxRetryAfter {
			t.Errorf("far date: backoff = %v, want %v", got, MaxRetryAfter)
		}
	})

	// Without a usable Retry-After: exponential, jittered, within [min, max].
	jittered := []struct {
		name string
		resp *http.Response
	}{
		{"no response", nil},
		{"503 without header", &http.Response{StatusCode: http.StatusServiceUnavailable, Header: http.Header{}}},
		{"502 ignores Retry-After", withRetryAfter(502, "60")},
		{"504 ignores Retry-After", withRetryAfter(504, "60")},
		{"429 with garbage", withRetryAfter(429, "soon")},
		{"429 with negative", withRetryAfter(429, "-5")},
	}
	for _, tt := range jittered {
		t.Run(tt.name, func(t *testing.T) {
			if got := backoff(lo, hi, 0, tt.resp); got != lo {
				t.Errorf("attempt 0: %v, want %v", got, lo)
			}
			seen := map[time.Duration]bool{}
			for attempt := 1; attempt <= 40; attempt++ {
				ceiling := hi
				if attempt < 5 {
					ceiling = lo << attempt
				}
				for range 20 {
					got := backoff(lo, hi, attempt, tt.resp)
					if got < lo || got > ceiling {
						t.Fatalf("attempt %d: %v outside [%v, %v]", attempt, got, lo, ceiling)
					}
					seen[got] = true
				}
			}
			if len(seen) < 10 {
				t.Errorf("only %d distinct waits: no jitter?", len(seen))
			}
		})
	}

	t.Run("large minimum does not overflow", func(t *testing.T) {
		for attempt := range 40 {
			if got := backoff(30*time.Second, time.Minute, attempt, nil); got < 30*time.Second || got > time.Minute {
				t.Fatalf("attempt %d: %v outside [30s, 1m]", attempt, got)
			}
		}
	})
}

func TestRetryAfter(t *testing.T) {
	now := time.Date(2026, 11, 22, 10, 0, 0, 0, time.UTC)
	tests := []struct {
		in     string
		want   time.Duration
		wantOK bool
	}{
		{"", 0, false},
		{"0", 0, true},
		{"1", time.Second, true},
		{"120", 2 * time.Minute, true},
		{"-1", 0, false},
		{"1.5", 0, false},
		{" 5", 0, false},
		{"soon", 0, false},
		{"Sun, 22 Nov 2026 10:00:30 GMT", 30 * time.Second, true},
		{"Sunday, 22-Nov-26 10:01:00 GMT", time.Minute, true}, // RFC 850
		{"Sun Nov 22 10:02:00 2026", 2 * time.Minute, true},   // ANSI C
		{"Sun, 22 Nov 2026 09:00:00 GMT", 0, true},            // past: retry now
		{"Sun, 22 Nov 2026 25:00:00 GMT", 0, false},
	}
	for _, tt := range tests {
		got, ok := retryAfter(tt.in, now)
		if got != tt.want || ok != tt.wantOK {
			t.Errorf("retryAfter(%q) = %v, %v; want %v, %v", tt.in, got, ok, tt.want, tt.wantOK)
		}
	}
	// Huge second counts must not overflow into a negative wait.
	if got, ok := retryAfter("99999999999999999", now); !ok || got < MaxRetryAfter {
		t.Errorf("retryAfter(huge) = %v, %v; want at least %v", got, ok, MaxRetryAfter)
	}
}

func TestRetryAfterHonouredEndToEnd(t *testing.T) {
	// A Retry-After of 0 must be used instead of the (hour-long) backoff.
	var attempts counter
	c, _ := newTestClient(t, http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if attempts.inc() == 1 {
			w.Header().Set("Retry-After", "0")
			writeError(w, http.StatusTooManyRequests, "TOO_MANY_REQUESTS", "slow down", "")
			return
		}
		writeJSON(w, http.StatusCreated, `{"id":1,"name":"p"}`)
	}), func(c *Config) { c.RetryWaitMin, c.RetryWaitMax = time.Hour, time.Hour })
	done := make(chan error, 1)
	go func() { done <- call(context.Background(), c, http.MethodPost) }()
	select {
	case err := <-done:
		if err != nil {
			t.Fatal(err)
		}
	case <-time.After(20 * time.Second): // watchdog only
		t.Fatal("Retry-After: 0 was not honoured")
	}
	if diff := cmp.Diff(2, attempts.get()); diff != "" {
		t.Errorf("attempts (-want +got): %s", diff)
	}
}
