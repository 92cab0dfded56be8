package state

import "github.com/rms-labs/terraform-provider-rms/internal/emulator/apierr"

// Seeding: what loading fixtures into a new account needs beyond the
// requests' own writes. Fixtures may fix ids, so the loader hands ids out
// itself; every method here expects the caller to hold the lock for the
// whole load.

// LastIDLocked is the last id handed out.
func (st *Store) LastIDLocked() int64 { return st.nextID }

// NextIDLocked hands out the account's next id.
func (st *Store) NextIDLocked() int64 {
	st.nextID++
	return st.nextID
}

// ClaimIDLocked makes sure no id up to id is handed out again.
func (st *Store) ClaimIDLocked(id int64) { st.nextID = max(st.nextID, id) }

// SeedListLocked gives the list id an empty set of contacts, which
// SeedContactLocked fills, saved whole at the next save.
func (st *Store) SeedListLocked(id int64) {
	st.contacts[id] = &ListContacts{ByID: map[string]*Contact{}}
	st.markAllLocked(id)
}

// SeedContactLocked appends a contact made from in to a list of
// SeedListLocked, with the id newID hands out. dup is true, and nothing is
// stored, when the list already has a contact of in's originalId; err is a
// bad status or property key.
func (st *Store) SeedContactLocked(listID int64, in ContactInput, now string, newID func() int64) (dup bool, err *apierr.Error) {
	lc := st.contacts[listID]
	if _, ok := lc.ByID[in.OriginalID]; ok {
		return true, nil
	}
	if err := checkInputStatus(in); err != nil {
		return false, err
	}
	props, err := st.resolvePropsLocked(in.Props)
	if err != nil {
		return false, err
	}
	stamp := stampOf(now)
	c := &Contact{
		ID: newID(), OriginalID: in.OriginalID, Props: PropSet("").With(props),
		Status: StatusSubscribed, MobileStatus: StatusSubscribed,
		Created: stamp, Modified: stamp,
	}
	c.applyStatus(in.Status, in.MobileStatus, now)
	lc.Order = append(lc.Order, in.OriginalID)
	lc.ByID[in.OriginalID] = c
	return false, nil
}
