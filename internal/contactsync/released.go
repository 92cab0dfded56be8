package contactsync

import (
	"github.com/rms-labs/terraform-provider-rms/internal/client"
)

// Released remembers, for one provider run, the contacts whose
// destroy unsubscribed and forgot them, with the states they had. The
// interface has no DELETE of a contact, so a replacement (destroy, then
// create of the same list and original id: a tainted contact, say) finds
// the contact still there; create takes over a contact found here instead
// of refusing it, and restores its states unless the configuration sets
// them. Contacts not released in this run are never taken over.
type Released struct {
	contacts handoff[string, client.SubscriptionStatus]
}

// NewReleased returns an empty set of released contacts.
func NewReleased() *Released { return &Released{} }

// Add notes that this run released the contact, with the status it had
// before.
func (r *Released) Add(listID, originalID string, st client.SubscriptionStatus) {
	r.contacts.Put(contactKey(listID, originalID), st)
}

// Take removes and returns a released contact.
func (r *Released) Take(listID, originalID string) (client.SubscriptionStatus, bool) {
	return r.contacts.Take(contactKey(listID, originalID))
}

// contactKey names one contact of one list in the run's maps: the list id
// is digits, so the first slash splits the two even when the original id
// holds slashes (the id of an rms_contact has the same form).
func contactKey(listID, originalID string) string { return listID + "/" + originalID }
