package emulator

import (
	"net/http"
	"sync"
	"unicode/utf8"

	"github.com/rms-labs/terraform-provider-rms/internal/emulator/state"
)

// The handlers of the contacts domain share this type; its methods are in
// contacts.go (routes), contacts_events.go and contacts_wire.go.

// contactsAPI serves the contacts of lists and emits their webhook events.
type contactsAPI struct {
	*base
	// pages holds *[]byte buffers for pages of contacts, which are written
	// whole before they are sent: a listing of a million contacts asks for
	// a thousand pages of some 150 kB each.
	pages sync.Pool
}

// pageBuffer returns a buffer from pages, or a new one.
func (s *contactsAPI) pageBuffer() *[]byte {
	if b, ok := s.pages.Get().(*[]byte); ok {
		return b
	}
	b := make([]byte, 0, 64<<10)
	return &b
}

// callCause is a single call as the contacts it changes remember it: its
// method, path and User-Agent, so that the console tells Terraform's
// writes from a CRM's or a hosted opt-out page's. Both are cut to
// maxCauseText bytes: a contact's history is bounded in memory, and a
// client chooses how long its header is.
func callCause(r *http.Request) *state.Cause {
	return &state.Cause{Kind: state.CauseCall, UserAgent: clip(r.UserAgent()), Call: clip(r.Method + " " + r.URL.Path)}
}

// maxCauseText bounds the User-Agent and the call a Cause keeps, and the
// path and User-Agent of a request the console lists.
const maxCauseText = 256

// clip cuts s to at most maxCauseText bytes, on a character boundary.
func clip(s string) string {
	n := maxCauseText
	if len(s) <= n {
		return s
	}
	for n > 0 && !utf8.RuneStart(s[n]) {
		n--
	}
	return s[:n] + "…"
}
