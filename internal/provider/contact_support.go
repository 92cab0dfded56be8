package provider

import (
	"strings"
	"sync"

	"github.com/hashicorp/terraform-plugin-framework/path"

	"github.com/rms-labs/terraform-provider-rms/internal/client"
)

// releasedContacts remembers, for one provider run, the contacts whose
// destroy unsubscribed and forgot them, with the states they had. The
// interface has no DELETE of a contact, so a replacement (destroy, then
// create of the same list and original id: a tainted contact, say) finds
// the contact still there; create takes over a contact found here instead
// of refusing it, and restores its states unless the configuration sets
// them. Contacts not released in this run are never taken over.
type releasedContacts struct {
	mu       sync.Mutex
	contacts map[string]client.SubscriptionStatus
}

func newReleasedContacts() *releasedContacts {
	return &releasedContacts{contacts: map[string]client.SubscriptionStatus{}}
}

func (r *releasedContacts) add(listID, originalID string, st client.SubscriptionStatus) {
	r.mu.Lock()
	defer r.mu.Unlock()
	r.contacts[contactImportID(listID, originalID)] = st
}

// take removes and returns a released contact.
func (r *releasedContacts) take(listID, originalID string) (client.SubscriptionStatus, bool) {
	r.mu.Lock()
	defer r.mu.Unlock()
	key := contactImportID(listID, originalID)
	st, ok := r.contacts[key]
	delete(r.contacts, key)
	return st, ok
}

// contactImportID is the id of an rms_contact: list id and original id
// joined by a slash. The list id is digits, so the first slash splits them
// even when the original id holds slashes.
func contactImportID(listID, originalID string) string { return listID + "/" + originalID }

func splitContactImportID(id string) (listID, originalID string, ok bool) {
	listID, originalID, ok = strings.Cut(id, "/")
	return listID, originalID, ok && isEntityID(listID) && originalID != ""
}

// contactFieldPath maps a field of a contact error onto the attribute to
// blame: "properties.<key>" is that key of properties.
func contactFieldPath(field string) (path.Path, bool) {
	switch field {
	case "originalId":
		return path.Root("original_id"), true
	case "status":
		return path.Root("email_status"), true
	case "mobileStatus":
		return path.Root("mobile_status"), true
	case "properties":
		return path.Root("properties"), true
	}
	if key, ok := strings.CutPrefix(field, "properties."); ok {
		return path.Root("properties").AtMapKey(key), true
	}
	return path.Empty(), false
}
