package client

import (
	"math"
	"time"
)

// The window of a contact listing is how many pages are fetched at once
// when the caller does not say (ListingOptions.Concurrency <= 0). It is
// chosen once page 0 has answered, from two things known then:
//
//   - with max_requests_per_second R, the window is twice R times page 0's
//     round trip L, within [DefaultListingConcurrency, maxListingWindow].
//     R·L pages in flight are what keep the cap busy (Little's law); the
//     factor 2 covers pages slower than the one page measured. A larger
//     window would only park requests in the rate limiter, which holds the
//     cap in every second whatever the window (retries included: they pass
//     the same limiter).
//   - without a cap the window is DefaultListingWindow: enough to hide 50 ms
//     per request behind the decoding of the pages before, few enough that
//     the pages held decoded ahead of fn stay a small part of a listing.
//
// Either way, without X-Total-Count on page 0 the window stays at
// DefaultListingConcurrency: the end of the list shows only as a short
// page, and every page fetched past it is a request wasted (and, under a
// cap, a slot of it), so a window that cannot see the end stays small.
const (
	// DefaultListingConcurrency is the window of a listing whose end is
	// not known, and the least window chosen under a rate cap.
	DefaultListingConcurrency = 4
	// DefaultListingWindow is the window of a listing without a rate cap.
	DefaultListingWindow = 16
	// maxListingWindow bounds the window under a high cap or a slow
	// service: each page in flight is a goroutine, a connection, and up to
	// a page of contacts held until its turn.
	maxListingWindow = 64
)

// listingWindow is the window of a listing of the client's rate cap
// perSecond (<= 0: none) whose page 0 took latency to answer, and whose end
// X-Total-Count tells (known).
func listingWindow(perSecond float64, latency time.Duration, known bool) int {
	switch {
	case !known:
		return DefaultListingConcurrency
	case perSecond <= 0:
		return DefaultListingWindow
	}
	inFlight := math.Ceil(2 * perSecond * latency.Seconds())
	return int(min(max(inFlight, DefaultListingConcurrency), maxListingWindow))
}
