package client

import (
	"context"
	"crypto/tls"
	"crypto/x509"
	"errors"
	"math"
	"math/rand/v2"
	"net"
	"net/http"
	"strconv"
	"syscall"
	"time"
)

type idempotencyKey struct{}

// withIdempotent marks the request context with whether repeating the request
// is harmless. checkRetry reads it because retryablehttp hands the policy
// only the context, the response and the error.
func withIdempotent(ctx context.Context, idempotent bool) context.Context {
	return context.WithValue(ctx, idempotencyKey{}, idempotent)
}

func isIdempotent(ctx context.Context) bool {
	v, _ := ctx.Value(idempotencyKey{}).(bool)
	return v
}

// checkRetry is the retry policy of CONTRIBUTING.md ("Retries and
// idempotency"): GET, PUT and DELETE retry on
// 429, 502, 503, 504 and transport errors; POST retries only when the server
// cannot have acted on it (429, or a connection that was never established),
// so a create is never sent twice.
func checkRetry(ctx context.Context, resp *http.Response, err error) (bool, error) {
	if ctx.Err() != nil {
		return false, ctx.Err()
	}
	idempotent := isIdempotent(ctx)
	if err != nil {
		if permanentTransportError(err) {
			return false, nil
		}
		if idempotent {
			return true, nil
		}
		return neverSent(err), nil
	}
	switch resp.StatusCode {
	case http.StatusTooManyRequests:
		return true, nil
	case http.StatusBadGateway, http.StatusServiceUnavailable, http.StatusGatewayTimeout:
		return idempotent, nil
	}
	return false, nil
}

// neverSent reports whether a transport error happened before any byte of
// the request could reach the server: the dial itself failed.
func neverSent(err error) bool {
	if errors.Is(err, syscall.ECONNREFUSED) {
		return true
	}
	var opErr *net.OpError
	if errors.As(err, &opErr) && opErr.Op == "dial" {
		return true
	}
	var dnsErr *net.DNSError
	return errors.As(err, &dnsErr)
}

// permanentTransportError reports errors a retry cannot fix: certificate
// problems, redirects we refused, and TLS spoken to a plain-HTTP server.
func permanentTransportError(err error) bool {
	var certErr *tls.CertificateVerificationError
	var unknownAuth x509.UnknownAuthorityError
	var hostErr x509.HostnameError
	var invalid x509.CertificateInvalidError
	return errors.As(err, &certErr) || errors.As(err, &unknownAuth) ||
		errors.As(err, &hostErr) || errors.As(err, &invalid) ||
		errors.Is(err, errRedirect) || errors.Is(err, errInsecureRedirect) ||
		errors.Is(err, errTooManyRedirects) || errors.Is(err, http.ErrSchemeMismatch)
}

// backoff honours Retry-After on 429 and 503 (capped at MaxRetryAfter), and
// otherwise waits a random time between min and min·2^attempt, capped at
// max ("full jitter"), so ten parallel Terraform operations spread out.
func backoff(minWait, maxWait time.Duration, attempt int, resp *http.Response) time.Duration {
	if resp != nil && (resp.StatusCode == http.StatusTooManyRequests || resp.StatusCode == http.StatusServiceUnavailable) {
		if d, ok := retryAfter(resp.Header.Get("Retry-After"), time.Now()); ok {
			return min(d, MaxRetryAfter)
		}
	}
	ceiling := maxWait
	if attempt < 30 {
		ceiling = min(maxWait, minWait<<attempt)
	}
	if ceiling <= minWait {
		return minWait
	}
	return minWait + rand.N(ceiling-minWait)
}

// retryAfter parses a Retry-After value: delay seconds or an HTTP date.
func retryAfter(v string, now time.Time) (time.Duration, bool) {
	if v == "" {
		return 0, false
	}
	if secs, err := strconv.ParseInt(v, 10, 64); err == nil {
		if secs < 0 {
			return 0, false
		}
		// Clamp before multiplying: a huge value would overflow into a
		// negative wait, which retries at once instead of backing off.
		secs = min(secs, int64(math.MaxInt64/time.Second))
		return time.Duration(secs) * time.Second, true
	}
	t, err := http.ParseTime(v)
	if err != nil {
		return 0, false
	}
	if d := t.Sub(now); d > 0 {
		return d, true
	}
	return 0, true
}
