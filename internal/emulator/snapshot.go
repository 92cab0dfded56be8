package emulator

import (
	"bytes"
	"encoding/json"
	"fmt"
	"io"
	"maps"
	"slices"
	"strconv"
	"time"
)

// Snapshots: the whole state of an account as one JSON document, so that
// rms-emulator -data-dir can stop and start again where it left off (a
// user's CI applies, restarts the emulator, and plans with no changes).
//
//	{ "format": 1, "customerId": 1000, "savedAt": "2026-11-22T10:00:00Z",
//	  "parts": { "store": { ... }, "<area>": { ... } } }
//
// Each area of the emulator that keeps state contributes one part. The store
// (store.go: generic collections and the id counter; contacts_store.go:
// contacts; triggers.go: sent messages; webhooks live in the generic
// collections) is the "store" part; batches (imports' and statistics
// exports') and the imports of lists are the "batches" and "imports" parts
// (batches_snapshot.go).
//
// # Adding an area's state
//
// An area that keeps state outside the store (batches, imports, ...) adds
// one entry to snapshotParts below: a name, a save function returning a
// JSON-encodable value, and a restore function that reads it back into a
// fresh Server (whose earlier parts are already restored, so it may refer
// to lists and contacts). Restore must check what it reads and return an
// error naming the problem: the file may be damaged or hand-edited. A
// snapshot written before the part existed has no entry for it, and the
// area then simply starts empty; so adding a part needs no new format
// number. If the area changes state other than in a request handler with a
// method other than GET (those are noticed by handle in routes.go), for
// example work that progresses with the clock, it calls s.changed() after
// the change so that the data dir is brought up to date.
//
// What is not kept: webhook deliveries in flight (they are abandoned at
// shutdown, as the service would not replay them to a restarted receiver
// either), export result URLs (short-lived; a client asks for a new one),
// the rows of a running import (batches_snapshot.go), request statistics,
// and the options (pass the same flags again; the customer id is checked).

// snapshotFormat is the version of the snapshot document; a reader refuses
// any other.
const snapshotFormat = 1

// snapshotDoc is the snapshot document.
type snapshotDoc struct {
	Format     int                        `json:"format"`
	CustomerID int64                      `json:"customerId"`
	SavedAt    string                     `json:"savedAt"`
	Parts      map[string]json.RawMessage `json:"parts"`
}

// snapshotPart is one area's share of a snapshot.
type snapshotPart struct {
	name    string
	save    func() (any, error)
	restore func(json.RawMessage) error
}

// snapshotParts lists, in restore order, every area whose state a snapshot
// keeps. Add one line per area (see "Adding an area's state" above).
func (s *Server) snapshotParts() []snapshotPart {
	return []snapshotPart{
		{name: "store", save: s.store.saveSnapshot, restore: s.store.restoreSnapshot},
		// batches_snapshot.go; batches before imports, which refer to them.
		{name: "batches", save: s.saveBatches, restore: s.restoreBatches},
		{name: "imports", save: s.saveImports, restore: s.restoreImports},
	}
}

// WriteSnapshot writes the account's whole state as a JSON snapshot, the
// form -data-dir keeps in its state file. Each part is taken under its own
// lock; a request answered while the snapshot is written may be in it or not.
func (s *Server) WriteSnapshot(w io.Writer) error {
	doc := snapshotDoc{
		Format:     snapshotFormat,
		CustomerID: s.opts.CustomerID,
		SavedAt:    s.now(),
		Parts:      map[string]json.RawMessage{},
	}
	for _, p := range s.snapshotParts() {
		v, err := p.save()
		if err != nil {
			return fmt.Errorf("saving %s: %w", p.name, err)
		}
		raw, err := json.Marshal(v)
		if err != nil {
			return fmt.Errorf("encoding %s: %w", p.name, err)
		}
		doc.Parts[p.name] = raw
	}
	b, err := json.MarshalIndent(doc, "", " ")
	if err != nil {
		return fmt.Errorf("encoding snapshot: %w", err)
	}
	_, err = w.Write(append(b, '\n'))
	return err
}

// restoreSnapshot replaces the state of a new Server with a snapshot's.
func (s *Server) restoreSnapshot(r io.Reader) error {
	var doc snapshotDoc
	dec := json.NewDecoder(r)
	dec.DisallowUnknownFields()
	if err := dec.Decode(&doc); err != nil {
		return fmt.Errorf("not a snapshot of rms-emulator: %w", err)
	}
	if doc.Format != snapshotFormat {
		return fmt.Errorf("snapshot format %d; this rms-emulator reads format %d only", doc.Format, snapshotFormat)
	}
	if doc.CustomerID != s.opts.CustomerID {
		return fmt.Errorf("the snapshot holds account %d, not %d: start with -customer-id %d, or use another data directory", doc.CustomerID, s.opts.CustomerID, doc.CustomerID)
	}
	parts := s.snapshotParts()
	known := map[string]bool{}
	for _, p := range parts {
		known[p.name] = true
	}
	for name := range doc.Parts {
		if !known[name] {
			// Restoring the rest would lose this part at the next save.
			return fmt.Errorf("the snapshot has a part %q this rms-emulator does not know; it was written by a newer version", name)
		}
	}
	for _, p := range parts {
		raw, ok := doc.Parts[p.name]
		if !ok {
			continue // written before the part existed: the area starts empty
		}
		if err := p.restore(raw); err != nil {
			return fmt.Errorf("restoring %s: %w", p.name, err)
		}
	}
	return nil
}

// storeSnapshot is the "store" part. Collections keep their entities in id
// order; contacts are keyed by list id and keep their order of creation,
// with property values keyed by attribute id (so a renamed attribute keeps
// its values, as in the store).
type storeSnapshot struct {
	NextID      int64                      `json:"nextId"`
	Collections map[string][]entity        `json:"collections"`
	Contacts    map[string][]contactRecord `json:"contacts"`
	Messages    []SentMessage              `json:"messages"`
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

func (st *store) saveSnapshot() (any, error) {
	st.mu.RLock()
	defer st.mu.RUnlock()
	snap := storeSnapshot{
		NextID:      st.nextID,
		Collections: make(map[string][]entity, len(st.colls)),
		Contacts:    make(map[string][]contactRecord, len(st.contacts)),
		Messages:    slices.Clone(st.messages),
	}
	for key, c := range st.colls {
		items := make([]entity, 0, len(c.order))
		for _, id := range c.order {
			items = append(items, c.items[id]) // never mutated once stored
		}
		snap.Collections[key] = items
	}
	for listID, lc := range st.contacts {
		recs := make([]contactRecord, 0, len(lc.order))
		for _, oid := range lc.order {
			c := lc.byID[oid]
			props := make(map[string]string, len(c.props))
			for pid, v := range c.props {
				props[strconv.FormatInt(pid, 10)] = v
			}
			recs = append(recs, contactRecord{
				ID: c.id, OriginalID: c.originalID, Properties: props,
				Status: c.status, MobileStatus: c.mobileStatus,
				DateCreated: c.dateCreated, DateModified: c.dateModified,
			})
		}
		snap.Contacts[strconv.FormatInt(listID, 10)] = recs
	}
	if snap.Messages == nil {
		snap.Messages = []SentMessage{}
	}
	return snap, nil
}

// restoreSnapshot replaces the store's content with a snapshot's, after
// checking it: ids positive, ascending and unique, nothing above nextId,
// contacts only in lists that exist, valid statuses.
func (st *store) restoreSnapshot(raw json.RawMessage) error {
	dec := json.NewDecoder(bytes.NewReader(raw))
	dec.UseNumber() // entity values stay json.Number, as request bodies do
	var snap storeSnapshot
	if err := dec.Decode(&snap); err != nil {
		return err
	}
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
	contacts := make(map[int64]*listContacts, len(snap.Contacts))
	for _, key := range slices.Sorted(maps.Keys(snap.Contacts)) {
		listID, err := strconv.ParseInt(key, 10, 64)
		if err != nil {
			return fmt.Errorf("contacts[%q]: not a list id", key)
		}
		if l := colls[listsKey]; l == nil || l.items[listID] == nil {
			return fmt.Errorf("contacts[%q]: no list with id %d", key, listID)
		}
		lc := &listContacts{byID: map[string]*contact{}}
		for i, rec := range snap.Contacts[key] {
			where := fmt.Sprintf("contacts[%q][%d]", key, i)
			if err := claim(rec.ID, where); err != nil {
				return err
			}
			if rec.OriginalID == "" || lc.byID[rec.OriginalID] != nil {
				return fmt.Errorf("%s: originalId %q is empty or repeated", where, rec.OriginalID)
			}
			if (!validStatus(rec.Status) && rec.Status != statusPending) || !validStatus(rec.MobileStatus) {
				return fmt.Errorf("%s: status %q / mobileStatus %q are not SUBSCRIBED or UNSUBSCRIBED", where, rec.Status, rec.MobileStatus)
			}
			props := make(map[int64]string, len(rec.Properties))
			for k, v := range rec.Properties {
				pid, err := strconv.ParseInt(k, 10, 64)
				if err != nil {
					return fmt.Errorf("%s: property key %q is not an attribute id", where, k)
				}
				props[pid] = v // values of deleted attributes stay hidden, as in the store
			}
			lc.order = append(lc.order, rec.OriginalID)
			lc.byID[rec.OriginalID] = &contact{
				id: rec.ID, originalID: rec.OriginalID, props: props,
				status: rec.Status, mobileStatus: rec.MobileStatus,
				dateCreated: rec.DateCreated, dateModified: rec.DateModified,
			}
		}
		contacts[listID] = lc
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

	st.mu.Lock()
	defer st.mu.Unlock()
	st.nextID = snap.NextID
	st.colls = colls
	st.contacts = contacts
	st.messages = snap.Messages
	return nil
}
