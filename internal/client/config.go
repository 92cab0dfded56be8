package client

import (
	"errors"
	"fmt"
	"net"
	"net/http"
	"net/url"
	"strings"
	"time"
)

// Defaults for Config fields left at zero.
const (
	DefaultRequestTimeout = 60 * time.Second
	DefaultMaxRetries     = 5
	DefaultRetryWaitMin   = 500 * time.Millisecond
	DefaultRetryWaitMax   = 30 * time.Second
	// MaxRetryAfter caps how long one Retry-After answer can make us wait,
	// so a confused server cannot park an apply for hours.
	MaxRetryAfter = 5 * time.Minute
)

// Config describes how to reach one account of the service.
type Config struct {
	// BaseURL is the account's server, e.g. https://server.example.com; the
	// client appends /rest.
	BaseURL string
	// CustomerID is the numeric account id placed in every path.
	CustomerID int64
	// Auth presents the credentials on every request.
	Auth Authenticator
	// Headers are sent on every request, e.g. for a gateway in front of the
	// service. They may not replace the headers the client owns
	// (ReservedHeaders); their values are treated as secrets and never logged.
	Headers map[string]string
	// RequestTimeout bounds one attempt of one JSON call (not file transfers,
	// which are bounded by the caller's context).
	RequestTimeout time.Duration
	// MaxRetries is how many times a retryable failure is retried; negative
	// means never.
	MaxRetries int
	// RetryWaitMin and RetryWaitMax bound the exponential backoff.
	RetryWaitMin time.Duration
	RetryWaitMax time.Duration
	// MaxRequestsPerSecond caps this client's request rate; zero is no cap.
	MaxRequestsPerSecond float64
	// UserAgent is sent on every request.
	UserAgent string
	// Logger receives one entry per request attempt; nil discards them.
	Logger Logger
	// TLS configures the transport the client builds.
	TLS TLS
	// Transport replaces the transport the client builds from TLS (tests
	// use it to answer without a server); TLS is then ignored.
	Transport http.RoundTripper
}

// ParseBaseURL checks a base URL and returns it without a trailing slash. It
// refuses anything but https, except plain http to a loopback host, because
// Basic credentials would otherwise cross the network in clear text.
func ParseBaseURL(raw string) (*url.URL, error) {
	u, err := url.Parse(strings.TrimSpace(raw))
	if err != nil {
		// url.Error quotes the whole URL, password included; keep only the cause.
		var urlErr *url.Error
		if errors.As(err, &urlErr) {
			err = urlErr.Err
		}
		return nil, fmt.Errorf("base URL is not a URL: %w", err)
	}
	shown := u.Redacted() // never echo a password into a diagnostic
	if u.Host == "" || (u.Scheme != "http" && u.Scheme != "https") {
		return nil, fmt.Errorf("base URL %q must be an absolute https:// URL such as https://server.example.com", shown)
	}
	if u.RawQuery != "" || u.Fragment != "" || u.User != nil {
		return nil, fmt.Errorf("base URL %q must not carry credentials, a query or a fragment", shown)
	}
	if u.Scheme == "http" && !IsLoopbackHost(u.Hostname()) {
		return nil, fmt.Errorf("base URL %q uses plain http to a host that is not a loopback address; use https (http is allowed only for 127.0.0.1, ::1 or localhost, e.g. the emulator)", shown)
	}
	u.Path = strings.TrimRight(u.Path, "/")
	u.Path = strings.TrimSuffix(u.Path, "/rest")
	return u, nil
}

// IsLoopbackHost reports whether host is localhost or a loopback IP address.
func IsLoopbackHost(host string) bool {
	if strings.EqualFold(host, "localhost") {
		return true
	}
	ip := net.ParseIP(host)
	return ip != nil && ip.IsLoopback()
}

func (c Config) withDefaults() Config {
	if c.RequestTimeout <= 0 {
		c.RequestTimeout = DefaultRequestTimeout
	}
	if c.MaxRetries == 0 {
		c.MaxRetries = DefaultMaxRetries
	}
	if c.MaxRetries < 0 {
		c.MaxRetries = 0
	}
	if c.RetryWaitMin <= 0 {
		c.RetryWaitMin = DefaultRetryWaitMin
	}
	if c.RetryWaitMax <= 0 {
		c.RetryWaitMax = DefaultRetryWaitMax
	}
	if c.RetryWaitMax < c.RetryWaitMin {
		c.RetryWaitMax = c.RetryWaitMin
	}
	if c.UserAgent == "" {
		c.UserAgent = "terraform-provider-rms"
	}
	if c.Logger == nil {
		c.Logger = nopLogger{}
	}
	if c.Transport == nil {
		c.Transport = http.DefaultTransport.(*http.Transport).Clone()
	}
	return c
}
