package client

import (
	"net/http"
	"testing"
	"time"
)

// Pages fetched ahead stay within max_requests_per_second: the cap is the
// client's transport, shared by every goroutine of a listing, so four
// requests in flight never make more than the cap in any second at the
// service.
func TestStreamContactsHoldsTheRateCap(t *testing.T) {
	const perSecond = 20
	ls := &listServer{n: 5000, mode: honoursPaging}
	// Times are taken where requests leave the limiter for the network, as
	// in TestRateLimitSlidingWindow: at the server they would also carry the
	// test server's own scheduling delays, which on a loaded machine bunch
	// two requests released 50 ms apart into one window.
	rec := &sendRecorder{next: http.DefaultTransport.(*http.Transport).Clone()}
	c, _ := newTestClient(t, ls, func(cfg *Config) {
		cfg.MaxRequestsPerSecond = perSecond
		cfg.Transport = rec
	})
	n := 0
	err := c.Contacts.Stream(t.Context(), "7", ListingOptions{PageSize: 100, Concurrency: 4}, func(chunk []ListedContact) error {
		n += len(chunk)
		return nil
	})
	if err != nil || n != 5000 {
		t.Fatalf("listed %d contacts, error %v", n, err)
	}
	rec.mu.Lock()
	defer rec.mu.Unlock()
	if peak := maxInWindow(rec.times, time.Second); peak > perSecond {
		t.Errorf("%d requests left for the service within one second, over the cap of %d (%d requests in all)", peak, perSecond, len(rec.times))
	}
	if ls.maxFlight < 2 {
		t.Errorf("at most %d request in flight: the listing did not fetch ahead", ls.maxFlight)
	}
}
