package state

// What changed in the contacts since the data directory last saved them, so
// that a save writes only that (persist.go, journal.go). A list's order of
// contacts only grows (a replace makes a new list), so the contacts added
// since the last save are the end of the order from a position on; the
// contacts changed in place are a set of originalIds. A list whose changes
// are a large share of it is saved whole.

// wholeListShare: a list with more changed contacts than this share of
// its contacts (and more than wholeListMin) is saved whole, which costs no
// more than the set of changes and keeps that set small.
const (
	wholeListShare = 4 // a quarter
	wholeListMin   = 1024
)

// dirtyLocked returns the list's changes, starting them at the list's
// present end. The caller holds mu for writing.
func (cs *Contacts) dirtyLocked(listID int64) *listDirty {
	d := cs.dirty[listID]
	if d == nil {
		from := 0
		if lc := cs.lists[listID]; lc != nil {
			from = lc.Len()
		}
		d = &listDirty{from: from, oids: map[string]struct{}{}}
		cs.dirty[listID] = d
	}
	return d
}

// markAddedLocked notes that a contact is about to be appended to the list.
func (cs *Contacts) markAddedLocked(listID int64) { cs.dirtyLocked(listID) }

// markChangedLocked notes that an existing contact changed.
func (cs *Contacts) markChangedLocked(listID int64, originalID string) {
	d := cs.dirtyLocked(listID)
	if d.all {
		return
	}
	d.oids[originalID] = struct{}{}
	if n := len(d.oids); n > wholeListMin && n > cs.lists[listID].Len()/wholeListShare {
		d.all, d.oids = true, nil
	}
}

// markAllLocked notes that the list is to be saved whole.
func (cs *Contacts) markAllLocked(listID int64) {
	d := cs.dirtyLocked(listID)
	d.all, d.oids = true, nil
}

// MarkAllDirty makes the next save write every list whole (after a
// save that failed).
func (cs *Contacts) MarkAllDirty() {
	cs.st.mu.Lock()
	defer cs.st.mu.Unlock()
	for listID := range cs.lists {
		cs.markAllLocked(listID)
	}
}

// Count is the number of contacts of all lists.
func (cs *Contacts) Count() int {
	cs.st.mu.RLock()
	defer cs.st.mu.RUnlock()
	n := 0
	for _, lc := range cs.lists {
		n += lc.Len()
	}
	return n
}
