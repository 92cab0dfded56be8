// Package apierr is the emulator's one error type: what the service answers
// with when it refuses a request. It sits below both the account's state
// (which refuses a write that would break one of its rules) and the HTTP
// handlers (which answer it as an error body), so that neither has to
// translate the other's errors.
package apierr

import (
	"fmt"
	"net/http"
)

// Error is a refusal to be answered with Status and an error body holding
// Message, and Field for a validation error about one field.
type Error struct {
	Status  int
	Message string
	Field   string
	Allow   string // the Allow header of a 405
}

// Error reports the status and the message.
func (e *Error) Error() string { return fmt.Sprintf("%d: %s", e.Status, e.Message) }

// Errorf is a refusal with status and a formatted message.
func Errorf(status int, format string, args ...any) *Error {
	return &Error{Status: status, Message: fmt.Sprintf(format, args...)}
}

// FieldError is a 400 about one field of the request.
func FieldError(field, format string, args ...any) *Error {
	return &Error{Status: http.StatusBadRequest, Message: fmt.Sprintf(format, args...), Field: field}
}
