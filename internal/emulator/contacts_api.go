package emulator

// The handlers of the contacts domain share this type; its methods are in
// contacts.go (routes), contacts_events.go and contacts_wire.go.

// contactsAPI serves the contacts of lists and emits their webhook events.
type contactsAPI struct{ *base }
