package state

// A contact as the store keeps it, as a request gives it and as an answer
// shows it.

import "github.com/rms-labs/terraform-provider-rms/internal/emulator/apierr"

// Subscription states of the interface (SubscriptionStatusDto).
const (
	StatusSubscribed   = "SUBSCRIBED"
	StatusUnsubscribed = "UNSUBSCRIBED"
)

// ValidStatus reports whether s is a subscription status a request may set.
func ValidStatus(s string) bool { return s == StatusSubscribed || s == StatusUnsubscribed }

// Contact is one stored recipient. Stored contacts are never modified in
// place: a change stores a new value, so views can be built under the read
// lock without copying more than the page asked for. The fields are compact
// (contacts_props.go): a list may hold ten million of them, and a contact
// is 64 bytes, its properties one string that its originalId shares when
// it is one of their values.
type Contact struct {
	ID         int64
	OriginalID string
	Props      PropSet // by attribute id
	// hist is the last status changes (contact_history.go); nil for a
	// contact restored from a data directory and never changed since.
	hist              *history
	created, modified stamp
	status, mobile    statusCode // e-mail and mobile subscription
}

// stamp is a time in unix seconds, as a contact keeps it: 1970 to 2106.
type stamp uint32

// stampFits reports whether sec is a time a contact can keep.
func stampFits(sec int64) bool { return sec >= 0 && sec <= int64(^uint32(0)) }

// Status is the contact's e-mail subscription state.
func (c *Contact) Status() string { return c.status.String() }

// MobileStatus is the contact's mobile subscription state.
func (c *Contact) MobileStatus() string { return c.mobile.String() }

// DateCreated is the contact's creation time as the interface writes it.
func (c *Contact) DateCreated() string { return formatStamp(int64(c.created)) }

// DateModified is the contact's last change as the interface writes it.
func (c *Contact) DateModified() string { return formatStamp(int64(c.modified)) }

// ListContacts holds one list's contacts in order of creation (the stable
// paging order), found by originalId and by e-mail address through tables
// of their positions (position_index.go, contacts_index.go). Writes go
// through put and add, which keep the tables and the counts.
type ListContacts struct {
	order []*Contact
	byID  posIndex
	// idx counts the contacts by status and finds them by e-mail address
	// (contacts_index.go).
	idx listIndex
	// loose is true while a restore fills the order without the tables
	// (ListContacts.restored).
	loose bool
}

// ContactView is a contact as the interface answers it: properties keyed by
// attribute name (the canonical form), both subscription states, and the
// server-set id and timestamps.
type ContactView struct {
	ID           int64             `json:"id"`
	OriginalID   string            `json:"originalId"`
	Properties   map[string]string `json:"properties"`
	Status       string            `json:"status,omitempty"` // empty only under no-statuses
	MobileStatus string            `json:"mobileStatus,omitempty"`
	DateCreated  string            `json:"dateCreated"`
	DateModified string            `json:"dateModified"`
}

// ContactInput is a contact to write. props keys are attribute names or ids
// written as strings; a nil value (update only) removes the attribute's
// value. An empty status or mobileStatus keeps the stored state, or is
// SUBSCRIBED for a new contact.
type ContactInput struct {
	OriginalID   string
	Props        map[string]*string
	Status       string
	MobileStatus string
	// InitialStatus and InitialMobileStatus, when set, are the states of a
	// new contact whose input gives none (wire profiles double-opt-in and
	// status-other); they never change an existing contact.
	InitialStatus       string
	InitialMobileStatus string
}

// View renders c with the attribute names of names; values of attributes
// deleted since are left out.
func (c *Contact) View(names map[int64]string) ContactView {
	props := make(map[string]string, 4)
	c.Props.each(func(id int64, v string) bool {
		if name, ok := names[id]; ok {
			props[name] = v
		}
		return true
	})
	return ContactView{
		ID: c.ID, OriginalID: c.OriginalID, Properties: props,
		Status: c.Status(), MobileStatus: c.MobileStatus(),
		DateCreated: c.DateCreated(), DateModified: c.DateModified(),
	}
}

func checkInputStatus(in ContactInput) *apierr.Error {
	if in.Status != "" && !ValidStatus(in.Status) {
		return apierr.FieldError("status", "status must be SUBSCRIBED or UNSUBSCRIBED, got %q", in.Status)
	}
	if in.MobileStatus != "" && !ValidStatus(in.MobileStatus) {
		return apierr.FieldError("mobileStatus", "mobileStatus must be SUBSCRIBED or UNSUBSCRIBED, got %q", in.MobileStatus)
	}
	return nil
}

// newContact is a new contact, subscribed on both channels.
func newContact(id int64, originalID string, props PropSet, at stamp) *Contact {
	return &Contact{
		ID: id, OriginalID: props.share(originalID), Props: props,
		status: codeSubscribed, mobile: codeSubscribed, created: at, modified: at,
	}
}

// withProps returns a copy of c with props merged in (nil removes a value).
func (c *Contact) withProps(props map[int64]*string, now string) *Contact {
	n := *c
	n.Props = c.Props.With(props)
	n.OriginalID = n.Props.share(c.OriginalID)
	n.modified = stampNow(now)
	return &n
}

// applyStatus sets the non-empty states on c, which the caller owns.
func (c *Contact) applyStatus(status, mobileStatus, now string) {
	if status != "" {
		c.status = codeOf(status)
	}
	if mobileStatus != "" {
		c.mobile = codeOf(mobileStatus)
	}
	c.modified = stampNow(now)
}

// StatusPending is the e-mail state of a new contact under status-other:
// awaiting confirmation. Requests never set it.
const StatusPending = "PENDING"
