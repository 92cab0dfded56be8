package state

import (
	"slices"
	"strings"
	"sync"
)

// What the console reads of a list without looking at each of its
// contacts: the contacts counted by status, and the contacts of each e-mail
// address. Every write of a list's contacts goes through ListContacts.put
// (or add, for a contact known to be new), which keeps both, so that the
// console answers in the same time for a list of ten contacts or of ten
// million. The e-mail index is a table of positions (position_index.go):
// 8 to 16 bytes per contact that has an address.

// EmailAttributeID is the standard attribute "email" (StandardProperties),
// the address the console finds contacts by.
const EmailAttributeID = 1

// listIndex is kept beside a list's contacts.
type listIndex struct {
	email, mobile ChannelCounts
	// byEmail holds the position of each contact that has an e-mail
	// address, under the address in lower case.
	byEmail posIndex
}

// emailOf is c's e-mail address, lower case, or "".
func emailOf(c *Contact) string {
	v, _ := c.Props.lookup(EmailAttributeID)
	return strings.ToLower(v)
}

// Len is the number of contacts.
func (lc *ListContacts) Len() int { return len(lc.order) }

// At is the contact at position i of the order.
func (lc *ListContacts) At(i int) *Contact { return lc.order[i] }

// Get returns the contact of originalID, or nil.
func (lc *ListContacts) Get(originalID string) *Contact {
	if pos, ok := lc.find(originalID); ok {
		return lc.order[pos]
	}
	return nil
}

// find returns the position of originalID.
func (lc *ListContacts) find(originalID string) (pos int, found bool) {
	lc.byID.each(lc.byID.hash(originalID), func(p int) bool {
		if lc.order[p].OriginalID == originalID {
			pos, found = p, true
			return false
		}
		return true
	})
	return pos, found
}

// oidAt and emailAt are the keys of a position in the two tables.
func (lc *ListContacts) oidAt(pos int) string   { return lc.order[pos].OriginalID }
func (lc *ListContacts) emailAt(pos int) string { return emailOf(lc.order[pos]) }

// byEmail returns the contacts whose address is email (lower case), in no
// order.
func (lc *ListContacts) byEmail(email string) []*Contact {
	var out []*Contact
	x := &lc.idx.byEmail
	x.each(x.hash(email), func(p int) bool {
		if c := lc.order[p]; emailOf(c) == email {
			out = append(out, c)
		}
		return true
	})
	return out
}

// count adds n to the counts of c's states.
func (x *listIndex) count(c *Contact, n int) {
	x.email.add(c.status, n)
	x.mobile.add(c.mobile, n)
}

// add stores c, whose originalId the list does not hold, at the end of
// the order.
func (lc *ListContacts) add(c *Contact) {
	pos := len(lc.order)
	lc.order = append(lc.order, c)
	lc.byID.insert(lc.byID.hash(c.OriginalID), pos, lc.oidAt)
	lc.idx.count(c, 1)
	if email := emailOf(c); email != "" {
		lc.idx.byEmail.insert(lc.idx.byEmail.hash(email), pos, lc.emailAt)
	}
}

// restored appends c, read from a snapshot, to the order and its counts
// but not to the tables: buildTables makes them once the list is read,
// sized once instead of growing ten times over a restore.
func (lc *ListContacts) restored(c *Contact) {
	lc.order = append(lc.order, c)
	lc.idx.count(c, 1)
	lc.loose = true
}

// buildTables makes the tables of a list restored holds. The positions
// before from hold a snapshot's contacts, each originalId once; from
// there on a journal's, each replacing the contact of its originalId in
// place, or added at the end when new, as put does (a journal is replayed
// by appending, so that the tables are built once, at their final size,
// and not rehashed ten times over as they grow). It returns the position
// of the first snapshot contact whose originalId an earlier one has, or
// -1.
func (lc *ListContacts) buildTables(from int) (repeated int) {
	lc.loose = false
	// The e-mail table is built on another core meanwhile, from the order
	// as it is: right unless a journal record replaces a contact (a
	// journal of new contacts alone, such as an import's, keeps it). The
	// order is not written until the first replacement, which waits for
	// that table and has it built again at the end.
	var emails sync.WaitGroup
	emails.Go(lc.buildEmailTable)
	defer emails.Wait()
	speculating := true
	lc.byID.reserve(len(lc.order))
	w := 0
	for r, c := range lc.order {
		if pos, found := lc.find(c.OriginalID); found {
			if r < from {
				return r
			}
			if speculating {
				emails.Wait()
				speculating = false
			}
			lc.idx.count(lc.order[pos], -1)
			lc.order[pos] = c
			continue
		}
		if w != r { // never while speculating
			lc.order[w] = c
		}
		lc.byID.insert(lc.byID.hash(c.OriginalID), w, lc.oidAt)
		w++
	}
	if speculating {
		return -1
	}
	records := len(lc.order)
	clear(lc.order[w:]) // the replaced contacts, for the collector
	lc.order = lc.order[:w]
	if w < records/2 {
		// Mostly replacements: a table and an order sized for the records
		// would stay twice too large.
		lc.order = slices.Clone(lc.order)
		lc.byID.reserve(w)
		for pos, c := range lc.order {
			lc.byID.insert(lc.byID.hash(c.OriginalID), pos, lc.oidAt)
		}
	}
	lc.buildEmailTable()
	return -1
}

// buildEmailTable makes the e-mail table of the order as it is.
func (lc *ListContacts) buildEmailTable() {
	lc.idx.byEmail.reserve(len(lc.order))
	for pos, c := range lc.order {
		if email := emailOf(c); email != "" {
			lc.idx.byEmail.insert(lc.idx.byEmail.hash(email), pos, lc.emailAt)
		}
	}
}

// put stores c under its originalId, in place of the contact it replaces,
// or at the end of the order when it is new.
func (lc *ListContacts) put(c *Contact) {
	pos, ok := lc.find(c.OriginalID)
	if !ok {
		lc.add(c)
		return
	}
	old := lc.order[pos]
	lc.idx.count(old, -1)
	lc.idx.count(c, 1)
	if old.Props == c.Props { // the common case: a change of status
		lc.order[pos] = c
		return
	}
	oldEmail, email := emailOf(old), emailOf(c)
	if oldEmail == email {
		lc.order[pos] = c
		return
	}
	x := &lc.idx.byEmail
	if oldEmail != "" {
		x.remove(x.hash(oldEmail), pos, lc.emailAt) // while old is at pos
	}
	lc.order[pos] = c
	if email != "" {
		x.insert(x.hash(email), pos, lc.emailAt)
	}
}
