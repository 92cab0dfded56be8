package client

import (
	"context"
	"errors"
	"fmt"
	"io"
	"net/http"
	"net/url"
)

// maxCheckBody bounds how much of the credentials check's answer is read
// (and thrown away) so that its connection can be reused; a service that
// ignores paging may answer with a whole collection, and the rest of it is
// not worth waiting for.
const maxCheckBody = 64 << 10

// CredentialsCheckCall names the request CheckCredentials sends, below
// {base_url}, for messages and logs.
const CredentialsCheckCall = "GET /rest/{customerid}/" + projectsPath + "?page=0&pageSize=1"

// CheckCredentials proves, before anything is planned, that the service
// accepts the configured credentials for the configured customer id. It
// sends one request: GET /rest/{customerid}/projects?page=0&pageSize=1, the
// first page, of one entity, of the Projects domain. That call is the
// interface's own example of "get all" in the generic pattern, so every
// account can answer it; a GET changes nothing on the server; and a page of
// one is the smallest answer a collection has.
//
// Only the status counts. Any 2xx proves the credentials whatever its body
// (none, an object, a whole collection from a service that ignores paging),
// and the body is thrown away unread. The call is a GET, so it is retried
// like every other (429, 502, 503, 504, network errors).
//
// The error matches ErrUnauthorized (401: the credentials are wrong) or
// ErrForbidden (403: they belong to another account than the customer id);
// after the retries, a 429 or 5xx comes back as its *APIError, and a
// network or TLS failure as it is. Any other answer (404, 405, 410 for a
// retired domain, ...) refuses the call, not the credentials: it is logged
// and the check passes, so a service without this domain never blocks a
// plan the resources could make, unless it is a TLS server's refusal of a
// plain HTTP request (ErrPlainHTTPToTLS): base_url's scheme is wrong, and
// every call would meet it.
func (c *Client) CheckCredentials(ctx context.Context) error {
	q := url.Values{"page": {"0"}, "pageSize": {"1"}}
	resp, err := c.send(ctx, request{method: http.MethodGet, path: projectsPath, query: q})
	if err != nil {
		if apiErr, ok := AsAPIError(err); ok && refusesPlainHTTP(apiErr.StatusCode, apiErr.Body+" "+apiErr.Message) {
			return fmt.Errorf("checking the credentials: %w", &plainHTTPToTLSError{err: err})
		}
		if apiErr, ok := AsAPIError(err); ok && !failsCheck(apiErr) {
			c.logger.Debug(ctx, "the credentials check was refused for another reason than the credentials; passing", map[string]any{
				"path": apiErr.Path, "status": apiErr.StatusCode,
			})
			return nil
		}
		return fmt.Errorf("checking the credentials: %w", err)
	}
	defer func() { _ = resp.Body.Close() }() // the status is all this call reads
	_, _ = io.Copy(io.Discard, io.LimitReader(resp.Body, maxCheckBody))
	return nil
}

// failsCheck reports whether an answer to the credentials check says
// something against the credentials or leaves them unproven: 401, 403, the
// failures that outlast the retries (429, 5xx), and a redirect, which this
// call never expects (base_url names something else than the service).
func failsCheck(e *APIError) bool {
	return errors.Is(e, ErrUnauthorized) || errors.Is(e, ErrForbidden) ||
		e.StatusCode == http.StatusTooManyRequests || e.StatusCode >= 500 ||
		(e.StatusCode >= 300 && e.StatusCode < 400)
}
