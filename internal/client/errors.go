package client

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"html"
	"net/http"
	"regexp"
	"strconv"
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
	// ErrMalformed is the narrower validation error of a request the
	// service could not take as sent (400), as opposed to one it understood
	// and refused (422).
	ErrMalformed = errors.New("malformed request")
	// ErrNotSupported means the service does not offer the call at that
	// path (405 or 501): a choice of the service, not a failure.
	ErrNotSupported = errors.New("not supported")
	// ErrServerFailed is any 5xx answer that survived the retries.
	ErrServerFailed = errors.New("server failed")
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
	case ErrMalformed:
		return e.StatusCode == http.StatusBadRequest
	case ErrNotSupported:
		return e.StatusCode == http.StatusMethodNotAllowed || e.StatusCode == http.StatusNotImplemented
	case ErrServerFailed:
		return e.StatusCode >= 500
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

// RefusedField is the request field a service's error names ("" when err
// names none), so that the caller can blame the input it came from.
func RefusedField(err error) string {
	if apiErr, ok := AsAPIError(err); ok {
		return apiErr.Field
	}
	return ""
}

// AsAPIError returns the *APIError inside err, if any.
func AsAPIError(err error) (*APIError, bool) {
	var apiErr *APIError
	ok := errors.As(err, &apiErr)
	return apiErr, ok
}

// newAPIError decodes an error response body (already bounded by the
// caller). The interface shows no error shape, so it reads the documented
// JSON ({"code", "message", "field"}) and the other shapes services use:
// {"error": "..."} or {"error": {"code", "message" or "description",
// "target"}}, RFC 7807 problem details ("title", "detail"), {"errors":
// [{...}]}; an HTML page (a gateway's) is reduced to its text, and plain
// text is kept as it is. Whatever the body, the error still names the
// call and its status.
func newAPIError(method, path string, status int, contentType string, body []byte) *APIError {
	e := &APIError{Method: method, Path: path, StatusCode: status}
	trimmed := bytes.TrimSpace(body)
	if len(trimmed) > 0 && trimmed[0] == '{' {
		var obj map[string]any
		if json.Unmarshal(trimmed, &obj) == nil {
			e.Code, e.Message, e.Field = errorFields(obj)
		}
	}
	if e.Message == "" {
		if looksLikeHTML(contentType, trimmed) {
			// Error() names the status already; a gateway's title repeats it.
			text := htmlText(string(trimmed))
			text = strings.TrimPrefix(text, fmt.Sprintf("%d %s", status, http.StatusText(status)))
			text = strings.TrimLeft(text, ": ")
			e.Body = excerpt([]byte("an HTML page: " + text))
		} else {
			e.Body = excerpt(body)
		}
	}
	return e
}

// errorFields finds the code, message and field of a JSON error object in
// any of the shapes newAPIError reads.
func errorFields(obj map[string]any) (code, message, field string) {
	str := func(m map[string]any, keys ...string) string {
		for _, k := range keys {
			switch v := m[k].(type) {
			case string:
				if v != "" {
					return v
				}
			case float64:
				return strconv.FormatFloat(v, 'f', -1, 64)
			}
		}
		return ""
	}
	code = str(obj, "code", "errorCode", "error_code")
	message = str(obj, "message", "detail", "description", "error_description", "errorMessage", "title")
	field = str(obj, "field", "target", "param", "property")
	switch inner := obj["error"].(type) {
	case string:
		if code == "" {
			code = inner
		} else if message == "" {
			message = inner
		}
	case map[string]any:
		c, m, f := errorFields(inner)
		code, message, field = firstOf(code, c), firstOf(message, m), firstOf(field, f)
	}
	if list, ok := obj["errors"].([]any); ok && len(list) > 0 {
		if first, ok := list[0].(map[string]any); ok {
			c, m, f := errorFields(first)
			code, message, field = firstOf(code, c), firstOf(message, m), firstOf(field, f)
		}
	}
	if message == "" && code != "" && obj["message"] == nil && obj["error"] != nil {
		// {"error": "Not Found"} says what happened, in words.
		if s, ok := obj["error"].(string); ok {
			message = s
		}
	}
	return code, message, field
}

func firstOf(a, b string) string {
	if a != "" {
		return a
	}
	return b
}

func looksLikeHTML(contentType string, body []byte) bool {
	if strings.Contains(strings.ToLower(contentType), "html") {
		return true
	}
	lower := bytes.ToLower(body[:min(len(body), 64)])
	return bytes.HasPrefix(lower, []byte("<!doctype html")) || bytes.HasPrefix(lower, []byte("<html"))
}

var (
	htmlDropped = regexp.MustCompile(`(?is)<(script|style|head)\b.*?</(script|style|head)>`)
	htmlTitle   = regexp.MustCompile(`(?is)<title[^>]*>(.*?)</title>`)
	htmlTag     = regexp.MustCompile(`(?s)<[^>]*>`)
)

// htmlText is the readable text of an HTML page: its title, then the text
// of its body without tags, scripts or styles.
func htmlText(page string) string {
	var title string
	if m := htmlTitle.FindStringSubmatch(page); m != nil {
		title = strings.TrimSpace(html.UnescapeString(m[1]))
	}
	text := strings.Join(strings.Fields(html.UnescapeString(htmlTag.ReplaceAllString(htmlDropped.ReplaceAllString(page, " "), " "))), " ")
	if title != "" && !strings.HasPrefix(text, title) {
		text = strings.TrimSpace(title + ": " + text)
	}
	return text
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
