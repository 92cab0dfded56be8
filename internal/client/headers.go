package client

import (
	"fmt"
	"net/http"
	"slices"
	"strings"

	"golang.org/x/net/http/httpguts"
)

// ReservedHeaders are the headers the client sets itself on every request:
// extra headers may not replace them, because the interface's media-type
// rules, the credentials and the framing of the body depend on them.
var ReservedHeaders = []string{"Authorization", "Content-Type", "Accept", "Host", "Content-Length", "User-Agent"}

// CheckHeader reports why name: value cannot be sent as an extra header, or
// nil. The value is never quoted in the error: extra headers often carry
// gateway keys, so they are treated as secrets.
func CheckHeader(name, value string) error {
	if !httpguts.ValidHeaderFieldName(name) {
		return fmt.Errorf("header name %q is not a valid HTTP header name (letters, digits and !#$%%&'*+-.^_`|~ only)", name)
	}
	canonical := http.CanonicalHeaderKey(name)
	if slices.Contains(ReservedHeaders, canonical) {
		return fmt.Errorf("header %q is set by the provider itself and cannot be overridden (reserved: %s)", name, strings.Join(ReservedHeaders, ", "))
	}
	if !httpguts.ValidHeaderFieldValue(value) {
		return fmt.Errorf("the value of header %q holds a control character such as a line break, which HTTP does not allow", name)
	}
	return nil
}

// checkHeaders checks every extra header, in a stable order so the first
// error is the same on every run.
func checkHeaders(headers map[string]string) error {
	names := make([]string, 0, len(headers))
	for n := range headers {
		names = append(names, n)
	}
	slices.Sort(names)
	for _, n := range names {
		if err := CheckHeader(n, headers[n]); err != nil {
			return err
		}
	}
	return nil
}

// setExtraHeaders puts the configured extra headers on a request. It runs
// before the client sets its own headers, so that even a header the checks
// missed could never displace them.
func setExtraHeaders(h http.Header, headers map[string]string) {
	for n, v := range headers {
		h.Set(n, v)
	}
}
