package client

import (
	"context"
	"net/http"
	"slices"
	"sync"
	"testing"
	"time"
)

// sendRecorder notes the moment each request leaves the rate limiter for the
// network: it wraps the real transport, so what it records is what the
// service would see, less network delay.
type sendRecorder struct {
	next  http.RoundTripper
	mu    sync.Mutex
	times []time.Time
}

func (r *sendRecorder) RoundTrip(req *http.Request) (*http.Response, error) {
	r.mu.Lock()
	r.times = append(r.times, time.Now())
	r.mu.Unlock()
	return r.next.RoundTrip(req)
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
// Real time, measured where requests leave for the network. Scheduling delays
// only spread the recorded times apart, so they cannot hide an excess.
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

			rec.mu.Lock()
			defer rec.mu.Unlock()
			if len(rec.times) != tt.requests {
				t.Fatalf("%d requests sent, want %d", len(rec.times), tt.requests)
			}
			if got := maxInWindow(rec.times, time.Second); got > tt.wantMax {
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
