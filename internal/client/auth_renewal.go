package client

import (
	"context"
	"fmt"
	"io"
	"net/http"

	"github.com/hashicorp/go-retryablehttp"
)

// bindAuth hands an authenticator that asks for its own credentials (an
// OAuth2) the client's transport, so that token requests honour the same
// TLS settings, client certificate and rate cap, with retries and
// without following redirects, which would carry the secret elsewhere;
// and, for such credentials, presents them afresh before every retry, so
// that a retry after a long Retry-After wait does not carry a token that
// expired meanwhile.
func (c *Client) bindAuth(transport http.RoundTripper) {
	o, ok := c.cfg.Auth.(*OAuth2)
	if !ok {
		return
	}
	tokens := c.newRetryClient(&http.Client{
		Transport:     transport,
		Timeout:       c.cfg.RequestTimeout,
		CheckRedirect: func(*http.Request, []*http.Request) error { return errRedirect },
	})
	o.bind(tokens.StandardClient())
	reauth := func(req *http.Request) error { return c.cfg.Auth.Authenticate(req) }
	c.api.PrepareRetry = reauth
	c.stream.PrepareRetry = reauth
}

// doRenewing sends req and, when the service refuses credentials that
// expire (401 to an OAuth2 token), renews them and sends req once more. A
// 401 is a refusal before any work, so even a create is safe to repeat;
// a second 401 is the answer.
func (c *Client) doRenewing(ctx context.Context, hc *retryablehttp.Client, req *retryablehttp.Request) (*http.Response, error) {
	resp, err := hc.Do(req)
	rn, ok := c.cfg.Auth.(renewer)
	if err != nil || !ok || resp.StatusCode != http.StatusUnauthorized {
		return resp, err
	}
	_, _ = io.Copy(io.Discard, io.LimitReader(resp.Body, maxErrorBody))
	_ = resp.Body.Close() // drained: the connection is reused
	rn.Renew(req.Header.Get("Authorization"))
	c.logger.Info(ctx, "the service refused the token; renewing it and sending the request once more", map[string]any{
		"method": req.Method, "path": req.URL.Path,
	})
	if err := c.cfg.Auth.Authenticate(req.Request); err != nil {
		return nil, &renewalError{fmt.Errorf("renewing the token after %s %s was refused: %w", req.Method, req.URL.Path, err)}
	}
	return hc.Do(req)
}

// renewalError is a failure to renew credentials after a 401: the request
// itself was refused before any work, so it is no uncertain outcome.
type renewalError struct{ err error }

func (e *renewalError) Error() string { return e.err.Error() }
func (e *renewalError) Unwrap() error { return e.err }
