package client

import (
	"encoding/json"
	"errors"
	"fmt"
	"net/http"
	"strings"
	"unicode/utf8"
)

// Sentinel errors; test with errors.Is. An *APIError matches the sentinel of
// its status code.
var (
	ErrNotFound     = errors.New("not found")
	ErrGone         = errors.New("gone")
	ErrUnauthorized = errors.New("unauthorized")
	ErrForbidden    = errors.New("forbidden")
	ErrValidation   = errors.New("validation error")
	ErrConflict     = errors.New("conflict")
	ErrRateLimited  = errors.New("rate limited")
)

// maxErrorBody bounds how much of an error body is kept: enough for any
// message the service writes, little enough that an HTML error page or a
// runaway response cannot flood a diagnostic.
const maxErrorBody = 4096

// APIError is an HTTP answer outside 2xx. Message and Field come from the
// service's JSON error body when it has one; Body keeps an excerpt of the raw
// body otherwise.
type APIError struct {
	Method     string
	Path       string
	StatusCode int
	Code       string
	Message    string
	Field      string
	Body       string
}

// Error reads as "GET /rest/1000/projects/5: 404 NOT_FOUND: project 5 does not exist".
func (e *APIError) Error() string {
	var b strings.Builder
	fmt.Fprintf(&b, "%s %s: %d", e.Method, e.Path, e.StatusCode)
	if e.Code != "" {
		b.WriteString(" " + e.Code)
	} else if t := http.StatusText(e.StatusCode); t != "" {
		b.WriteString(" " + t)
	}
	switch {
	case e.Message != "" && e.Field != "":
		fmt.Fprintf(&b, ": %s (field %q)", e.Message, e.Field)
	case e.Message != "":
		b.WriteString(": " + e.Message)
	case e.Body != "":
		b.WriteString(": " + e.Body)
	}
	return b.String()
}

// Is maps the status code onto the sentinel errors.
func (e *APIError) Is(target error) bool {
	switch target {
	case ErrNotFound:
		return e.StatusCode == http.StatusNotFound
	case ErrGone:
		return e.StatusCode == http.StatusGone
	case ErrUnauthorized:
		return e.StatusCode == http.StatusUnauthorized
	case ErrForbidden:
		return e.StatusCode == http.StatusForbidden
	case ErrValidation:
		return e.StatusCode == http.StatusBadRequest || e.StatusCode == http.StatusUnprocessableEntity
	case ErrConflict:
		return e.StatusCode == http.StatusConflict
	case ErrRateLimited:
		return e.StatusCode == http.StatusTooManyRequests
	}
	return false
}

// Reason is the service's explanation: the message of the JSON error body,
// or the raw body excerpt. For a 410 it is why the resource was retired.
func (e *APIError) Reason() string {
	if e.Message != "" {
		return e.Message
	}
	return e.Body
}

// AsAPIError returns the *APIError inside err, if any.
func AsAPIError(err error) (*APIError, bool) {
	var apiErr *APIError
	ok := errors.As(err, &apiErr)
	return apiErr, ok
}

// errorBody is the service's error shape (see the service conventions guide).
type errorBody struct {
	Status  int    `json:"status"`
	Code    string `json:"code"`
	Message string `json:"message"`
	Field   string `json:"field"`
	// Some services say "error" where we say "code"; accept both.
	Error string `json:"error"`
}

// newAPIError decodes an error response body (already bounded by the caller).
func newAPIError(method, path string, status int, contentType string, body []byte) *APIError {
	e := &APIError{Method: method, Path: path, StatusCode: status}
	var eb errorBody
	if strings.Contains(contentType, "json") && json.Unmarshal(body, &eb) == nil {
		e.Code = eb.Code
		if e.Code == "" {
			e.Code = eb.Error
		}
		e.Message = eb.Message
		e.Field = eb.Field
	}
	if e.Message == "" {
		e.Body = excerpt(body)
	}
	return e
}

// excerpt turns a body into one printable line of bounded length.
func excerpt(body []byte) string {
	s := strings.TrimSpace(string(body))
	if !utf8.ValidString(s) {
		s = strings.ToValidUTF8(s, "?")
	}
	s = strings.Join(strings.Fields(s), " ")
	const max = 300
	if len(s) > max {
		// Cut at a rune boundary: half a multi-byte character is not text.
		cut := max
		for cut > 0 && !utf8.RuneStart(s[cut]) {
			cut--
		}
		s = s[:cut] + "..."
	}
	return s
}
