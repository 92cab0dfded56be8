package client

import (
	"context"
	"errors"
	"net/http"
	"sync/atomic"
	"testing"
	"time"
)

func TestNewRateLimitedTransport(t *testing.T) {
	next := roundTripFunc(func(*http.Request) (*http.Response, error) { return nil, nil })
	tests := []struct {
		perSecond  float64
		wantSame   bool
		wantN      int
		wantWindow time.Duration
	}{
		{perSecond: 0, wantSame: true},
		{perSecond: -1, wantSame: true},
		{perSecond: 20, wantN: 20, wantWindow: time.Second + windowSlack},
		{perSecond: 2.5, wantN: 2, wantWindow: time.Second + windowSlack},
		{perSecond: 0.5, wantN: 1, wantWindow: 2*time.Second + windowSlack},
	}
	for _, tt := range tests {
		got := newRateLimitedTransport(next, tt.perSecond)
		rl, limited := got.(*rateLimitedTransport)
		if tt.wantSame {
			if limited {
				t.Errorf("perSecond %v: got a limiting transport, want next unchanged", tt.perSecond)
			}
			continue
		}
		if !limited {
			t.Errorf("perSecond %v: got %T, want *rateLimitedTransport", tt.perSecond, got)
			continue
		}
		if rl.next == nil || len(rl.limiter.sent) != tt.wantN || rl.limiter.window != tt.wantWindow {
			t.Errorf("perSecond %v: %d per %v, want %d per %v", tt.perSecond, len(rl.limiter.sent), rl.limiter.window, tt.wantN, tt.wantWindow)
		}
	}

	// The unchanged transport is the very one passed in.
	base := &http.Transport{}
	if got := newRateLimitedTransport(base, 0); got != http.RoundTripper(base) {
		t.Errorf("perSecond 0 returned %v, want the next transport itself", got)
	}
}

func TestRateLimitedTransportRoundTrip(t *testing.T) {
	var calls atomic.Int64
	next := roundTripFunc(func(*http.Request) (*http.Response, error) {
		calls.Add(1)
		return &http.Response{StatusCode: http.StatusNoContent, Body: http.NoBody}, nil
	})
	// One request per 1000 s: the second request must wait.
	rt := &rateLimitedTransport{next: next, limiter: newWindowLimiter(0.001)}

	req, _ := http.NewRequest(http.MethodGet, "https://server.example.com/", nil)
	if resp, err := rt.RoundTrip(req); err != nil || resp.StatusCode != http.StatusNoContent {
		t.Fatalf("first request: %v, %v", resp, err)
	}

	t.Run("cancelled context", func(t *testing.T) {
		ctx, cancel := context.WithCancel(context.Background())
		cancel()
		if _, err := rt.RoundTrip(req.WithContext(ctx)); !errors.Is(err, context.Canceled) {
			t.Errorf("RoundTrip = %v, want context.Canceled", err)
		}
	})
	t.Run("deadline before the next slot", func(t *testing.T) {
		ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
		defer cancel()
		// The limiter knows at once that a minute is not enough.
		if _, err := rt.RoundTrip(req.WithContext(ctx)); err == nil {
			t.Error("RoundTrip succeeded before its slot")
		}
	})
	if n := calls.Load(); n != 1 {
		t.Errorf("next transport called %d times, want 1", n)
	}
}

func TestClientUsesRateLimit(t *testing.T) {
	tests := []struct {
		perSecond   float64
		wantLimited bool
	}{
		{0, false},
		{5, true},
	}
	for _, tt := range tests {
		c, err := New(Config{BaseURL: "https://server.example.com", CustomerID: 1, Auth: BasicAuth{}, MaxRequestsPerSecond: tt.perSecond})
		if err != nil {
			t.Fatal(err)
		}
		api, stream := c.api.HTTPClient.Transport, c.stream.HTTPClient.Transport
		_, limited := api.(*rateLimitedTransport)
		if limited != tt.wantLimited {
			t.Errorf("perSecond %v: api transport %T", tt.perSecond, api)
		}
		// One limiter for JSON calls and file transfers alike.
		if api != stream {
			t.Errorf("perSecond %v: JSON calls and transfers use different transports", tt.perSecond)
		}
	}
}

func TestClientRateLimitCancelled(t *testing.T) {
	var attempts counter
	c, _ := newTestClient(t, http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		attempts.inc()
		writeJSON(w, http.StatusOK, `{}`)
	}), func(c *Config) { c.MaxRequestsPerSecond = 0.001 })
	if err := c.Resources.Get(context.Background(), "projects", "1", nil); err != nil {
		t.Fatalf("first call: %v", err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	if err := c.Resources.Get(ctx, "projects", "1", nil); !errors.Is(err, context.Canceled) {
		t.Errorf("second call = %v, want context.Canceled", err)
	}
	if n := attempts.get(); n != 1 {
		t.Errorf("%d requests reached the server, want 1", n)
	}
}
