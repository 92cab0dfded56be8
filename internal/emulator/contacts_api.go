package emulator

import "sync"

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
