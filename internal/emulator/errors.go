package emulator

import (
	"fmt"
	"net/http"
)

// ErrorBody is the JSON object every error answers with (see the conventions
// guide, "Errors"). Field is set on validation errors about one field.
type ErrorBody struct {
	Status  int    `json:"status"`
	Code    string `json:"code"`
	Message string `json:"message"`
	Field   string `json:"field,omitempty"`
}

// Error codes of the conventions guide. The guide names the code of 500 only
// ("INTERNAL_ERROR, ..."); the codes of 502-504 follow the status text.
const (
	CodeValidation           = "VALIDATION_ERROR"
	CodeUnauthorized         = "UNAUTHORIZED"
	CodeForbidden            = "FORBIDDEN"
	CodeNotFound             = "NOT_FOUND"
	CodeMethodNotAllowed     = "METHOD_NOT_ALLOWED"
	CodeNotAcceptable        = "NOT_ACCEPTABLE"
	CodeConflict             = "CONFLICT"
	CodeGone                 = "GONE"
	CodePayloadTooLarge      = "PAYLOAD_TOO_LARGE"
	CodeUnsupportedMediaType = "UNSUPPORTED_MEDIA_TYPE"
	CodeTooManyRequests      = "TOO_MANY_REQUESTS"
	CodeInternal             = "INTERNAL_ERROR"
	CodeBadGateway           = "BAD_GATEWAY"
	CodeServiceUnavailable   = "SERVICE_UNAVAILABLE"
	CodeGatewayTimeout       = "GATEWAY_TIMEOUT"
)

// codeForStatus maps each status the emulator answers with to its error code,
// so call sites name only the status and cannot pair it with a wrong code.
var codeForStatus = map[int]string{
	http.StatusBadRequest:            CodeValidation,
	http.StatusUnauthorized:          CodeUnauthorized,
	http.StatusForbidden:             CodeForbidden,
	http.StatusNotFound:              CodeNotFound,
	http.StatusMethodNotAllowed:      CodeMethodNotAllowed,
	http.StatusNotAcceptable:         CodeNotAcceptable,
	http.StatusConflict:              CodeConflict,
	http.StatusGone:                  CodeGone,
	http.StatusRequestEntityTooLarge: CodePayloadTooLarge,
	http.StatusUnsupportedMediaType:  CodeUnsupportedMediaType,
	http.StatusTooManyRequests:       CodeTooManyRequests,
	http.StatusInternalServerError:   CodeInternal,
	http.StatusBadGateway:            CodeBadGateway,
	http.StatusServiceUnavailable:    CodeServiceUnavailable,
	http.StatusGatewayTimeout:        CodeGatewayTimeout,
}

// apiError is an error a handler returns to be answered as an ErrorBody.
type apiError struct {
	status  int
	message string
	field   string
	allow   string // Allow header of a 405
}

func (e *apiError) Error() string { return fmt.Sprintf("%d: %s", e.status, e.message) }

func errorf(status int, format string, args ...any) *apiError {
	return &apiError{status: status, message: fmt.Sprintf(format, args...)}
}

func fieldError(field, format string, args ...any) *apiError {
	return &apiError{status: http.StatusBadRequest, message: fmt.Sprintf(format, args...), field: field}
}

// writeError answers with the error body for status.
func (s *Server) writeError(w http.ResponseWriter, e *apiError) {
	if e.allow != "" {
		w.Header().Set("Allow", e.allow)
	}
	code, ok := codeForStatus[e.status]
	if !ok {
		code = CodeInternal
	}
	if s.writeWireError(w, e, code) {
		return
	}
	s.writeJSON(w, e.status, ErrorBody{Status: e.status, Code: code, Message: e.message, Field: e.field})
}
