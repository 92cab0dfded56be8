package client

import (
	"context"
	"errors"
	"fmt"
	"net/http"
	"net/url"
	"slices"
	"strings"
	"sync"
	"time"

	"golang.org/x/oauth2"
	"golang.org/x/oauth2/clientcredentials"
)

// maxRenewMargin bounds how long before its expiry a token is renewed; a
// tenth of the token's life is the margin for short-lived tokens, so that
// a token of two seconds is not renewed on every call.
const maxRenewMargin = time.Minute

// OAuth2 authenticates with a bearer token obtained by the OAuth 2.0
// client-credentials flow (RFC 6749, section 4.4), for accounts behind a
// gateway that issues short-lived tokens. The flow itself (the request,
// the client's authentication, the answer and its errors) is
// golang.org/x/oauth2's; OAuth2 adds what a long apply needs: one token
// shared by every call of the client, renewed shortly before it expires,
// and once more when the service refuses it (Renew) before it should have
// expired: a gateway that rotated its keys, a clock ahead of ours.
//
// The token is kept in memory only; neither it nor the secret is ever
// logged or returned in an error.
type OAuth2 struct {
	cfg clientcredentials.Config
	// hc sends the token requests: set by New to the client's own transport
	// (TLS settings, client certificate, rate cap) with retries.
	hc  *http.Client
	now func() time.Time

	mu      sync.Mutex
	token   string
	renewAt time.Time
	fetched int
}

// ReservedTokenParams are the token request's own parameters, which
// endpoint parameters may not set: the flow writes them.
var ReservedTokenParams = []string{"grant_type", "client_id", "client_secret", "scope"}

// NewOAuth2 checks the token URL (https, or http to a loopback address:
// the secret travels in the request) and returns the authenticator. params
// are further parameters of every token request (an audience or resource
// some gateways require); none may be one of ReservedTokenParams.
func NewOAuth2(tokenURL, clientID, clientSecret string, scopes []string, params map[string]string) (*OAuth2, error) {
	u, err := ParseTokenURL(tokenURL)
	if err != nil {
		return nil, err
	}
	if clientID == "" || clientSecret == "" {
		return nil, errors.New("the OAuth 2.0 client id and secret are both required")
	}
	var values url.Values
	for k, v := range params {
		if slices.Contains(ReservedTokenParams, k) {
			return nil, fmt.Errorf("the token request parameter %q is written by the flow itself and cannot be set", k)
		}
		if values == nil {
			values = url.Values{}
		}
		values.Set(k, v)
	}
	return &OAuth2{
		cfg: clientcredentials.Config{
			ClientID: clientID, ClientSecret: clientSecret, TokenURL: u.String(), Scopes: scopes, EndpointParams: values,
			// Auto-detection tries HTTP Basic first, which RFC 6749 makes
			// every server support, and remembers what worked.
			AuthStyle: oauth2.AuthStyleAutoDetect,
		},
		now: time.Now,
	}, nil
}

// ParseTokenURL checks a token endpoint's URL: absolute, https except to
// a loopback address (the client secret travels in the request), without
// user information or a fragment.
func ParseTokenURL(raw string) (*url.URL, error) {
	u, err := url.Parse(strings.TrimSpace(raw))
	if err != nil {
		return nil, errors.New("the token URL is not a URL")
	}
	shown := u.Redacted()
	if u.Host == "" || (u.Scheme != "http" && u.Scheme != "https") {
		return nil, fmt.Errorf("the token URL %q must be an absolute https:// URL such as https://auth.example.com/oauth2/token", shown)
	}
	if u.User != nil || u.Fragment != "" {
		return nil, fmt.Errorf("the token URL %q must not carry credentials or a fragment", shown)
	}
	if u.Scheme == "http" && !IsLoopbackHost(u.Hostname()) {
		return nil, fmt.Errorf("the token URL %q uses plain http to a host that is not a loopback address; use https: the client secret travels in the request", shown)
	}
	return u, nil
}

// TokenURL is where tokens are asked for.
func (o *OAuth2) TokenURL() string { return o.cfg.TokenURL }

// Fetched counts the tokens obtained so far.
func (o *OAuth2) Fetched() int {
	o.mu.Lock()
	defer o.mu.Unlock()
	return o.fetched
}

// Authenticate sets `Authorization: Bearer <token>`, asking for a token
// first when there is none or the one held is about to expire. Concurrent
// calls wait for one request rather than each sending their own.
func (o *OAuth2) Authenticate(req *http.Request) error {
	tok, err := o.current(req.Context())
	if err != nil {
		return err
	}
	req.Header.Set("Authorization", "Bearer "+tok)
	return nil
}

// Renew drops the token that a refused request presented (its
// Authorization header), so that the next Authenticate asks for a new one.
// A token another call has renewed already is kept: one refusal costs one
// token request, however many calls saw it.
func (o *OAuth2) Renew(presented string) {
	o.mu.Lock()
	defer o.mu.Unlock()
	if presented == "Bearer "+o.token {
		o.token = ""
	}
}

func (o *OAuth2) current(ctx context.Context) (string, error) {
	o.mu.Lock()
	defer o.mu.Unlock()
	if o.token != "" && o.now().Before(o.renewAt) {
		return o.token, nil
	}
	if o.hc == nil {
		return "", errors.New("the OAuth 2.0 authenticator is not bound to a client")
	}
	// Asking for a token changes nothing the service holds: it is retried
	// like a GET.
	ctx = context.WithValue(withIdempotent(ctx, true), oauth2.HTTPClient, o.hc)
	asked := o.now()
	t, err := o.cfg.Token(ctx)
	if err != nil {
		return "", o.refusal(err)
	}
	o.fetched++
	o.token = t.AccessToken
	if t.Expiry.IsZero() {
		// No expires_in: the token is kept until the service refuses it.
		o.renewAt = asked.Add(100 * 365 * 24 * time.Hour)
		return o.token, nil
	}
	// The library dates Expiry by the wall clock at receipt; the life left
	// is measured on that clock and counted on ours.
	life := time.Until(t.Expiry)
	o.renewAt = asked.Add(life - min(life/10, maxRenewMargin))
	return o.token, nil
}

// refusal words a failed token request. The library's errors quote the
// endpoint's answer, which an endpoint could fill with anything; the
// secret is never part of them, as it travels only in the request.
func (o *OAuth2) refusal(err error) error {
	var re *oauth2.RetrieveError
	if errors.As(err, &re) {
		te := &TokenError{URL: o.cfg.TokenURL, ClientID: o.cfg.ClientID, Code: re.ErrorCode, Description: re.ErrorDescription}
		if re.Response != nil {
			te.StatusCode = re.Response.StatusCode
		}
		if refusesPlainHTTP(te.StatusCode, string(re.Body)) {
			return &plainHTTPToTLSError{err: te}
		}
		return te
	}
	return &tokenTransportError{url: o.cfg.TokenURL, err: err}
}

// bind makes token requests go through the client's transport.
func (o *OAuth2) bind(hc *http.Client) { o.hc = hc }

// TokenError is a token endpoint's refusal. It matches ErrUnauthorized
// when the endpoint refused the client's credentials, so that a wrong
// secret reads like a wrong password.
type TokenError struct {
	URL, ClientID     string
	StatusCode        int
	Code, Description string
}

func (e *TokenError) Error() string {
	msg := fmt.Sprintf("the token endpoint %s refused OAuth 2.0 client %q", e.URL, e.ClientID)
	if e.StatusCode != 0 {
		msg += fmt.Sprintf(" (HTTP %d)", e.StatusCode)
	}
	if e.Code != "" {
		msg += ": " + e.Code
	}
	if e.Description != "" {
		msg += ": " + e.Description
	}
	return msg
}

// Is maps the refusal onto the sentinel errors: RFC 6749's invalid_client
// and unauthorized_client (or a bare 401) are the client's credentials;
// invalid_scope is a permission the client lacks.
func (e *TokenError) Is(target error) bool {
	switch target {
	case ErrUnauthorized:
		return e.Code == "invalid_client" || e.Code == "unauthorized_client" ||
			(e.Code == "" && e.StatusCode == http.StatusUnauthorized)
	case ErrForbidden:
		return e.Code == "invalid_scope" || e.StatusCode == http.StatusForbidden
	case ErrServerFailed:
		return e.StatusCode >= 500
	}
	return false
}

// renewer is an Authenticator whose credentials expire: send asks it once
// for new ones when the service refuses a request with 401.
type renewer interface {
	Renew(presented string)
}
