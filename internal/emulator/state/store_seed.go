package state

import (
	"slices"

	"github.com/rms-labs/terraform-provider-rms/internal/emulator/apierr"
)

// Seeder loads a new account (the emulator's fixtures) under the lock that
// Seed holds for the whole load. Fixtures may fix ids, so the loader hands
// ids out itself rather than through the writes of requests.
type Seeder struct{ st *Store }

// Seed runs fn with the account locked for writing. The Seeder is valid
// until fn returns; checks that read the store (its ...Locked methods) may
// run meanwhile on Store.
func (st *Store) Seed(fn func(*Seeder)) {
	st.mu.Lock()
	defer st.mu.Unlock()
	fn(&Seeder{st: st})
}

// Store is the store being seeded, for checks of its ...Locked methods.
func (s *Seeder) Store() *Store { return s.st }

// LastID is the last id handed out.
func (s *Seeder) LastID() int64 { return s.st.nextID }

// NextID hands out the account's next id.
func (s *Seeder) NextID() int64 {
	s.st.nextID++
	return s.st.nextID
}

// ClaimID makes sure no id up to id is handed out again.
func (s *Seeder) ClaimID(id int64) { s.st.nextID = max(s.st.nextID, id) }

// List gives the list id an empty set of contacts, which Contact fills,
// saved whole at the next save.
func (s *Seeder) List(id int64) {
	s.st.Contacts.lists[id] = &ListContacts{}
	s.st.Contacts.markAllLocked(id)
}

// Contact appends a contact made from in to a list of List, with the id
// newID hands out. dup is true, and nothing is stored, when the list already
// has a contact of in's originalId; err is a bad status or property key. by
// is what made it, for its history.
func (s *Seeder) Contact(listID int64, in ContactInput, now string, newID func() int64, by *Cause) (dup bool, err *apierr.Error) {
	st := s.st
	lc := st.Contacts.lists[listID]
	if lc.Get(in.OriginalID) != nil {
		return true, nil
	}
	if err := checkInputStatus(in); err != nil {
		return false, err
	}
	props, err := st.Contacts.resolvePropsLocked(in.Props)
	if err != nil {
		return false, err
	}
	c := newContact(newID(), in.OriginalID, PropSet("").With(props), stampNow(now))
	c.applyStatus(in.Status, in.MobileStatus, now)
	st.Contacts.noteLocked(nil, c, by)
	lc.add(c)
	return false, nil
}

// Put stores e as entity id of key, stamped with now, keeping the
// collection in ascending id order (a fixed id may be smaller than ids
// already handed out). The caller has made sure id is free.
func (s *Seeder) Put(key string, id int64, e Entity, now string) {
	st := s.st
	e["id"] = id
	e["dateCreated"] = now
	e["dateModified"] = now
	c := st.colls[key]
	if c == nil {
		c = &collection{items: make(map[int64]Entity)}
		st.colls[key] = c
	}
	pos, _ := slices.BinarySearch(c.order, id)
	c.order = slices.Insert(c.order, pos, id)
	c.items[id] = e
}
