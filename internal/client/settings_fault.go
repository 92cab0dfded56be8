package client

import (
	"errors"
	"net/http"
	"strings"
)

// SettingsFault is what a failed call proves wrong in the client's own
// settings, as opposed to a service that could not be reached or could not
// answer. The provider's credentials check fails the plan on any of them.
type SettingsFault int

const (
	// NoSettingsFault proves nothing about the settings: a refusal of the
	// credentials (ErrUnauthorized, ErrForbidden), a failure that outlasted
	// the retries (429, 5xx), or a service that was never reached.
	NoSettingsFault SettingsFault = iota
	// TokenEndpointRefused is an OAuth 2.0 token endpoint that answered a
	// client error other than a refusal of the client's credentials or
	// scopes (400, 404, 405, 410, ...): the token URL names no token
	// endpoint, or the request the settings make is one it cannot take.
	TokenEndpointRefused
	// TLSToPlainHTTP is an https:// URL naming a server that speaks plain
	// HTTP.
	TLSToPlainHTTP
	// PlainHTTPToTLS is an http:// URL naming a server that speaks TLS.
	PlainHTTPToTLS
)

// Fault says what err proves wrong in the settings, and whether the token
// endpoint (rather than base_url) is where it was met.
func Fault(err error) (fault SettingsFault, atTokenEndpoint bool) {
	var te *TokenError
	var tt *tokenTransportError
	atTokenEndpoint = errors.As(err, &te) || errors.As(err, &tt)
	switch {
	case errors.Is(err, http.ErrSchemeMismatch):
		return TLSToPlainHTTP, atTokenEndpoint
	case errors.Is(err, ErrPlainHTTPToTLS):
		return PlainHTTPToTLS, atTokenEndpoint
	case te != nil && te.provesSettingsWrong():
		return TokenEndpointRefused, true
	}
	return NoSettingsFault, atTokenEndpoint
}

// ErrPlainHTTPToTLS is a plain HTTP request answered by a TLS server's
// refusal of it.
var ErrPlainHTTPToTLS = errors.New("a plain HTTP request reached a server that speaks TLS")

// tlsRefusals are what TLS servers answer (with 400) to a plain HTTP
// request: Go's net/http, nginx, Apache.
var tlsRefusals = []string{
	"client sent an http request to an https server",
	"the plain http request was sent to https port",
	"speaking plain http to an ssl-enabled server port",
}

// refusesPlainHTTP reports whether a 400 answer's body is a TLS server's
// refusal of a plain HTTP request.
func refusesPlainHTTP(status int, body string) bool {
	if status != http.StatusBadRequest {
		return false
	}
	body = strings.ToLower(body)
	for _, r := range tlsRefusals {
		if strings.Contains(body, r) {
			return true
		}
	}
	return false
}

// plainHTTPToTLSError marks an answer as a TLS server's refusal of plain
// HTTP, keeping the answer's own error for its text.
type plainHTTPToTLSError struct{ err error }

func (e *plainHTTPToTLSError) Error() string {
	return e.err.Error() + " (" + ErrPlainHTTPToTLS.Error() + ")"
}

func (e *plainHTTPToTLSError) Unwrap() []error { return []error{e.err, ErrPlainHTTPToTLS} }

// provesSettingsWrong reports whether a token endpoint's refusal is one the
// settings cause and a retry cannot change: a 4xx other than 408 and 429,
// that the sentinel errors do not already name as the client's
// credentials or scopes.
func (e *TokenError) provesSettingsWrong() bool {
	if e.StatusCode < 400 || e.StatusCode >= 500 ||
		e.StatusCode == http.StatusRequestTimeout || e.StatusCode == http.StatusTooManyRequests {
		return false
	}
	return !errors.Is(e, ErrUnauthorized) && !errors.Is(e, ErrForbidden)
}

// tokenTransportError is a token request that got no answer of the
// token endpoint (a transport or TLS failure).
type tokenTransportError struct {
	url string
	err error
}

func (e *tokenTransportError) Error() string {
	return "asking " + e.url + " for an OAuth 2.0 token: " + e.err.Error()
}

func (e *tokenTransportError) Unwrap() error { return e.err }
