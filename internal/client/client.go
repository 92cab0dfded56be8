package client

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"maps"
	"mime"
	"net/http"
	"net/url"
	"strconv"
	"strings"
	"time"

	"github.com/hashicorp/go-retryablehttp"
)

// errRedirect is returned for a redirect on a JSON call: the interface
// redirects only result downloads, and following a redirect elsewhere could
// hand the response of another host to the provider.
var errRedirect = errors.New("the server answered with a redirect, which this call does not expect")

// maxJSONResponse bounds a decoded JSON response. Collections are paged, so a
// larger answer means something is wrong upstream.
const maxJSONResponse = 64 << 20

// Client talks to one account of the service. It is safe for concurrent use.
type Client struct {
	// The calls, by domain (domains.go): c.Lists.Create, c.Contacts.Get.
	Lists      *ListService
	Contacts   *ContactService
	Imports    *ImportService
	Batches    *BatchService
	Exports    *ExportService
	Projects   *ProjectService
	Webhooks   *WebhookService
	Properties *PropertyService
	Triggers   *TriggerService
	Entities   *EntityService
	Resources  *ResourceService

	cfg     Config
	base    *url.URL
	api     *retryablehttp.Client // JSON calls: bounded per attempt
	stream  *retryablehttp.Client // file transfers: bounded by the context only
	logger  Logger
	account string
}

// New checks the configuration and returns a client.
func New(cfg Config) (*Client, error) {
	if cfg.Transport == nil {
		t, err := cfg.TLS.transport()
		if err != nil {
			return nil, fmt.Errorf("CA bundle: %w", err)
		}
		cfg.Transport = t
	}
	cfg = cfg.withDefaults()
	base, err := ParseBaseURL(cfg.BaseURL)
	if err != nil {
		return nil, err
	}
	if cfg.CustomerID <= 0 {
		return nil, fmt.Errorf("customer id must be a positive number, got %d", cfg.CustomerID)
	}
	if cfg.Auth == nil {
		return nil, errors.New("no credentials configured")
	}
	if err := checkHeaders(cfg.Headers); err != nil {
		return nil, fmt.Errorf("extra headers: %w", err)
	}
	cfg.Headers = maps.Clone(cfg.Headers) // the caller's map may change later
	transport := newRateLimitedTransport(cfg.Transport, cfg.MaxRequestsPerSecond)
	c := &Client{
		cfg:     cfg,
		base:    base,
		logger:  cfg.Logger,
		account: strconv.FormatInt(cfg.CustomerID, 10),
	}
	c.api = c.newRetryClient(&http.Client{
		Transport:     transport,
		Timeout:       cfg.RequestTimeout,
		CheckRedirect: func(*http.Request, []*http.Request) error { return errRedirect },
	})
	c.stream = c.newRetryClient(&http.Client{Transport: transport, CheckRedirect: checkDownloadRedirect})
	c.bindAuth(transport)
	c.bindDomains()
	return c, nil
}

func (c *Client) newRetryClient(hc *http.Client) *retryablehttp.Client {
	rc := retryablehttp.NewClient()
	rc.HTTPClient = hc
	rc.Logger = nil
	rc.RetryMax = c.cfg.MaxRetries
	rc.RetryWaitMin = c.cfg.RetryWaitMin
	rc.RetryWaitMax = c.cfg.RetryWaitMax
	rc.CheckRetry = checkRetry
	rc.Backoff = backoff
	rc.ErrorHandler = retryablehttp.PassthroughErrorHandler
	rc.RequestLogHook = func(_ retryablehttp.Logger, req *http.Request, attempt int) {
		if attempt > 0 {
			c.logger.Info(req.Context(), "retrying request", map[string]any{
				"method": req.Method, "path": req.URL.Path, "attempt": attempt + 1,
			})
		}
	}
	return rc
}

// CustomerID is the account this client acts on.
func (c *Client) CustomerID() int64 { return c.cfg.CustomerID }

// BaseURL is the configured server address, without /rest.
func (c *Client) BaseURL() string { return c.base.String() }

// Path joins segments into a path below /rest/{customerid}, escaping each.
func Path(segments ...string) string {
	escaped := make([]string, len(segments))
	for i, s := range segments {
		escaped[i] = url.PathEscape(s)
	}
	return strings.Join(escaped, "/")
}

// request describes one call. path is relative to /rest/{customerid}.
type request struct {
	method      string
	path        string
	query       url.Values
	body        io.Reader // JSON bytes or a file; seekable readers are rewound on retry
	contentType string
	accept      string
	stream      bool // a file transfer: no per-attempt timeout, redirects followed
}

func (c *Client) url(path string, query url.Values) string {
	// path segments arrive escaped (see Path), so the URL is joined as text
	// rather than through url.URL.Path, which would escape them again.
	u := c.base.String() + "/rest/" + c.account
	if path = strings.TrimPrefix(path, "/"); path != "" {
		u += "/" + path
	}
	if len(query) > 0 {
		u += "?" + query.Encode()
	}
	return u
}

// send performs a request with retries and returns the response of a 2xx
// answer with its body open; any other answer becomes an *APIError.
func (c *Client) send(ctx context.Context, r request) (*http.Response, error) {
	idempotent := r.method == http.MethodGet || r.method == http.MethodPut ||
		r.method == http.MethodDelete || r.method == http.MethodHead
	ctx = withIdempotent(ctx, idempotent)

	var body any
	if r.body != nil {
		body = r.body
	}
	req, err := retryablehttp.NewRequestWithContext(ctx, r.method, c.url(r.path, r.query), body)
	if err != nil {
		return nil, fmt.Errorf("building %s %s: %w", r.method, r.path, err)
	}
	setExtraHeaders(req.Header, c.cfg.Headers)
	accept := r.accept
	if accept == "" {
		accept = "application/json"
	}
	req.Header.Set("Accept", accept)
	if r.contentType != "" {
		req.Header.Set("Content-Type", r.contentType)
	}
	req.Header.Set("User-Agent", c.cfg.UserAgent)
	if err := c.cfg.Auth.Authenticate(req.Request); err != nil {
		return nil, fmt.Errorf("authenticating %s %s: %w", r.method, r.path, err)
	}

	hc := c.api
	if r.stream {
		hc = c.stream
	}
	start := time.Now()
	resp, err := c.doRenewing(ctx, hc, req)
	fields := map[string]any{"method": r.method, "path": req.URL.Path, "duration_ms": time.Since(start).Milliseconds()}
	if err != nil {
		// retryablehttp can hand back a response along with an error (the
		// context ended as the answer arrived); its body holds a connection.
		if resp != nil && resp.Body != nil {
			_ = resp.Body.Close()
		}
		fields["error"] = err.Error()
		c.logger.Debug(ctx, "request failed", fields)
		if ctxErr := ctx.Err(); ctxErr != nil {
			return nil, fmt.Errorf("%s %s: %w", r.method, req.URL.Path, ctxErr)
		}
		if renewal := (*renewalError)(nil); errors.As(err, &renewal) {
			return nil, renewal.err
		}
		if !idempotent && !neverSent(err) {
			return nil, &UncertainError{Method: r.method, Path: req.URL.Path, Err: err}
		}
		return nil, fmt.Errorf("%s %s: %w", r.method, req.URL.Path, err)
	}
	fields["status"] = resp.StatusCode
	c.logger.Debug(ctx, "request", fields)
	if resp.StatusCode >= 200 && resp.StatusCode < 300 {
		return resp, nil
	}
	defer func() { _ = resp.Body.Close() }() // read (or abandoned) before: Close has nothing to report
	raw, _ := io.ReadAll(io.LimitReader(resp.Body, maxErrorBody))
	apiErr := newAPIError(r.method, req.URL.Path, resp.StatusCode, resp.Header.Get("Content-Type"), raw)
	if resp.StatusCode >= 300 && resp.StatusCode < 400 {
		apiErr.Message = fmt.Sprintf("unexpected redirect to %q", resp.Header.Get("Location"))
	}
	if !idempotent && mayHaveActed(resp.StatusCode) {
		return nil, &UncertainError{Method: r.method, Path: req.URL.Path, StatusCode: resp.StatusCode, Err: apiErr}
	}
	return nil, apiErr
}

// doJSON sends in (if not nil) as JSON and decodes a JSON answer into out
// (if not nil).
func (c *Client) doJSON(ctx context.Context, method, path string, query url.Values, in, out any) error {
	r := request{method: method, path: path, query: query}
	if in != nil {
		b, err := json.Marshal(in)
		if err != nil {
			return fmt.Errorf("encoding body of %s %s: %w", method, path, err)
		}
		r.body = bytes.NewReader(b)
		r.contentType = "application/json; charset=utf-8"
	}
	resp, err := c.send(ctx, r)
	if err != nil {
		return err
	}
	defer func() { _ = resp.Body.Close() }() // read (or abandoned) before: Close has nothing to report
	return decodeJSON(resp, out)
}

// decodeJSON decodes a successful answer, refusing what is not JSON so that
// an HTML page from a proxy reads as what it is.
func decodeJSON(resp *http.Response, out any) error {
	method, path := resp.Request.Method, resp.Request.URL.Path
	if out == nil {
		_, _ = io.Copy(io.Discard, io.LimitReader(resp.Body, maxErrorBody))
		return nil
	}
	body, err := jsonBody(resp, io.LimitReader(resp.Body, maxJSONResponse))
	if err != nil {
		return err
	}
	dec := json.NewDecoder(body)
	dec.UseNumber()
	if err := dec.Decode(out); err != nil {
		if errors.Is(err, io.EOF) {
			return fmt.Errorf("%s %s: the server sent an empty body where a JSON answer was expected", method, path)
		}
		if errors.Is(err, io.ErrUnexpectedEOF) {
			return fmt.Errorf("%s %s: the JSON answer was cut short (truncated or over %d MiB)", method, path, maxJSONResponse>>20)
		}
		return fmt.Errorf("%s %s: decoding the JSON answer: %w", method, path, err)
	}
	return nil
}

// jsonBody returns body, a successful answer's, when it holds JSON:
// some gateways relabel JSON, so a body of another type counts when it
// starts as JSON does; anything else (an HTML page from a proxy) is
// reported as what it is.
func jsonBody(resp *http.Response, body io.Reader) (io.Reader, error) {
	ct := resp.Header.Get("Content-Type")
	if isJSONMediaType(ct) {
		return body, nil
	}
	br := bufio.NewReader(body)
	if first, _ := br.Peek(1); len(first) == 0 || (first[0] != '{' && first[0] != '[') {
		raw, _ := io.ReadAll(io.LimitReader(br, 512))
		mt, _, _ := mime.ParseMediaType(ct)
		return nil, fmt.Errorf("%s %s: expected a JSON answer but the server sent %s: %s", resp.Request.Method, resp.Request.URL.Path, mt, excerpt(raw))
	}
	return br, nil
}
