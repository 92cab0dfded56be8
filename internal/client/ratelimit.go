package client

import (
	"context"
	"fmt"
	"math"
	"net/http"
	"sync"
	"time"
)

// rateLimitedTransport holds every attempt, retries included, to the
// configured rate. One client serves all resources of a Terraform run, so
// this caps the provider's load on the account as a whole (per provider
// configuration: each alias builds its own client and so its own limit).
type rateLimitedTransport struct {
	next    http.RoundTripper
	limiter *windowLimiter
}

func (t *rateLimitedTransport) RoundTrip(req *http.Request) (*http.Response, error) {
	if err := t.limiter.wait(req.Context()); err != nil {
		return nil, err
	}
	return t.next.RoundTrip(req)
}

// windowSlack is added to each window. A request is counted when the limiter
// releases it; the service counts it when it arrives. Between the two lie
// the transport, the network and, on a busy machine, scheduling delays: in
// the largelists bench (provider, emulator and Terraform on 2 saturated
// cores), 10 ms let 26 requests arrive within one second under a cap of 25.
// 50 ms of slack costs a cap of 25 per second about one request per second.
const windowSlack = 50 * time.Millisecond

func newRateLimitedTransport(next http.RoundTripper, perSecond float64) http.RoundTripper {
	if perSecond <= 0 {
		return next
	}
	return &rateLimitedTransport{next: next, limiter: newWindowLimiter(perSecond)}
}

// windowLimiter lets at most n requests through in any sliding window. A
// token bucket (golang.org/x/time/rate) with burst n does not: a full burst
// followed by a second of refill put nearly 2n requests in one second, while
// users set the cap to stay under the service's own per-second limit.
type windowLimiter struct {
	window time.Duration

	mu   sync.Mutex
	sent []time.Time // release times of the last n requests, a ring
	next int         // the oldest entry of sent, overwritten next

	// released, when set, is told each release time under the lock, so in
	// release order. Tests use it: the times a transport below the limiter
	// records also carry the scheduling delay between the release and the
	// recording, which on a loaded runner exceeded windowSlack and put 22
	// recorded sends in one second under a cap of 20.
	released func(time.Time)
}

// newWindowLimiter allows n = max(1, floor(perSecond)) requests per window.
// The window is one second, or longer when the cap is below n per second
// (0.5 allows one request every two seconds), so the average rate never
// exceeds the cap either.
func newWindowLimiter(perSecond float64) *windowLimiter {
	n := max(1, int(math.Floor(perSecond)))
	window := max(time.Second, time.Duration(float64(n)/perSecond*float64(time.Second)))
	return &windowLimiter{window: window + windowSlack, sent: make([]time.Time, n)}
}

// wait blocks until a request may be sent and counts it as sent.
func (l *windowLimiter) wait(ctx context.Context) error {
	for {
		if err := ctx.Err(); err != nil {
			return err
		}
		l.mu.Lock()
		now := time.Now()
		oldest := l.sent[l.next]
		if oldest.IsZero() || now.Sub(oldest) >= l.window {
			l.sent[l.next] = now
			l.next = (l.next + 1) % len(l.sent)
			if l.released != nil {
				l.released(now)
			}
			l.mu.Unlock()
			return nil
		}
		delay := l.window - now.Sub(oldest)
		l.mu.Unlock()

		if deadline, ok := ctx.Deadline(); ok && time.Until(deadline) < delay {
			return fmt.Errorf("rate limit: the next request may be sent in %s, after the context's deadline", delay.Round(time.Millisecond))
		}
		// Every waiter wakes when the oldest slot frees and they race for
		// it; the losers compute a new delay. Order is not FIFO, which
		// Terraform's independent operations do not need.
		timer := time.NewTimer(delay)
		select {
		case <-ctx.Done():
			timer.Stop()
			return ctx.Err()
		case <-timer.C:
		}
	}
}
