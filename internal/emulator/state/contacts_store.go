package state

import (
	"maps"
	"net/http"
	"slices"
	"strconv"

	"github.com/rms-labs/terraform-provider-rms/internal/emulator/apierr"
)

// The contacts of the lists, and the small API every feature that changes
// them goes through: the HTTP handlers of contacts.go, the test seeding hooks
// of contacts_seed.go and bulk imports (add = Upsert, replace = Replace,
// unsubscribe = SetStatus). The rules live here, not in handlers.

// Contacts is the account's contacts, list by list: a store of its own over
// the account's one lock (Store), so that its methods are read apart from the
// generic collections'.
type Contacts struct {
	st *Store
	// lists holds the contacts of each list by list id.
	lists map[int64]*ListContacts
	// dirty is what changed in each list's contacts since the data
	// directory last saved them (persist.go journals only that).
	dirty map[int64]*listDirty
	// lastBirth is the history of the last new contact, which the next
	// one shares when it started the same way (contact_history.go).
	lastBirth *history
}

// listLocked returns the contacts of an existing list, creating the holder on
// first use, or a 404 when the list does not exist. The caller holds mu (for
// writing when create is true).
func (cs *Contacts) listLocked(listID int64, create bool) (*ListContacts, *apierr.Error) {
	if !cs.st.hasLocked(ListsKey, listID) {
		return nil, apierr.Errorf(http.StatusNotFound, "no list with id %d", listID)
	}
	lc := cs.lists[listID]
	if lc == nil {
		lc = &ListContacts{}
		if create {
			cs.lists[listID] = lc
		}
	}
	return lc, nil
}

// resolvePropsLocked turns raw keys into attribute ids. An unknown key, or
// two keys naming one attribute, is a validation error naming
// "properties.<key>". The caller holds mu.
func (cs *Contacts) resolvePropsLocked(props map[string]*string) (map[int64]*string, *apierr.Error) {
	out := make(map[int64]*string, len(props))
	keyOf := make(map[int64]string, len(props))
	// Sorted keys make the error for a body with several bad keys
	// deterministic.
	for _, key := range slices.Sorted(maps.Keys(props)) {
		id, ok := cs.st.ResolvePropertyLocked(key)
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

// newContactLocked builds a new contact from in; the caller holds mu and
// has resolved props.
func (cs *Contacts) newContactLocked(in ContactInput, props map[int64]*string, now string) *Contact {
	cs.st.nextID++
	c := newContact(cs.st.nextID, in.OriginalID, PropSet("").With(props), stampNow(now))
	for _, st := range []string{in.InitialStatus, in.Status} {
		if st != "" {
			c.status = codeOf(st)
		}
	}
	for _, st := range []string{in.InitialMobileStatus, in.MobileStatus} {
		if st != "" {
			c.mobile = codeOf(st)
		}
	}
	return c
}

// Create adds a new contact to a list: 404 when the list does not
// exist, 409 when the originalId is taken, 400 for a bad key or status.
// by is what made the change, for the contact's history.
func (cs *Contacts) Create(listID int64, in ContactInput, now string, by *Cause) (ContactView, *apierr.Error) {
	v, created, err := cs.Upsert(listID, in, now, false, by)
	if err == nil && !created {
		return ContactView{}, &apierr.Error{Status: http.StatusConflict, Field: "originalId",
			Message: "a contact with originalId " + strconv.Quote(in.OriginalID) + " already exists in list " + strconv.FormatInt(listID, 10)}
	}
	return v, err
}

// Upsert adds a contact, or, when the originalId exists and merge is
// true, merges props into it and applies the statuses given. With merge
// false an existing contact is left alone and created is false. by is what
// made the change, for the contact's history.
func (cs *Contacts) Upsert(listID int64, in ContactInput, now string, merge bool, by *Cause) (v ContactView, created bool, err *apierr.Error) {
	if in.OriginalID == "" {
		return ContactView{}, false, apierr.FieldError("originalId", "originalId is mandatory")
	}
	if err := checkInputStatus(in); err != nil {
		return ContactView{}, false, err
	}
	cs.st.mu.Lock()
	defer cs.st.mu.Unlock()
	lc, err := cs.listLocked(listID, true)
	if err != nil {
		return ContactView{}, false, err
	}
	props, err := cs.resolvePropsLocked(in.Props)
	if err != nil {
		return ContactView{}, false, err
	}
	names := cs.st.PropertyNamesLocked()
	if old := lc.Get(in.OriginalID); old != nil {
		if !merge {
			return old.View(names), false, nil
		}
		c := old.withProps(props, now)
		c.applyStatus(in.Status, in.MobileStatus, now)
		cs.noteLocked(old, c, by)
		lc.put(c)
		cs.markChangedLocked(listID, in.OriginalID)
		return c.View(names), false, nil
	}
	c := cs.newContactLocked(in, props, now)
	cs.noteLocked(nil, c, by)
	cs.markAddedLocked(listID)
	lc.add(c)
	return c.View(names), true, nil
}

// Get returns one contact; 404 when the list or contact is unknown.
func (cs *Contacts) Get(listID int64, originalID string) (ContactView, *apierr.Error) {
	cs.st.mu.RLock()
	defer cs.st.mu.RUnlock()
	lc, err := cs.listLocked(listID, false)
	if err != nil {
		return ContactView{}, err
	}
	c := lc.Get(originalID)
	if c == nil {
		return ContactView{}, noContact(listID, originalID)
	}
	return c.View(cs.st.PropertyNamesLocked()), nil
}

func noContact(listID int64, originalID string) *apierr.Error {
	return apierr.Errorf(http.StatusNotFound, "no contact with originalId %q in list %d", originalID, listID)
}

// UpdateProperties merges props into an existing contact.
func (cs *Contacts) UpdateProperties(listID int64, originalID string, props map[string]*string, now string) (ContactView, *apierr.Error) {
	cs.st.mu.Lock()
	defer cs.st.mu.Unlock()
	lc, err := cs.listLocked(listID, false)
	if err != nil {
		return ContactView{}, err
	}
	old := lc.Get(originalID)
	if old == nil {
		return ContactView{}, noContact(listID, originalID)
	}
	resolved, err := cs.resolvePropsLocked(props)
	if err != nil {
		return ContactView{}, err
	}
	c := old.withProps(resolved, now)
	lc.put(c)
	cs.markChangedLocked(listID, originalID)
	return c.View(cs.st.PropertyNamesLocked()), nil
}

// SetStatus is the interface's subscription transition: each
// non-empty state replaces the stored one (SUBSCRIBED <-> UNSUBSCRIBED, and
// setting the state a contact already has changes nothing but
// dateModified). by is what made the change, for the contact's history.
func (cs *Contacts) SetStatus(listID int64, originalID, status, mobileStatus, now string, by *Cause) (ContactView, *apierr.Error) {
	if err := checkInputStatus(ContactInput{Status: status, MobileStatus: mobileStatus}); err != nil {
		return ContactView{}, err
	}
	cs.st.mu.Lock()
	defer cs.st.mu.Unlock()
	lc, err := cs.listLocked(listID, false)
	if err != nil {
		return ContactView{}, err
	}
	old := lc.Get(originalID)
	if old == nil {
		return ContactView{}, noContact(listID, originalID)
	}
	c := *old
	c.applyStatus(status, mobileStatus, now)
	cs.noteLocked(old, &c, by)
	lc.put(&c)
	cs.markChangedLocked(listID, originalID)
	return c.View(cs.st.PropertyNamesLocked()), nil
}

// Replace makes ins the whole content of a list, atomically: nothing
// changes when one input is bad. A contact that stays keeps its id,
// dateCreated and states (unless the input gives states) and takes the
// input's properties whole; a later input with the same originalId merges
// into the earlier one. by is what made the change, for the contacts'
// histories.
func (cs *Contacts) Replace(listID int64, ins []ContactInput, now string, by *Cause) *apierr.Error {
	for _, in := range ins {
		if in.OriginalID == "" {
			return apierr.FieldError("originalId", "originalId is mandatory")
		}
		if err := checkInputStatus(in); err != nil {
			return err
		}
	}
	cs.st.mu.Lock()
	defer cs.st.mu.Unlock()
	old, err := cs.listLocked(listID, true)
	if err != nil {
		return err
	}
	next := &ListContacts{order: make([]*Contact, 0, len(ins))}
	for _, in := range ins {
		props, err := cs.resolvePropsLocked(in.Props)
		if err != nil {
			return err
		}
		if c := next.Get(in.OriginalID); c != nil {
			c = c.withProps(props, now)
			c.applyStatus(in.Status, in.MobileStatus, now)
			next.put(c)
			continue
		}
		var c *Contact
		if prev := old.Get(in.OriginalID); prev != nil {
			c = &Contact{ID: prev.ID, OriginalID: prev.OriginalID, status: prev.status, mobile: prev.mobile, created: prev.created}
			c = c.withProps(props, now)
			c.applyStatus(in.Status, in.MobileStatus, now)
		} else {
			c = cs.newContactLocked(in, props, now)
		}
		next.add(c)
	}
	// Each contact of next is a new value this call owns until it is
	// stored: its history compares it with the list as it was.
	for _, c := range next.order {
		cs.noteLocked(old.Get(c.OriginalID), c, by)
	}
	cs.lists[listID] = next
	cs.markAllLocked(listID)
	return nil
}

// Page returns the contacts of a list from offset, at most limit of
// them, in order of creation, with the number of contacts in the list and
// the account's attributes to show them with. Only pointers are copied:
// stored contacts are never modified in place.
func (cs *Contacts) Page(listID int64, offset, limit int) (ContactsPage, *apierr.Error) {
	cs.st.mu.RLock()
	defer cs.st.mu.RUnlock()
	lc, err := cs.listLocked(listID, false)
	if err != nil {
		return ContactsPage{}, err
	}
	page := ContactsPage{Total: lc.Len()}
	if offset >= page.Total {
		return page, nil
	}
	for id, name := range cs.st.PropertyNamesLocked() {
		page.Keys = append(page.Keys, PropKey{ID: id, Key: name})
	}
	SortPropKeys(page.Keys)
	// A copy of the page's pointers: a later write replaces a contact
	// in the order in place.
	page.Contacts = slices.Clone(lc.order[offset:min(offset+limit, page.Total)])
	return page, nil
}

// Ref returns the stored contact (never modified in place) or nil.
func (cs *Contacts) Ref(listID int64, originalID string) *Contact {
	cs.st.mu.RLock()
	defer cs.st.mu.RUnlock()
	if lc := cs.lists[listID]; lc != nil {
		return lc.Get(originalID)
	}
	return nil
}

// ListHolder returns a list's contacts holder (nil when it has none).
func (cs *Contacts) ListHolder(listID int64) *ListContacts {
	cs.st.mu.RLock()
	defer cs.st.mu.RUnlock()
	return cs.lists[listID]
}

// Counts is the number of contacts of a list and of those
// unsubscribed from e-mail.
func (cs *Contacts) Counts(listID int64) (total, unsubscribed int) {
	cs.st.mu.RLock()
	defer cs.st.mu.RUnlock()
	lc := cs.lists[listID]
	if lc == nil {
		return 0, 0
	}
	return lc.Len(), lc.idx.email.Unsubscribed
}

// Unsubscribed returns the list's contacts unsubscribed from e-mail,
// in order of creation. Stored contacts are never modified in place, so the
// pointers stay valid outside the lock.
func (cs *Contacts) Unsubscribed(listID int64) []*Contact {
	cs.st.mu.RLock()
	defer cs.st.mu.RUnlock()
	lc := cs.lists[listID]
	if lc == nil {
		return nil
	}
	var out []*Contact
	for _, c := range lc.order {
		if c.status == codeUnsubscribed {
			out = append(out, c)
		}
	}
	return out
}
