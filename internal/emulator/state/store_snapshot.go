package state

// The "store" part of a snapshot (datadir.go): generic collections, the id
// counter, contacts and sent messages. The contacts are never gathered into
// one document: they are written one record at a time from the stored
// (immutable) contacts, and restored one record at a time into a
// Builder, so a list of a million costs no more than the list itself.

import (
	"encoding/json"
	"fmt"
	"maps"
	"math"
	"slices"
	"strconv"
	"time"
	"unicode/utf8"
)

// Snapshot is the "store" part without its contacts:
//
//	{ "nextId": 17, "collections": { "<key>": [entity, ...] },
//	  "contacts": { "<list id>": [ContactRecord, ...] }, "messages": [...] }
//
// Collections keep their entities in id order; contacts are keyed by list id
// and keep their order of creation, with property values keyed by attribute
// id (so a renamed attribute keeps its values, as in the store).
type Snapshot struct {
	NextID      int64               `json:"nextId"`
	Collections map[string][]Entity `json:"collections"`
	Messages    []SentMessage       `json:"messages"`
}

// ListCapture is one list's contacts at the time of a capture, in order.
type ListCapture struct {
	ID       int64
	Contacts []*Contact
}

// CaptureLocked takes the store's content as it is: the small part whole,
// and, when full, the contacts of each list as pointers to the stored
// (never mutated) values, to be written outside the lock. The caller holds
// mu.
func (st *Store) CaptureLocked(full bool) (Snapshot, []ListCapture) {
	snap := Snapshot{
		NextID:      st.nextID,
		Collections: make(map[string][]Entity, len(st.colls)),
		Messages:    slices.Clone(st.Messages.list),
	}
	for key, c := range st.colls {
		items := make([]Entity, 0, len(c.order))
		for _, id := range c.order {
			items = append(items, c.items[id]) // never mutated once stored
		}
		snap.Collections[key] = items
	}
	if snap.Messages == nil {
		snap.Messages = []SentMessage{}
	}
	if !full {
		return snap, nil
	}
	lists := make([]ListCapture, 0, len(st.Contacts.lists))
	for _, listID := range slices.Sorted(maps.Keys(st.Contacts.lists)) {
		lc := st.Contacts.lists[listID]
		// The pointers are copied: a later write replaces a contact in
		// the order in place.
		lists = append(lists, ListCapture{ID: listID, Contacts: slices.Clone(lc.order)})
	}
	return snap, lists
}

// ListDelta is one list's contacts to save: the whole list (reset), or
// those added and changed since the last save.
type ListDelta struct {
	ID       int64
	Reset    bool
	Contacts []*Contact
}

// TakeDeltaLocked returns the changes since the last save and starts
// anew. The caller holds mu for writing.
func (st *Store) TakeDeltaLocked() []ListDelta {
	var out []ListDelta
	for _, listID := range slices.Sorted(maps.Keys(st.Contacts.dirty)) {
		d, lc := st.Contacts.dirty[listID], st.Contacts.lists[listID]
		if lc == nil {
			continue
		}
		if d.all {
			out = append(out, ListDelta{ID: listID, Reset: true, Contacts: slices.Clone(lc.order)})
			continue
		}
		// Added ones first, in order, so a replay appends them in order;
		// then the changed ones, which a replay finds in place.
		var cs []*Contact
		cs = append(cs, lc.order[min(d.from, lc.Len()):]...)
		for _, oid := range slices.Sorted(maps.Keys(d.oids)) {
			if c := lc.Get(oid); c != nil {
				cs = append(cs, c)
			}
		}
		out = append(out, ListDelta{ID: listID, Contacts: cs})
	}
	st.Contacts.dirty = map[int64]*listDirty{}
	return out
}

// AppendContactRecord appends c as a ContactRecord in JSON. It is written
// by hand: encoding/json would build a map per contact.
func AppendContactRecord(b []byte, c *Contact) []byte {
	b = append(b, `{"id":`...)
	b = strconv.AppendInt(b, c.ID, 10)
	b = append(b, `,"originalId":`...)
	b = AppendJSONString(b, c.OriginalID)
	b = append(b, `,"properties":{`...)
	first := true
	c.Props.each(func(id int64, v string) bool {
		if !first {
			b = append(b, ',')
		}
		first = false
		b = append(b, '"')
		b = strconv.AppendInt(b, id, 10)
		b = append(b, `":`...)
		b = AppendJSONString(b, v)
		return true
	})
	b = append(b, `},"status":`...)
	b = AppendJSONString(b, c.Status())
	b = append(b, `,"mobileStatus":`...)
	b = AppendJSONString(b, c.MobileStatus())
	b = append(b, `,"dateCreated":"`...)
	b = append(b, c.DateCreated()...)
	b = append(b, `","dateModified":"`...)
	b = append(b, c.DateModified()...)
	return append(b, `"}`...)
}

// AppendJSONString appends s as a JSON string: plain printable ASCII as is,
// anything else through encoding/json, which escapes it correctly.
func AppendJSONString(b []byte, s string) []byte {
	for i := 0; i < len(s); i++ {
		if c := s[i]; c < 0x20 || c == '"' || c == '\\' || c >= utf8.RuneSelf {
			q, _ := json.Marshal(s) // a string always encodes
			return append(b, q...)
		}
	}
	b = append(b, '"')
	b = append(b, s...)
	return append(b, '"')
}

// Builder collects a store's content as a restore reads it (the
// snapshot's part, then the journal's records, datadir.go and journal.go),
// checking each contact as it comes, and the whole when finished.
type Builder struct {
	Snap     Snapshot
	HasSmall bool // the part's nextId, collections or messages were read
	Contacts map[int64]*ListContacts
	keys     map[int64]string // list id -> the key it was read under, for messages
	// journalFrom is, per list, the position of its first contact read
	// from the journal: from there an originalId may come again.
	journalFrom map[int64]int

	stamps    [4]stampCache
	nextStamp int
	Recent    recentStrings // of the records read (store_records.go)
}

// NewBuilder returns a builder of an empty store, to be filled from a
// snapshot and a journal.
func NewBuilder() *Builder {
	return &Builder{Contacts: map[int64]*ListContacts{}, keys: map[int64]string{}, journalFrom: map[int64]int{}}
}

// List returns the contacts read so far for key, creating them.
func (b *Builder) List(key string) (*ListContacts, error) {
	listID, err := strconv.ParseInt(key, 10, 64)
	if err != nil {
		return nil, fmt.Errorf("contacts[%q]: not a list id", key)
	}
	lc := b.Contacts[listID]
	if lc == nil {
		lc = &ListContacts{}
		b.Contacts[listID] = lc
		b.keys[listID] = key
	}
	return lc, nil
}

// contactOf checks one record and makes it a stored contact.
func (b *Builder) contactOf(f *RecordFields, where func() string) (*Contact, error) {
	if f.originalID == "" {
		return nil, fmt.Errorf("%s: originalId %q is empty or repeated", where(), f.originalID)
	}
	if (!ValidStatus(f.status) && f.status != StatusPending) || !ValidStatus(f.mobileStatus) {
		return nil, fmt.Errorf("%s: status %q / mobileStatus %q are not SUBSCRIBED or UNSUBSCRIBED", where(), f.status, f.mobileStatus)
	}
	created, ok1 := b.stamp(f.dateCreated)
	modified, ok2 := b.stamp(f.dateModified)
	if !ok1 || !ok2 || !stampFits(created) || !stampFits(modified) {
		return nil, fmt.Errorf("%s: dateCreated %q / dateModified %q are not times in UTC from 1970 to 2106 such as 2026-01-02T15:04:05Z", where(), f.dateCreated, f.dateModified)
	}
	if f.hasBadKey {
		return nil, fmt.Errorf("%s: property key %q is not an attribute id", where(), f.badPropKey)
	}
	// Values of deleted attributes stay, hidden, as in the store.
	props := packPairs(f.props)
	return &Contact{
		ID: f.id, OriginalID: props.share(f.originalID), Props: props,
		status: codeOf(f.status), mobile: codeOf(f.mobileStatus),
		created: stamp(created), modified: stamp(modified),
	}, nil
}

// stamp is parseStamp with a memory of the last few answers: contacts
// made together (an import) share their timestamps.
func (b *Builder) stamp(s string) (int64, bool) {
	for _, c := range b.stamps {
		if c.s == s && s != "" {
			return c.sec, true
		}
	}
	sec, ok := parseStamp(s)
	if ok {
		b.stamps[b.nextStamp] = stampCache{s, sec}
		b.nextStamp = (b.nextStamp + 1) % len(b.stamps)
	}
	return sec, ok
}

// stampCache is one remembered timestamp.
type stampCache struct {
	s   string
	sec int64
}

// AppendContact adds a snapshot's record i of list key: an originalId
// appears once.
func (b *Builder) AppendContact(key string, i int, f *RecordFields) error {
	where := func() string { return fmt.Sprintf("contacts[%q][%d]", key, i) }
	lc, err := b.List(key)
	if err != nil {
		return err
	}
	c, err := b.contactOf(f, where)
	if err != nil {
		return err
	}
	lc.restored(c)
	return nil
}

// PutContact stores a journal's record: it replaces the contact with its
// originalId, keeping its place, or is added at the end. It is appended
// here and merged when the tables are built (ListContacts.buildTables).
func (b *Builder) PutContact(listID int64, f *RecordFields, where func() string) error {
	lc, err := b.List(strconv.FormatInt(listID, 10))
	if err != nil {
		return err
	}
	c, err := b.contactOf(f, where)
	if err != nil {
		return err
	}
	if _, ok := b.journalFrom[listID]; !ok {
		b.journalFrom[listID] = len(lc.order)
	}
	lc.restored(c)
	return nil
}

// buildTables makes the tables of a list a snapshot and a journal filled,
// if it has not yet: an originalId may appear once in the snapshot.
func (b *Builder) buildTables(listID int64, lc *ListContacts) error {
	if !lc.loose {
		return nil
	}
	from, ok := b.journalFrom[listID]
	if !ok {
		from = len(lc.order)
	}
	if i := lc.buildTables(from); i >= 0 {
		return fmt.Errorf("contacts[%q][%d]: originalId %q is empty or repeated", b.keys[listID], i, lc.order[i].OriginalID)
	}
	return nil
}

// ResetList empties a list's contacts (a journal record that holds the
// whole list follows).
func (b *Builder) ResetList(listID int64) {
	b.Contacts[listID] = &ListContacts{}
	b.keys[listID] = strconv.FormatInt(listID, 10)
	b.journalFrom[listID] = 0
}

// SetSmall takes a (journal's) whole small part; the contacts of lists it
// no longer has were deleted with their list.
func (b *Builder) SetSmall(snap Snapshot) {
	b.Snap, b.HasSmall = snap, true
	lists := map[int64]bool{}
	for _, e := range snap.Collections[ListsKey] {
		if id, ok := IDOf(e["id"]); ok {
			lists[id] = true
		}
	}
	for id := range b.Contacts {
		if !lists[id] {
			delete(b.Contacts, id)
			delete(b.keys, id)
			delete(b.journalFrom, id)
		}
	}
}

// Finish checks the whole (ids positive, unique and at most nextId,
// contacts only in lists that exist, entities with their timestamps) and
// replaces the store's content with it.
func (b *Builder) Finish(st *Store) error {
	for _, listID := range slices.Sorted(maps.Keys(b.Contacts)) {
		if err := b.buildTables(listID, b.Contacts[listID]); err != nil {
			return err
		}
	}
	snap := b.Snap
	colls := make(map[string]*collection, len(snap.Collections))
	seen := map[int64]string{}
	claim := func(id int64, where string) error {
		if id <= 0 || id > snap.NextID {
			return fmt.Errorf("%s: id %d is outside 1..nextId (%d)", where, id, snap.NextID)
		}
		if other, dup := seen[id]; dup {
			return fmt.Errorf("%s: id %d is also the id of %s", where, id, other)
		}
		seen[id] = where
		return nil
	}
	for _, key := range slices.Sorted(maps.Keys(snap.Collections)) {
		c := &collection{items: map[int64]Entity{}}
		for i, e := range snap.Collections[key] {
			where := fmt.Sprintf("collections[%q][%d]", key, i)
			if e == nil {
				return fmt.Errorf("%s: null entity", where)
			}
			id, ok := IDOf(e["id"])
			if !ok {
				return fmt.Errorf("%s: id %v is not a positive integer", where, e["id"])
			}
			if err := claim(id, where); err != nil {
				return err
			}
			if n := len(c.order); n > 0 && c.order[n-1] >= id {
				return fmt.Errorf("%s: ids are not in ascending order", where)
			}
			for _, k := range []string{"dateCreated", "dateModified"} {
				if _, ok := e[k].(string); !ok {
					return fmt.Errorf("%s: %s is missing", where, k)
				}
			}
			e["id"] = id
			c.order = append(c.order, id)
			c.items[id] = e
		}
		colls[key] = c
	}
	for i, m := range snap.Messages {
		if err := claim(m.ID, fmt.Sprintf("messages[%d]", i)); err != nil {
			return err
		}
		if m.SentAt.IsZero() {
			return fmt.Errorf("messages[%d]: sentAt is missing", i)
		}
		snap.Messages[i].SentAt = m.SentAt.UTC().Truncate(time.Second)
	}
	if err := b.checkContactIDs(colls, seen, snap.NextID); err != nil {
		return err
	}
	st.mu.Lock()
	defer st.mu.Unlock()
	st.nextID = snap.NextID
	st.colls = colls
	st.Contacts.lists = b.Contacts
	st.Messages.list = snap.Messages
	st.Contacts.dirty = map[int64]*listDirty{}
	return nil
}

// checkContactIDs checks the contacts' lists and ids. A million contacts'
// ids are checked by sorting them, not through a map of where each was
// found; only a duplicate is looked for again, to name both places.
func (b *Builder) checkContactIDs(colls map[string]*collection, seen map[int64]string, nextID int64) error {
	n := 0
	for _, lc := range b.Contacts {
		n += len(lc.order)
	}
	ids := make([]int64, 0, n)
	for _, listID := range slices.Sorted(maps.Keys(b.Contacts)) {
		key := b.keys[listID]
		if l := colls[ListsKey]; l == nil || l.items[listID] == nil {
			return fmt.Errorf("contacts[%q]: no list with id %d", key, listID)
		}
		lc := b.Contacts[listID]
		for i, c := range lc.order {
			id := c.ID
			where := func() string { return fmt.Sprintf("contacts[%q][%d]", key, i) }
			if id <= 0 || id > nextID {
				return fmt.Errorf("%s: id %d is outside 1..nextId (%d)", where(), id, nextID)
			}
			if other, dup := seen[id]; dup {
				return fmt.Errorf("%s: id %d is also the id of %s", where(), id, other)
			}
			ids = append(ids, id)
		}
	}
	// Contacts made one after another (an import) come in ascending
	// order already: the sort is for the others.
	if !ascending(ids) {
		slices.Sort(ids)
	}
	for i := 1; i < len(ids); i++ {
		if ids[i] == ids[i-1] {
			return fmt.Errorf("contacts: id %d is the id of %s", ids[i], b.contactsWithID(ids[i]))
		}
	}
	return nil
}

// ascending reports whether ids are in strictly ascending order.
func ascending(ids []int64) bool {
	for i := 1; i < len(ids); i++ {
		if ids[i] <= ids[i-1] {
			return false
		}
	}
	return true
}

// contactsWithID names the places of the contacts with id.
func (b *Builder) contactsWithID(id int64) string {
	var places []string
	for _, listID := range slices.Sorted(maps.Keys(b.Contacts)) {
		lc := b.Contacts[listID]
		for i, c := range lc.order {
			if c.ID == id {
				places = append(places, fmt.Sprintf("contacts[%q][%d]", b.keys[listID], i))
			}
		}
	}
	return fmt.Sprintf("%d contacts: %v", len(places), places)
}

// IDOf reads an id given as a JSON number (or a Go integer).
func IDOf(v any) (int64, bool) {
	var id int64
	switch n := v.(type) {
	case json.Number:
		i, err := strconv.ParseInt(string(n), 10, 64)
		if err != nil {
			return 0, false
		}
		id = i
	case int:
		id = int64(n)
	case int64:
		id = n
	case float64:
		if n != math.Trunc(n) || n > math.MaxInt64/2 {
			return 0, false
		}
		id = int64(n)
	default:
		return 0, false
	}
	return id, id > 0
}
