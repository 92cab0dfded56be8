package client

import (
	"net/http"
	"slices"
	"sync"
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
	var mu sync.Mutex
	var arrived []time.Time
	h := http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		mu.Lock()
		arrived = append(arrived, time.Now())
		mu.Unlock()
		ls.ServeHTTP(w, r)
	})
	c, _ := newTestClient(t, h, func(cfg *Config) { cfg.MaxRequestsPerSecond = perSecond })
	n := 0
	err := c.StreamContacts(t.Context(), "7", ListingOptions{PageSize: 100, Concurrency: 4}, func(chunk []ListedContact) error {
		n += len(chunk)
		return nil
	})
	if err != nil || n != 5000 {
		t.Fatalf("listed %d contacts, error %v", n, err)
	}
	mu.Lock()
	defer mu.Unlock()
	slices.SortFunc(arrived, time.Time.Compare)
	peak, first := 0, 0
	for i, at := range arrived {
		for at.Sub(arrived[first]) >= time.Second {
			first++
		}
		peak = max(peak, i-first+1)
	}
	if peak > perSecond {
		t.Errorf("%d requests reached the service within one second, over the cap of %d (%d requests in all)", peak, perSecond, len(arrived))
	}
	if ls.maxFlight < 2 {
		t.Errorf("at most %d request in flight: the listing did not fetch ahead", ls.maxFlight)
	}
}
