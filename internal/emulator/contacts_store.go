package emulator

import (
	"maps"
	"net/http"
	"slices"
	"strconv"

	"github.com/rms-labs/terraform-provider-rms/internal/emulator/apierr"
)

// The contacts of the lists, and the small API every feature that changes
// them goes through: the HTTP handlers of contacts.go, the test seeding hooks
// of contacts_seed.go and, later, bulk imports (add = upsert, replace = replaceContacts,
// unsubscribe = setContactStatus). The rules live here, not in handlers.

// Subscription states of the interface (SubscriptionStatusDto).
const (
	statusSubscribed   = "SUBSCRIBED"
	statusUnsubscribed = "UNSUBSCRIBED"
)

func validStatus(s string) bool { return s == statusSubscribed || s == statusUnsubscribed }

// contact is one stored recipient. Stored contacts are never modified in
// place: a change stores a new value, so views can be built under the read
// lock without copying more than the page asked for. The fields are compact
// (contacts_props.go): a list may hold a million of them.
type contact struct {
	id           int64
	originalID   string
	props        propSet // by attribute id
	status       string  // e-mail subscription
	mobileStatus string
	created      int64 // unix seconds
	modified     int64
}

func (c *contact) dateCreated() string  { return formatStamp(c.created) }
func (c *contact) dateModified() string { return formatStamp(c.modified) }

// listContacts holds one list's contacts: order is the originalIds in order
// of creation (the stable paging order), byID the contacts themselves.
type listContacts struct {
	order []string
	byID  map[string]*contact
}

// contactView is a contact as the interface answers it: properties keyed by
// attribute name (the canonical form), both subscription states, and the
// server-set id and timestamps.
type contactView struct {
	ID           int64             `json:"id"`
	OriginalID   string            `json:"originalId"`
	Properties   map[string]string `json:"properties"`
	Status       string            `json:"status,omitempty"` // empty only under no-statuses
	MobileStatus string            `json:"mobileStatus,omitempty"`
	DateCreated  string            `json:"dateCreated"`
	DateModified string            `json:"dateModified"`
}

// contactInput is a contact to write. props keys are attribute names or ids
// written as strings; a nil value (update only) removes the attribute's
// value. An empty status or mobileStatus keeps the stored state, or is
// SUBSCRIBED for a new contact.
type contactInput struct {
	originalID   string
	props        map[string]*string
	status       string
	mobileStatus string
	// initialStatus and initialMobileStatus, when set, are the states of a
	// new contact whose input gives none (wire profiles double-opt-in and
	// status-other); they never change an existing contact.
	initialStatus       string
	initialMobileStatus string
}

// view renders c with the attribute names of names; values of attributes
// deleted since are left out.
func (c *contact) view(names map[int64]string) contactView {
	props := make(map[string]string, 4)
	c.props.each(func(id int64, v string) bool {
		if name, ok := names[id]; ok {
			props[name] = v
		}
		return true
	})
	return contactView{
		ID: c.id, OriginalID: c.originalID, Properties: props,
		Status: c.status, MobileStatus: c.mobileStatus,
		DateCreated: c.dateCreated(), DateModified: c.dateModified(),
	}
}

// listLocked returns the contacts of an existing list, creating the holder on
// first use, or a 404 when the list does not exist. The caller holds mu (for
// writing when create is true).
func (st *store) listLocked(listID int64, create bool) (*listContacts, *apierr.Error) {
	if !st.hasLocked(listsKey, listID) {
		return nil, apierr.Errorf(http.StatusNotFound, "no list with id %d", listID)
	}
	lc := st.contacts[listID]
	if lc == nil {
		lc = &listContacts{byID: map[string]*contact{}}
		if create {
			st.contacts[listID] = lc
		}
	}
	return lc, nil
}

// resolvePropsLocked turns raw keys into attribute ids. An unknown key, or
// two keys naming one attribute, is a validation error naming
// "properties.<key>". The caller holds mu.
func (st *store) resolvePropsLocked(props map[string]*string) (map[int64]*string, *apierr.Error) {
	out := make(map[int64]*string, len(props))
	keyOf := make(map[int64]string, len(props))
	// Sorted keys make the error for a body with several bad keys
	// deterministic.
	for _, key := range slices.Sorted(maps.Keys(props)) {
		id, ok := st.resolvePropertyLocked(key)
		if !ok {
			return nil, apierr.FieldError("properties."+key, "unknown contact attribute %q: give the name or the id of a property of the account (GET /properties lists them)", key)
		}
		if other, dup := keyOf[id]; dup {
			return nil, apierr.FieldError("properties."+key, "properties %q and %q name the same attribute (id %d); give it once", other, key, id)
		}
		keyOf[id] = key
		out[id] = props[key]
	}
	return out, nil
}

func checkInputStatus(in contactInput) *apierr.Error {
	if in.status != "" && !validStatus(in.status) {
		return apierr.FieldError("status", "status must be SUBSCRIBED or UNSUBSCRIBED, got %q", in.status)
	}
	if in.mobileStatus != "" && !validStatus(in.mobileStatus) {
		return apierr.FieldError("mobileStatus", "mobileStatus must be SUBSCRIBED or UNSUBSCRIBED, got %q", in.mobileStatus)
	}
	return nil
}

// newContactLocked builds a new contact from in; the caller holds mu and
// has resolved props.
func (st *store) newContactLocked(in contactInput, props map[int64]*string, now string) *contact {
	st.nextID++
	stamp := stampOf(now)
	c := &contact{
		id: st.nextID, originalID: in.originalID, props: propSet("").with(props),
		status: statusSubscribed, mobileStatus: statusSubscribed,
		created: stamp, modified: stamp,
	}
	for _, st := range []string{in.initialStatus, in.status} {
		if st != "" {
			c.status = st
		}
	}
	for _, st := range []string{in.initialMobileStatus, in.mobileStatus} {
		if st != "" {
			c.mobileStatus = st
		}
	}
	return c
}

// createContact adds a new contact to a list: 404 when the list does not
// exist, 409 when the originalId is taken, 400 for a bad key or status.
func (st *store) createContact(listID int64, in contactInput, now string) (contactView, *apierr.Error) {
	v, created, err := st.upsertContact(listID, in, now, false)
	if err == nil && !created {
		return contactView{}, &apierr.Error{Status: http.StatusConflict, Field: "originalId",
			Message: "a contact with originalId " + strconv.Quote(in.originalID) + " already exists in list " + strconv.FormatInt(listID, 10)}
	}
	return v, err
}

// upsertContact adds a contact, or, when the originalId exists and merge is
// true, merges props into it and applies the statuses given. With merge
// false an existing contact is left alone and created is false.
func (st *store) upsertContact(listID int64, in contactInput, now string, merge bool) (v contactView, created bool, err *apierr.Error) {
	if in.originalID == "" {
		return contactView{}, false, apierr.FieldError("originalId", "originalId is mandatory")
	}
	if err := checkInputStatus(in); err != nil {
		return contactView{}, false, err
	}
	st.mu.Lock()
	defer st.mu.Unlock()
	lc, err := st.listLocked(listID, true)
	if err != nil {
		return contactView{}, false, err
	}
	props, err := st.resolvePropsLocked(in.props)
	if err != nil {
		return contactView{}, false, err
	}
	names := st.propertyNamesLocked()
	if old, exists := lc.byID[in.originalID]; exists {
		if !merge {
			return old.view(names), false, nil
		}
		c := old.withProps(props, now)
		c.applyStatus(in.status, in.mobileStatus, now)
		lc.byID[in.originalID] = c
		st.markChangedLocked(listID, in.originalID)
		return c.view(names), false, nil
	}
	c := st.newContactLocked(in, props, now)
	st.markAddedLocked(listID)
	lc.order = append(lc.order, in.originalID)
	lc.byID[in.originalID] = c
	return c.view(names), true, nil
}

// withProps returns a copy of c with props merged in (nil removes a value).
func (c *contact) withProps(props map[int64]*string, now string) *contact {
	n := *c
	n.props = c.props.with(props)
	n.modified = stampOf(now)
	return &n
}

// applyStatus sets the non-empty states on c, which the caller owns.
func (c *contact) applyStatus(status, mobileStatus, now string) {
	if status != "" {
		c.status = status
	}
	if mobileStatus != "" {
		c.mobileStatus = mobileStatus
	}
	c.modified = stampOf(now)
}

// getContact returns one contact; 404 when the list or contact is unknown.
func (st *store) getContact(listID int64, originalID string) (contactView, *apierr.Error) {
	st.mu.RLock()
	defer st.mu.RUnlock()
	lc, err := st.listLocked(listID, false)
	if err != nil {
		return contactView{}, err
	}
	c, ok := lc.byID[originalID]
	if !ok {
		return contactView{}, noContact(listID, originalID)
	}
	return c.view(st.propertyNamesLocked()), nil
}

func noContact(listID int64, originalID string) *apierr.Error {
	return apierr.Errorf(http.StatusNotFound, "no contact with originalId %q in list %d", originalID, listID)
}

// updateContactProperties merges props into an existing contact.
func (st *store) updateContactProperties(listID int64, originalID string, props map[string]*string, now string) (contactView, *apierr.Error) {
	st.mu.Lock()
	defer st.mu.Unlock()
	lc, err := st.listLocked(listID, false)
	if err != nil {
		return contactView{}, err
	}
	old, ok := lc.byID[originalID]
	if !ok {
		return contactView{}, noContact(listID, originalID)
	}
	resolved, err := st.resolvePropsLocked(props)
	if err != nil {
		return contactView{}, err
	}
	c := old.withProps(resolved, now)
	lc.byID[originalID] = c
	st.markChangedLocked(listID, originalID)
	return c.view(st.propertyNamesLocked()), nil
}

// setContactStatus is the interface's subscription transition: each
// non-empty state replaces the stored one (SUBSCRIBED <-> UNSUBSCRIBED, and
// setting the state a contact already has changes nothing but
// dateModified).
func (st *store) setContactStatus(listID int64, originalID, status, mobileStatus, now string) (contactView, *apierr.Error) {
	if err := checkInputStatus(contactInput{status: status, mobileStatus: mobileStatus}); err != nil {
		return contactView{}, err
	}
	st.mu.Lock()
	defer st.mu.Unlock()
	lc, err := st.listLocked(listID, false)
	if err != nil {
		return contactView{}, err
	}
	old, ok := lc.byID[originalID]
	if !ok {
		return contactView{}, noContact(listID, originalID)
	}
	c := *old
	c.applyStatus(status, mobileStatus, now)
	lc.byID[originalID] = &c
	st.markChangedLocked(listID, originalID)
	return c.view(st.propertyNamesLocked()), nil
}

// replaceContacts makes ins the whole content of a list, atomically: nothing
// changes when one input is bad. A contact that stays keeps its id,
// dateCreated and states (unless the input gives states) and takes the
// input's properties whole; a later input with the same originalId merges
// into the earlier one.
func (st *store) replaceContacts(listID int64, ins []contactInput, now string) *apierr.Error {
	for _, in := range ins {
		if in.originalID == "" {
			return apierr.FieldError("originalId", "originalId is mandatory")
		}
		if err := checkInputStatus(in); err != nil {
			return err
		}
	}
	st.mu.Lock()
	defer st.mu.Unlock()
	old, err := st.listLocked(listID, true)
	if err != nil {
		return err
	}
	next := &listContacts{byID: make(map[string]*contact, len(ins))}
	for _, in := range ins {
		props, err := st.resolvePropsLocked(in.props)
		if err != nil {
			return err
		}
		if c, seen := next.byID[in.originalID]; seen {
			c = c.withProps(props, now)
			c.applyStatus(in.status, in.mobileStatus, now)
			next.byID[in.originalID] = c
			continue
		}
		var c *contact
		if prev, kept := old.byID[in.originalID]; kept {
			c = &contact{id: prev.id, originalID: prev.originalID, status: prev.status, mobileStatus: prev.mobileStatus, created: prev.created}
			c = c.withProps(props, now)
			c.applyStatus(in.status, in.mobileStatus, now)
		} else {
			c = st.newContactLocked(in, props, now)
		}
		next.order = append(next.order, in.originalID)
		next.byID[in.originalID] = c
	}
	st.contacts[listID] = next
	st.markAllLocked(listID)
	return nil
}

// contactPage returns the contacts of a list from offset, at most limit of
// them, in order of creation, and the number of contacts in the list. Only
// the page is copied.
func (st *store) contactPage(listID int64, offset, limit int) ([]contactView, int, *apierr.Error) {
	st.mu.RLock()
	defer st.mu.RUnlock()
	lc, err := st.listLocked(listID, false)
	if err != nil {
		return nil, 0, err
	}
	items := []contactView{} // encodes as [], never null
	total := len(lc.order)
	if offset >= total {
		return items, total, nil
	}
	names := st.propertyNamesLocked()
	for _, oid := range lc.order[offset:min(offset+limit, total)] {
		items = append(items, lc.byID[oid].view(names))
	}
	return items, total, nil
}
