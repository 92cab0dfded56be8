package client

import (
	"net/http"
	"testing"
	"time"
)

// Pages fetched ahead stay within max_requests_per_second: the cap is the
// client's transport, shared by every goroutine of a listing and by every
// retry, so however many pages are in flight, no second at the service
// holds more than the cap. The window the listing chooses itself
// (Concurrency 0) is larger than the old four when page 0 is slow, and
// the cap still holds while some answers fail and are retried.
func TestStreamContactsHoldsTheRateCap(t *testing.T) {
	t.Parallel()
	const perSecond = 20
	tests := []struct {
		name        string
		concurrency int
		latency     time.Duration
		failEvery   int
		minFlight   int // at least this many requests in flight at once
	}{
		// Answers 100 ms late, so that a fast loopback answer cannot
		// hide the pages in flight.
		{name: "window of 4", concurrency: 4, latency: 100 * time.Millisecond, minFlight: 2},
		// 2 × 20/s × 300 ms: a window of 12.
		{name: "chosen window, retries", latency: 300 * time.Millisecond, failEvery: 5, minFlight: DefaultListingConcurrency + 1},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			ls := &listServer{n: 5000, mode: honoursPaging, latency: tt.latency, failEvery: tt.failEvery}
			// Times are the limiter's release times, as in
			// TestRateLimitSlidingWindow: at the server, or at a transport
			// below the limiter, they would also carry scheduling delays,
			// which on a loaded machine bunch requests released apart into
			// one window.
			rec := &sendRecorder{next: http.DefaultTransport.(*http.Transport).Clone()}
			c, _ := newTestClient(t, ls, func(cfg *Config) {
				cfg.MaxRequestsPerSecond = perSecond
				cfg.Transport = rec
				cfg.MaxRetries = 5
			})
			releases := recordReleases(t, c)
			n := 0
			err := c.Contacts.Stream(t.Context(), "7", ListingOptions{PageSize: 100, Concurrency: tt.concurrency}, func(chunk []ListedContact) error {
				n += len(chunk)
				return nil
			})
			if err != nil || n != 5000 {
				t.Fatalf("listed %d contacts, error %v", n, err)
			}
			times, sent := releases.snapshot(), rec.count()
			if len(times) != sent {
				t.Errorf("%d requests sent but %d released by the limiter", sent, len(times))
			}
			if peak := maxInWindow(times, time.Second); peak > perSecond {
				t.Errorf("%d requests released for the service within one second, over the cap of %d (%d requests in all)", peak, perSecond, sent)
			}
			if tt.failEvery > 0 && sent <= 50 {
				t.Errorf("%d requests for 50 pages: no answer was retried", sent)
			}
			maxFlight, _ := ls.peak()
			if maxFlight < tt.minFlight {
				t.Errorf("at most %d requests in flight, want at least %d", maxFlight, tt.minFlight)
			}
			if tt.concurrency > 0 && maxFlight > tt.concurrency {
				t.Errorf("%d requests in flight, over the window of %d", maxFlight, tt.concurrency)
			}
		})
	}
}
