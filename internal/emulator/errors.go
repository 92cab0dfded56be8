package emulator

import (
	"net/http"

	"github.com/rms-labs/terraform-provider-rms/internal/emulator/apierr"
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

// writeError answers with the error body for status.
func (s *base) writeError(w http.ResponseWriter, e *apierr.Error) {
	if e.Allow != "" {
		w.Header().Set("Allow", e.Allow)
	}
	code, ok := codeForStatus[e.Status]
	if !ok {
		code = CodeInternal
	}
	if s.writeWireError(w, e, code) {
		return
	}
	s.writeJSON(w, e.Status, ErrorBody{Status: e.Status, Code: code, Message: e.Message, Field: e.Field})
}
