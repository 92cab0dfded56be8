package emulator

// The "store" part of a snapshot (snapshot.go): generic collections, the id
// counter, contacts and sent messages.

import (
	"bytes"
	"encoding/json"
	"fmt"
	"maps"
	"slices"
	"strconv"
	"time"
)

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
