package emulator

// The "store" part of a snapshot (snapshot.go): generic collections, the id
// counter, contacts and sent messages. The contacts are never gathered into
// one document: they are written one record at a time from the stored
// (immutable) contacts, and restored one record at a time into a
// storeBuilder, so a list of a million costs no more than the list itself.

import (
	"encoding/json"
	"fmt"
	"maps"
	"slices"
	"strconv"
	"time"
	"unicode/utf8"
)

// storeSnapshot is the "store" part without its contacts:
//
//	{ "nextId": 17, "collections": { "<key>": [entity, ...] },
//	  "contacts": { "<list id>": [contactRecord, ...] }, "messages": [...] }
//
// Collections keep their entities in id order; contacts are keyed by list id
// and keep their order of creation, with property values keyed by attribute
// id (so a renamed attribute keeps its values, as in the store).
type storeSnapshot struct {
	NextID      int64               `json:"nextId"`
	Collections map[string][]entity `json:"collections"`
	Messages    []SentMessage       `json:"messages"`
}

type contactRecord struct {
	ID           int64             `json:"id"`
	OriginalID   string            `json:"originalId"`
	Properties   map[string]string `json:"properties"` // by attribute id
	Status       string            `json:"status"`
	MobileStatus string            `json:"mobileStatus"`
	DateCreated  string            `json:"dateCreated"`
	DateModified string            `json:"dateModified"`
}

// listCapture is one list's contacts at the time of a capture, in order.
type listCapture struct {
	id       int64
	contacts []*contact
}

// captureLocked takes the store's content as it is: the small part whole,
// and, when full, the contacts of each list as pointers to the stored
// (never mutated) values, to be written outside the lock. The caller holds
// mu.
func (st *store) captureLocked(full bool) (storeSnapshot, []listCapture) {
	snap := storeSnapshot{
		NextID:      st.nextID,
		Collections: make(map[string][]entity, len(st.colls)),
		Messages:    slices.Clone(st.messages),
	}
	for key, c := range st.colls {
		items := make([]entity, 0, len(c.order))
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
	lists := make([]listCapture, 0, len(st.contacts))
	for _, listID := range slices.Sorted(maps.Keys(st.contacts)) {
		lc := st.contacts[listID]
		cs := make([]*contact, len(lc.order))
		for i, oid := range lc.order {
			cs[i] = lc.byID[oid]
		}
		lists = append(lists, listCapture{id: listID, contacts: cs})
	}
	return snap, lists
}

// listDelta is one list's contacts to save: the whole list (reset), or
// those added and changed since the last save.
type listDelta struct {
	id       int64
	reset    bool
	contacts []*contact
}

// takeDeltaLocked returns the changes since the last save and starts
// anew. The caller holds mu for writing.
func (st *store) takeDeltaLocked() []listDelta {
	var out []listDelta
	for _, listID := range slices.Sorted(maps.Keys(st.dirty)) {
		d, lc := st.dirty[listID], st.contacts[listID]
		if lc == nil {
			continue
		}
		if d.all {
			cs := make([]*contact, len(lc.order))
			for i, oid := range lc.order {
				cs[i] = lc.byID[oid]
			}
			out = append(out, listDelta{id: listID, reset: true, contacts: cs})
			continue
		}
		// Added ones first, in order, so a replay appends them in order;
		// then the changed ones, which a replay finds in place.
		var cs []*contact
		for _, oid := range lc.order[min(d.from, len(lc.order)):] {
			cs = append(cs, lc.byID[oid])
		}
		for _, oid := range slices.Sorted(maps.Keys(d.oids)) {
			if c := lc.byID[oid]; c != nil {
				cs = append(cs, c)
			}
		}
		out = append(out, listDelta{id: listID, contacts: cs})
	}
	st.dirty = map[int64]*listDirty{}
	return out
}

// appendContactRecord appends c as a contactRecord in JSON. It is written
// by hand: encoding/json would build a map per contact.
func appendContactRecord(b []byte, c *contact) []byte {
	b = append(b, `{"id":`...)
	b = strconv.AppendInt(b, c.id, 10)
	b = append(b, `,"originalId":`...)
	b = appendJSONString(b, c.originalID)
	b = append(b, `,"properties":{`...)
	first := true
	c.props.each(func(id int64, v string) bool {
		if !first {
			b = append(b, ',')
		}
		first = false
		b = append(b, '"')
		b = strconv.AppendInt(b, id, 10)
		b = append(b, `":`...)
		b = appendJSONString(b, v)
		return true
	})
	b = append(b, `},"status":`...)
	b = appendJSONString(b, c.status)
	b = append(b, `,"mobileStatus":`...)
	b = appendJSONString(b, c.mobileStatus)
	b = append(b, `,"dateCreated":"`...)
	b = append(b, c.dateCreated()...)
	b = append(b, `","dateModified":"`...)
	b = append(b, c.dateModified()...)
	return append(b, `"}`...)
}

// appendJSONString appends s as a JSON string: plain printable ASCII as is,
// anything else through encoding/json, which escapes it correctly.
func appendJSONString(b []byte, s string) []byte {
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

// storeBuilder collects a store's content as a restore reads it (the
// snapshot's part, then the journal's records, snapshot.go and journal.go),
// checking each contact as it comes, and the whole when finished.
type storeBuilder struct {
	snap     storeSnapshot
	hasSmall bool // the part's nextId, collections or messages were read
	contacts map[int64]*listContacts
	keys     map[int64]string // list id -> the key it was read under, for messages

	stamps    [4]stampCache
	nextStamp int
	recent    recentStrings // of the records read (store_records.go)
}

func newStoreBuilder() *storeBuilder {
	return &storeBuilder{contacts: map[int64]*listContacts{}, keys: map[int64]string{}}
}

// list returns the contacts read so far for key, creating them.
func (b *storeBuilder) list(key string) (*listContacts, error) {
	listID, err := strconv.ParseInt(key, 10, 64)
	if err != nil {
		return nil, fmt.Errorf("contacts[%q]: not a list id", key)
	}
	lc := b.contacts[listID]
	if lc == nil {
		lc = &listContacts{byID: map[string]*contact{}}
		b.contacts[listID] = lc
		b.keys[listID] = key
	}
	return lc, nil
}

// contactOf checks one record and makes it a stored contact.
func (b *storeBuilder) contactOf(f *recordFields, where func() string) (*contact, error) {
	if f.originalID == "" {
		return nil, fmt.Errorf("%s: originalId %q is empty or repeated", where(), f.originalID)
	}
	if (!validStatus(f.status) && f.status != statusPending) || !validStatus(f.mobileStatus) {
		return nil, fmt.Errorf("%s: status %q / mobileStatus %q are not SUBSCRIBED or UNSUBSCRIBED", where(), f.status, f.mobileStatus)
	}
	created, ok1 := b.stamp(f.dateCreated)
	modified, ok2 := b.stamp(f.dateModified)
	if !ok1 || !ok2 {
		return nil, fmt.Errorf("%s: dateCreated %q / dateModified %q are not times in UTC such as 2026-01-02T15:04:05Z", where(), f.dateCreated, f.dateModified)
	}
	if f.hasBadKey {
		return nil, fmt.Errorf("%s: property key %q is not an attribute id", where(), f.badPropKey)
	}
	// Values of deleted attributes stay, hidden, as in the store.
	return &contact{
		id: f.id, originalID: f.originalID, props: packPairs(f.props),
		status: internStatus(f.status), mobileStatus: internStatus(f.mobileStatus),
		created: created, modified: modified,
	}, nil
}

// stamp is parseStamp with a memory of the last few answers: contacts
// made together (an import) share their timestamps.
func (b *storeBuilder) stamp(s string) (int64, bool) {
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

// internStatus returns the constant for a known status, so that a million
// restored contacts do not each keep a copy of "SUBSCRIBED".
func internStatus(s string) string {
	for _, k := range []string{statusSubscribed, statusUnsubscribed, statusPending} {
		if s == k {
			return k
		}
	}
	return s
}

// appendContact adds a snapshot's record i of list key: an originalId
// appears once.
func (b *storeBuilder) appendContact(key string, i int, f *recordFields) error {
	where := func() string { return fmt.Sprintf("contacts[%q][%d]", key, i) }
	lc, err := b.list(key)
	if err != nil {
		return err
	}
	c, err := b.contactOf(f, where)
	if err != nil {
		return err
	}
	// One hash of the originalId, not two: a repeat leaves the map's size.
	n := len(lc.byID)
	lc.byID[c.originalID] = c
	if len(lc.byID) == n {
		return fmt.Errorf("%s: originalId %q is empty or repeated", where(), f.originalID)
	}
	lc.order = append(lc.order, c.originalID)
	return nil
}

// putContact stores a journal's record: it replaces the contact with its
// originalId, keeping its place, or is added at the end.
func (b *storeBuilder) putContact(listID int64, f *recordFields, where func() string) error {
	lc, err := b.list(strconv.FormatInt(listID, 10))
	if err != nil {
		return err
	}
	c, err := b.contactOf(f, where)
	if err != nil {
		return err
	}
	if lc.byID[c.originalID] == nil {
		lc.order = append(lc.order, c.originalID)
	}
	lc.byID[c.originalID] = c
	return nil
}

// resetList empties a list's contacts (a journal record that holds the
// whole list follows).
func (b *storeBuilder) resetList(listID int64) {
	b.contacts[listID] = &listContacts{byID: map[string]*contact{}}
	b.keys[listID] = strconv.FormatInt(listID, 10)
}

// setSmall takes a (journal's) whole small part; the contacts of lists it
// no longer has were deleted with their list.
func (b *storeBuilder) setSmall(snap storeSnapshot) {
	b.snap, b.hasSmall = snap, true
	lists := map[int64]bool{}
	for _, e := range snap.Collections[listsKey] {
		if id, ok := fixtureID(e["id"]); ok {
			lists[id] = true
		}
	}
	for id := range b.contacts {
		if !lists[id] {
			delete(b.contacts, id)
			delete(b.keys, id)
		}
	}
}

// finish checks the whole (ids positive, unique and at most nextId,
// contacts only in lists that exist, entities with their timestamps) and
// replaces the store's content with it.
func (b *storeBuilder) finish(st *store) error {
	snap := b.snap
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
		c := &collection{items: map[int64]entity{}}
		for i, e := range snap.Collections[key] {
			where := fmt.Sprintf("collections[%q][%d]", key, i)
			if e == nil {
				return fmt.Errorf("%s: null entity", where)
			}
			id, ok := fixtureID(e["id"])
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
	st.contacts = b.contacts
	st.messages = snap.Messages
	st.dirty = map[int64]*listDirty{}
	return nil
}

// checkContactIDs checks the contacts' lists and ids. A million contacts'
// ids are checked by sorting them, not through a map of where each was
// found; only a duplicate is looked for again, to name both places.
func (b *storeBuilder) checkContactIDs(colls map[string]*collection, seen map[int64]string, nextID int64) error {
	var ids []int64
	for _, listID := range slices.Sorted(maps.Keys(b.contacts)) {
		key := b.keys[listID]
		if l := colls[listsKey]; l == nil || l.items[listID] == nil {
			return fmt.Errorf("contacts[%q]: no list with id %d", key, listID)
		}
		lc := b.contacts[listID]
		for i, oid := range lc.order {
			id := lc.byID[oid].id
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
	slices.Sort(ids)
	for i := 1; i < len(ids); i++ {
		if ids[i] == ids[i-1] {
			return fmt.Errorf("contacts: id %d is the id of %s", ids[i], b.contactsWithID(ids[i]))
		}
	}
	return nil
}

// contactsWithID names the places of the contacts with id.
func (b *storeBuilder) contactsWithID(id int64) string {
	var places []string
	for _, listID := range slices.Sorted(maps.Keys(b.contacts)) {
		lc := b.contacts[listID]
		for i, oid := range lc.order {
			if lc.byID[oid].id == id {
				places = append(places, fmt.Sprintf("contacts[%q][%d]", b.keys[listID], i))
			}
		}
	}
	return fmt.Sprintf("%d contacts: %v", len(places), places)
}
