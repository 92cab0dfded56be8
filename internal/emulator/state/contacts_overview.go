package state

import (
	"net/http"
	"strings"

	"github.com/rms-labs/terraform-provider-rms/internal/emulator/apierr"
)

// What the emulator's console reads of the account: its lists with their
// contacts counted by status, a list's contacts a page at a time (all, or
// those a search finds), and one contact's history. Each read takes the
// lock once, copies only what it answers (a page, never a whole list) and
// counts in one pass over the list, so that it stays fast on a list of a
// million contacts.

// ChannelCounts counts a list's contacts by one channel's status.
type ChannelCounts struct {
	Subscribed, Unsubscribed, Pending, Other int
}

func (cc *ChannelCounts) add(status string) {
	switch status {
	case StatusSubscribed:
		cc.Subscribed++
	case StatusUnsubscribed:
		cc.Unsubscribed++
	case StatusPending:
		cc.Pending++
	default:
		cc.Other++
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
	cs.st.RLock()
	defer cs.st.RUnlock()
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
	cs.st.RLock()
	defer cs.st.RUnlock()
	c := cs.st.colls[ListsKey]
	if c == nil || c.items[listID] == nil {
		return ListOverview{}, apierr.Errorf(http.StatusNotFound, "no list with id %d", listID)
	}
	name, _ := c.items[listID]["name"].(string)
	return cs.overviewLocked(listID, name), nil
}

// overviewLocked counts a list's contacts in one pass over the stored
// values (no lookup by originalId). The caller holds mu.
func (cs *Contacts) overviewLocked(id int64, name string) ListOverview {
	o := ListOverview{ID: id, Name: name}
	lc := cs.lists[id]
	if lc == nil {
		return o
	}
	o.Contacts = len(lc.Order)
	for _, c := range lc.ByID {
		o.Email.add(c.Status)
		o.Mobile.add(c.MobileStatus)
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

// FindContacts returns a page of the list's contacts, in the list's order:
// from offset, at most limit of those whose originalId starts with query
// (as written) or whose e-mail address (the attribute named "email")
// starts with it in any case. An empty query finds every contact, and
// then the page is read by index without looking at the others.
func (cs *Contacts) FindContacts(listID int64, query string, offset, limit int) (ContactRows, *apierr.Error) {
	cs.st.RLock()
	defer cs.st.RUnlock()
	lc, err := cs.listLocked(listID, false)
	if err != nil {
		return ContactRows{}, err
	}
	emailID, hasEmail := cs.st.ResolvePropertyLocked("email")
	row := func(c *Contact) ContactRow {
		r := ContactRow{OriginalID: c.OriginalID, Status: c.Status, MobileStatus: c.MobileStatus, Modified: c.Modified}
		if hasEmail {
			r.Email, _ = c.Props.lookup(emailID)
		}
		if c.hist != nil {
			r.Changes = len(c.hist.changes)
		}
		return r
	}
	var out ContactRows
	if query == "" {
		out.Matched = len(lc.Order)
		if offset < len(lc.Order) {
			for _, oid := range lc.Order[offset:min(offset+limit, len(lc.Order))] {
				out.Rows = append(out.Rows, row(lc.ByID[oid]))
			}
		}
		return out, nil
	}
	lower := strings.ToLower(query)
	for _, oid := range lc.Order {
		c := lc.ByID[oid]
		if !strings.HasPrefix(oid, query) {
			email, ok := "", false
			if hasEmail {
				email, ok = c.Props.lookup(emailID)
			}
			if !ok || !hasPrefixFold(email, lower) {
				continue
			}
		}
		if out.Matched >= offset && len(out.Rows) < limit {
			out.Rows = append(out.Rows, row(c))
		}
		out.Matched++
	}
	return out, nil
}

// hasPrefixFold reports whether s starts with lowerPrefix, ignoring the
// case of s (lowerPrefix is lower case already).
func hasPrefixFold(s, lowerPrefix string) bool {
	return len(s) >= len(lowerPrefix) && strings.EqualFold(s[:len(lowerPrefix)], lowerPrefix)
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
	cs.st.RLock()
	defer cs.st.RUnlock()
	lc, err := cs.listLocked(listID, false)
	if err != nil {
		return ContactHistory{}, err
	}
	c, ok := lc.ByID[originalID]
	if !ok {
		return ContactHistory{}, noContact(listID, originalID)
	}
	h := ContactHistory{
		Row:     ContactRow{OriginalID: c.OriginalID, Status: c.Status, MobileStatus: c.MobileStatus, Modified: c.Modified},
		Created: c.Created,
		Changes: c.hist.view(),
	}
	if id, ok := cs.st.ResolvePropertyLocked("email"); ok {
		h.Row.Email, _ = c.Props.lookup(id)
	}
	h.Row.Changes = len(h.Changes)
	return h, nil
}
