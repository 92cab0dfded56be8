package emulator

import (
	"net/http"
	"testing"
)

func TestRetiredPaths(t *testing.T) {
	s := New(Options{Retired: map[string]string{
		"campaigns":    "campaigns moved to flows",
		"/campaigns/5": "campaign 5 was archived",
		"forms/3":      "form 3 retired",
	}})
	gone := func(reason string) ErrorBody { return ErrorBody{Status: 410, Code: CodeGone, Message: reason} }
	tests := []struct {
		method, path string
		want         ErrorBody
	}{
		{http.MethodGet, "/rest/1000/campaigns", gone("campaigns moved to flows")},
		{http.MethodPost, "/rest/1000/campaigns", gone("campaigns moved to flows")},
		{http.MethodPut, "/rest/1000/campaigns/7", gone("campaigns moved to flows")},
		{http.MethodDelete, "/rest/1000/campaigns/7", gone("campaigns moved to flows")},
		{http.MethodPatch, "/rest/1000/campaigns/7/x/1/deep", gone("campaigns moved to flows")},
		{http.MethodGet, "/rest/1000/campaigns/", gone("campaigns moved to flows")},
		// The longest retired prefix gives the reason.
		{http.MethodGet, "/rest/1000/campaigns/5", gone("campaign 5 was archived")},
		{http.MethodGet, "/rest/1000/campaigns/5/notes", gone("campaign 5 was archived")},
		{http.MethodGet, "/rest/1000/forms/3", gone("form 3 retired")},
	}
	for _, tt := range tests {
		t.Run(tt.method+" "+tt.path, func(t *testing.T) {
			wantError(t, do(t, s, tt.method, tt.path, map[string]any{}), tt.want)
		})
	}

	// Only whole segments match, and other paths are untouched.
	wantStatus(t, do(t, s, http.MethodGet, "/rest/1000/forms", nil), http.StatusOK)
	wantErrorCode(t, do(t, s, http.MethodGet, "/rest/1000/forms/30", nil), http.StatusNotFound, CodeNotFound)
	wantErrorCode(t, do(t, s, http.MethodGet, "/rest/1000/campaignsX", nil), http.StatusNotFound, CodeNotFound)
	// Credentials and account still come first.
	wantErrorCode(t, do(t, s, http.MethodGet, "/rest/1000/campaigns", nil, withoutAuth()), http.StatusUnauthorized, CodeUnauthorized)
	wantErrorCode(t, do(t, s, http.MethodGet, "/rest/1001/campaigns", nil), http.StatusForbidden, CodeForbidden)
}
