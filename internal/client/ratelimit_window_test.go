package client

import (
	"context"
	"net/http"
	"slices"
	"sync"
	"testing"
	"time"
)

// sendRecorder counts the requests that leave the rate limiter for the
// network: it wraps the real transport, below the limiter, so every attempt
// (retries included) passes it.
type sendRecorder struct {
	next http.RoundTripper
	mu   sync.Mutex
	sent int
}

func (r *sendRecorder) RoundTrip(req *http.Request) (*http.Response, error) {
	r.mu.Lock()
	r.sent++
	r.mu.Unlock()
	return r.next.RoundTrip(req)
}

func (r *sendRecorder) count() int {
	r.mu.Lock()
	defer r.mu.Unlock()
	return r.sent
}

// releaseLog holds the times a client's rate limiter released requests.
type releaseLog struct {
	mu    sync.Mutex
	times []time.Time
}

// recordReleases logs the release times of c's limiter. They are the times
// the limiter decided on, not the times a transport below it saw: those also
// carry the goroutine's scheduling delay after the release, which on a
// loaded CI runner bunched sends released more than a second apart into one
// second. The slack the limiter adds to its window covers that delay and the
// network's; the window itself is what these tests hold the limiter to.
func recordReleases(t *testing.T, c *Client) *releaseLog {
	t.Helper()
	rt, ok := c.api.HTTPClient.Transport.(*rateLimitedTransport)
	if !ok {
		t.Fatalf("client transport is %T, not rate limited", c.api.HTTPClient.Transport)
	}
	log := &releaseLog{}
	rt.limiter.released = func(at time.Time) {
		log.mu.Lock()
		log.times = append(log.times, at)
		log.mu.Unlock()
	}
	return log
}

func (l *releaseLog) snapshot() []time.Time {
	l.mu.Lock()
	defer l.mu.Unlock()
	return slices.Clone(l.times)
}

// maxInWindow is the largest number of times in any half-open window
// [t, t+window) that starts at one of them (the busiest window always does).
func maxInWindow(times []time.Time, window time.Duration) int {
	sorted := slices.Clone(times)
	slices.SortFunc(sorted, func(a, b time.Time) int { return a.Compare(b) })
	best, j := 0, 0
	for i := range sorted {
		for j < len(sorted) && sorted[j].Sub(sorted[i]) < window {
			j++
		}
		best = max(best, j-i)
	}
	return best
}

// The cap promises that no sliding one-second window holds more than
// max(1, floor(cap)) requests, however many run at once (Terraform's
// -parallelism). A token bucket whose burst equals the rate lets a window
// hold nearly twice that: a full burst, then a second's refill.
//
// Real time, as the limiter reads it when it releases each request; every
// request the transport below sends must have been released.
func TestRateLimitSlidingWindow(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name     string
		cap      float64
		requests int
		wantMax  int
	}{
		{name: "whole cap", cap: 20, requests: 60, wantMax: 20},
		{name: "fractional cap rounds down", cap: 10.9, requests: 30, wantMax: 10},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			rec := &sendRecorder{next: http.DefaultTransport.(*http.Transport).Clone()}
			c, _ := newTestClient(t, http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
				writeJSON(w, http.StatusOK, `{}`)
			}), func(c *Config) {
				c.MaxRequestsPerSecond = tt.cap
				c.Transport = rec
			})
			releases := recordReleases(t, c)

			var wg sync.WaitGroup
			errs := make(chan error, tt.requests)
			for range tt.requests {
				wg.Go(func() {
					errs <- c.Resources.Get(context.Background(), "projects", "1", nil)
				})
			}
			wg.Wait()
			close(errs)
			for err := range errs {
				if err != nil {
					t.Fatalf("request: %v", err)
				}
			}

			times := releases.snapshot()
			if sent := rec.count(); sent != tt.requests || len(times) != sent {
				t.Fatalf("%d requests sent and %d released, want %d of each", sent, len(times), tt.requests)
			}
			if got := maxInWindow(times, time.Second); got > tt.wantMax {
				t.Errorf("busiest one-second window held %d requests, cap %v allows %d", got, tt.cap, tt.wantMax)
			}
		})
	}
}

func TestMaxInWindow(t *testing.T) {
	t0 := time.Unix(0, 0)
	at := func(ms ...int) []time.Time {
		var out []time.Time
		for _, m := range ms {
			out = append(out, t0.Add(time.Duration(m)*time.Millisecond))
		}
		return out
	}
	tests := []struct {
		times []time.Time
		want  int
	}{
		{nil, 0},
		{at(0), 1},
		{at(0, 999), 2},
		{at(0, 1000), 1},
		{at(1000, 0, 500, 1499, 2600), 3},
	}
	for _, tt := range tests {
		if got := maxInWindow(tt.times, time.Second); got != tt.want {
			t.Errorf("maxInWindow(%v) = %d, want %d", tt.times, got, tt.want)
		}
	}
}
