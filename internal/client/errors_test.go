package client

import (
	"errors"
	"fmt"
	"testing"
)

// The kinds of answer the provider tells apart without reading a status
// code: each status matches exactly the kinds listed, also when wrapped.
func TestErrorKinds(t *testing.T) {
	kinds := map[string]error{
		"not found": ErrNotFound, "gone": ErrGone, "validation": ErrValidation, "malformed": ErrMalformed,
		"conflict": ErrConflict, "rate limited": ErrRateLimited, "not supported": ErrNotSupported, "server failed": ErrServerFailed,
	}
	tests := []struct {
		status int
		want   []string
	}{
		{400, []string{"validation", "malformed"}},
		{422, []string{"validation"}},
		{404, []string{"not found"}},
		{405, []string{"not supported"}},
		{409, []string{"conflict"}},
		{410, []string{"gone"}},
		{429, []string{"rate limited"}},
		{500, []string{"server failed"}},
		{501, []string{"not supported", "server failed"}},
		{503, []string{"server failed"}},
		{418, nil},
	}
	for _, tt := range tests {
		err := fmt.Errorf("reading list 5: %w", &APIError{Method: "GET", Path: "/rest/1/lists/5", StatusCode: tt.status})
		for name, kind := range kinds {
			want := false
			for _, w := range tt.want {
				want = want || w == name
			}
			if got := errors.Is(err, kind); got != want {
				t.Errorf("status %d: errors.Is(%s) = %v, want %v", tt.status, name, got, want)
			}
		}
	}
}

func TestRefusedField(t *testing.T) {
	tests := map[string]struct {
		err  error
		want string
	}{
		"field of a validation error":  {fmt.Errorf("creating: %w", &APIError{StatusCode: 400, Field: "email"}), "email"},
		"validation without a field":   {&APIError{StatusCode: 400}, ""},
		"not an answer of the service": {errors.New("connection refused"), ""},
		"nil":                          {nil, ""},
	}
	for name, tt := range tests {
		if got := RefusedField(tt.err); got != tt.want {
			t.Errorf("%s: RefusedField = %q, want %q", name, got, tt.want)
		}
	}
}
