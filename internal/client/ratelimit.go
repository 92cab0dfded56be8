package client

import (
	"net/http"

	"golang.org/x/time/rate"
)

// rateLimitedTransport holds every attempt, retries included, to the
// configured rate. One client serves all resources of a Terraform run, so
// this caps the provider's load on the account as a whole.
type rateLimitedTransport struct {
	next    http.RoundTripper
	limiter *rate.Limiter
}

func (t *rateLimitedTransport) RoundTrip(req *http.Request) (*http.Response, error) {
	if err := t.limiter.Wait(req.Context()); err != nil {
		return nil, err
	}
	return t.next.RoundTrip(req)
}

func newRateLimitedTransport(next http.RoundTripper, perSecond float64) http.RoundTripper {
	if perSecond <= 0 {
		return next
	}
	burst := max(1, int(perSecond))
	return &rateLimitedTransport{next: next, limiter: rate.NewLimiter(rate.Limit(perSecond), burst)}
}
