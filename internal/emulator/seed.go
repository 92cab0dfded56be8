package emulator

// The contact as Go callers and fixture files seed it.

import "github.com/rms-labs/terraform-provider-rms/internal/emulator/state"

// Contact is a contact to preload into a list through the Go API, for tests
// and demos that need large lists without one request per contact.
// Properties are keyed by attribute name or id, as in request bodies; an
// empty Status or MobileStatus means SUBSCRIBED for a new contact and "keep"
// for an existing one. The JSON form is the one of fixture files.
type Contact struct {
	OriginalID   string            `json:"originalId"`
	Properties   map[string]string `json:"properties,omitempty"`
	Status       string            `json:"status,omitempty"`
	MobileStatus string            `json:"mobileStatus,omitempty"`
}

func (c Contact) input() state.ContactInput {
	in := state.ContactInput{OriginalID: c.OriginalID, Status: c.Status, MobileStatus: c.MobileStatus}
	in.Props = make(map[string]*string, len(c.Properties))
	for k, v := range c.Properties {
		in.Props[k] = &v
	}
	return in
}
