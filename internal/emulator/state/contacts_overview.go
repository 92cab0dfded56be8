package state

import (
	"cmp"
	"net/http"
	"slices"
	"strings"

	"github.com/rms-labs/terraform-provider-rms/internal/emulator/apierr"
)

// What the emulator's console reads of the account: its lists with their
// contacts counted by status, a list's contacts a page at a time (all, or
// those a search finds), and one contact's history. Each read takes the
// lock once, copies only what it answers (a page, never a whole list) and
// looks at no contact it does not answer: the counts and the e-mail
// addresses are kept as the list changes (contacts_index.go), so that it
// answers as fast on a list of a million contacts.

// ChannelCounts counts a list's contacts by one channel's status.
type ChannelCounts struct {
	Subscribed, Unsubscribed, Pending, Other int
}

func (cc *ChannelCounts) add(status statusCode, n int) {
	switch status {
	case codeSubscribed:
		cc.Subscribed += n
	case codeUnsubscribed:
		cc.Unsubscribed += n
	case codePending:
		cc.Pending += n
	default:
		cc.Other += n
	}
}

// ListOverview is one list as the console shows it.
type ListOverview struct {
	ID       int64
	Name     string
	Contacts int
	Email    ChannelCounts
	Mobile   ChannelCounts
}

// Overview returns the account's lists from offset, at most limit of them,
// in id order, each with its contacts counted by status, and the number of
// lists.
func (cs *Contacts) Overview(offset, limit int) (lists []ListOverview, total int) {
	cs.st.mu.RLock()
	defer cs.st.mu.RUnlock()
	i := 0
	cs.st.EachLocked(ListsKey, func(e Entity) bool {
		if i >= offset && len(lists) < limit {
			id, _ := e["id"].(int64)
			name, _ := e["name"].(string)
			lists = append(lists, cs.overviewLocked(id, name))
		}
		i++
		return true
	})
	return lists, i
}

// ListOverview returns one list with its contacts counted by status; 404
// when the list does not exist.
func (cs *Contacts) ListOverview(listID int64) (ListOverview, *apierr.Error) {
	cs.st.mu.RLock()
	defer cs.st.mu.RUnlock()
	c := cs.st.colls[ListsKey]
	if c == nil || c.items[listID] == nil {
		return ListOverview{}, apierr.Errorf(http.StatusNotFound, "no list with id %d", listID)
	}
	name, _ := c.items[listID]["name"].(string)
	return cs.overviewLocked(listID, name), nil
}

// overviewLocked reads a list's counts, which its writes keep
// (contacts_index.go). The caller holds mu.
func (cs *Contacts) overviewLocked(id int64, name string) ListOverview {
	o := ListOverview{ID: id, Name: name}
	if lc := cs.lists[id]; lc != nil {
		o.Contacts, o.Email, o.Mobile = lc.Len(), lc.idx.email, lc.idx.mobile
	}
	return o
}

// ContactRow is a contact as a row of the console's table.
type ContactRow struct {
	OriginalID   string
	Email        string
	Status       string
	MobileStatus string
	Modified     int64 // unix seconds
	Changes      int   // status changes remembered
}

// ContactRows is one page of a list's contacts.
type ContactRows struct {
	Rows []ContactRow
	// Matched is the number of contacts the search found (every contact
	// of the list without a search).
	Matched int
}

// FindContacts returns a page of the list's contacts: from offset, at
// most limit of them. An empty query finds every contact, in the list's
// order, read by index without looking at the others. Otherwise it finds
// the contact whose originalId is query exactly (as written), and those
// whose e-mail address (EmailAttributeID) is query in any case, in the
// order they were created: a lookup, not a scan, so that a search costs
// the same on a list of a million contacts (contacts_index.go).
func (cs *Contacts) FindContacts(listID int64, query string, offset, limit int) (ContactRows, *apierr.Error) {
	cs.st.mu.RLock()
	defer cs.st.mu.RUnlock()
	lc, err := cs.listLocked(listID, false)
	if err != nil {
		return ContactRows{}, err
	}
	var found []*Contact
	if query == "" {
		if offset < lc.Len() {
			found = lc.order[offset:min(offset+limit, lc.Len())]
		}
		return ContactRows{Rows: rowsOf(found), Matched: lc.Len()}, nil
	}
	if c := lc.Get(query); c != nil {
		found = append(found, c)
	}
	for _, c := range lc.byEmail(strings.ToLower(query)) {
		if c.OriginalID != query {
			found = append(found, c)
		}
	}
	slices.SortFunc(found, func(a, b *Contact) int { return cmp.Compare(a.ID, b.ID) })
	matched := len(found)
	found = found[min(offset, matched):min(offset+limit, matched)]
	return ContactRows{Rows: rowsOf(found), Matched: matched}, nil
}

// rowsOf makes the rows of contacts.
func rowsOf(contacts []*Contact) []ContactRow {
	rows := make([]ContactRow, len(contacts))
	for i, c := range contacts {
		rows[i] = rowOf(c)
	}
	return rows
}

func rowOf(c *Contact) ContactRow {
	r := ContactRow{OriginalID: c.OriginalID, Status: c.Status(), MobileStatus: c.MobileStatus(), Modified: int64(c.modified)}
	r.Email, _ = c.Props.lookup(EmailAttributeID)
	if c.hist != nil {
		r.Changes = len(c.hist.changes)
	}
	return r
}

// ContactHistory is one contact with its last status changes, newest first.
type ContactHistory struct {
	Row     ContactRow
	Created int64 // unix seconds
	Changes []StatusChange
}

// History returns a contact and its last status changes; 404 when the list
// or the contact does not exist.
func (cs *Contacts) History(listID int64, originalID string) (ContactHistory, *apierr.Error) {
	cs.st.mu.RLock()
	defer cs.st.mu.RUnlock()
	lc, err := cs.listLocked(listID, false)
	if err != nil {
		return ContactHistory{}, err
	}
	c := lc.Get(originalID)
	if c == nil {
		return ContactHistory{}, noContact(listID, originalID)
	}
	return ContactHistory{Row: rowOf(c), Created: int64(c.created), Changes: c.hist.view()}, nil
}
