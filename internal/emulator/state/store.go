package state

import (
	"maps"
	"slices"
	"strconv"
	"strings"
	"sync"

	"github.com/rms-labs/terraform-provider-rms/internal/emulator/apierr"
)

// Entity is one stored object: the JSON object of its last write plus "id"
// (int64), "dateCreated" and "dateModified" (RFC 3339 strings). Stored maps are
// never mutated after they are published (updates store a new map), so a
// shallow copy is safe to encode outside the lock.
type Entity map[string]any

// collection holds the entities of one collection key in id order. Ids only
// grow, so appending keeps order ascending.
type collection struct {
	order []int64
	items map[int64]Entity
}

// Ref names one entity: its collection key and id.
type Ref struct {
	Key string
	ID  int64
}

// NestedKey is the collection key of a nested generic collection, e.g.
// "projects/5/notes"; the parent's own key is a prefix, which is how deleting
// the parent finds its children.
func NestedKey(parent Ref, sub string) string {
	return parent.Key + "/" + strconv.FormatInt(parent.ID, 10) + "/" + sub
}

// Store is the account's data: the generic collections and the account's
// ids itself, and each other domain in a store of its own (Contacts, ...),
// which the handlers reach through its field. One RWMutex guards all of it
// but the batches, so that a snapshot sees every domain at one moment: the
// emulator favours obvious correctness over throughput.
type Store struct {
	// mu is the account's lock, unexported so that only this package's
	// methods take it: each is one read or one update of the account.
	mu     sync.RWMutex
	nextID int64 // last id handed out; one counter for the whole account
	colls  map[string]*collection

	// Messages holds the transactional messages sent (messages.go).
	Messages *Messages
	// Contacts holds the contacts of each list (contacts_store.go).
	Contacts *Contacts
	// Imports holds the imports of lists (imports.go).
	Imports *Imports
	// ResultLinks holds the URLs of export results (export_results.go).
	ResultLinks *ResultLinks
	// Batches holds the batches, with a lock of their own (batches.go).
	Batches *Batches
}

// NewStore returns an empty account: no entities, no contacts, no messages.
func NewStore() *Store {
	st := &Store{colls: make(map[string]*collection)}
	st.Contacts = &Contacts{st: st, lists: make(map[int64]*ListContacts), dirty: map[int64]*listDirty{}}
	st.Messages = &Messages{st: st}
	st.Imports = &Imports{st: st, byID: map[int64]*Import{}}
	st.ResultLinks = &ResultLinks{st: st, links: map[string]ResultLink{}}
	st.Batches = &Batches{st: st, byID: map[int64]*Batch{}, active: map[int64]*Batch{}}
	return st
}

// existsLocked reports whether parent names a stored entity; a zero ref (no
// parent) always exists. The caller holds mu.
func (st *Store) existsLocked(parent *Ref) bool {
	if parent == nil {
		return true
	}
	c := st.colls[parent.Key]
	if c == nil {
		return false
	}
	_, ok := c.items[parent.ID]
	return ok
}

// Create stores body as a new entity of key, stamped with the next id and
// now, if check (which runs with the store locked, so it may look at other
// entities through the *Locked methods) accepts it; check may be nil. It
// reports false, storing nothing, when parent does not exist.
func (st *Store) Create(parent *Ref, key string, body map[string]any, now string, check func(Entity) *apierr.Error) (Entity, bool, *apierr.Error) {
	st.mu.Lock()
	defer st.mu.Unlock()
	if !st.existsLocked(parent) {
		return nil, false, nil
	}
	e := Entity(maps.Clone(body))
	if e == nil {
		e = Entity{}
	}
	if check != nil {
		if err := check(e); err != nil {
			return nil, true, err
		}
	}
	st.nextID++
	e["id"] = st.nextID
	e["dateCreated"] = now
	e["dateModified"] = now
	c := st.colls[key]
	if c == nil {
		c = &collection{items: make(map[int64]Entity)}
		st.colls[key] = c
	}
	c.order = append(c.order, st.nextID)
	c.items[st.nextID] = e
	return maps.Clone(e), true, nil
}

// Get returns a copy of one entity.
func (st *Store) Get(key string, id int64) (Entity, bool) {
	st.mu.RLock()
	defer st.mu.RUnlock()
	c := st.colls[key]
	if c == nil {
		return nil, false
	}
	e, ok := c.items[id]
	return maps.Clone(e), ok
}

// EachLocked calls fn with every entity of key in id order, until fn
// returns false. The caller holds mu; fn must not modify the entity.
func (st *Store) EachLocked(key string, fn func(Entity) bool) {
	c := st.colls[key]
	if c == nil {
		return
	}
	for _, id := range c.order {
		if !fn(c.items[id]) {
			return
		}
	}
}

// hasLocked reports whether the entity exists, for a caller that holds mu.
func (st *Store) hasLocked(key string, id int64) bool {
	c := st.colls[key]
	if c == nil {
		return false
	}
	_, ok := c.items[id]
	return ok
}

// Page returns copies of the entities of key from offset, at most limit of
// them, and the size of the whole collection. parentOK is false when parent
// does not exist.
func (st *Store) Page(parent *Ref, key string, offset, limit int) (items []Entity, total int, parentOK bool) {
	st.mu.RLock()
	defer st.mu.RUnlock()
	if !st.existsLocked(parent) {
		return nil, 0, false
	}
	items = []Entity{} // encodes as [], never null
	c := st.colls[key]
	if c == nil {
		return items, 0, true
	}
	total = len(c.order)
	if offset >= total {
		return items, total, true
	}
	end := min(offset+limit, total)
	for _, id := range c.order[offset:end] {
		items = append(items, maps.Clone(c.items[id]))
	}
	return items, total, true
}

// Update merges patch into the entity (a nil value removes the key), stamps
// dateModified, and stores the result if check (run with the store locked)
// accepts it. found is false
// when the entity does not exist.
func (st *Store) Update(key string, id int64, patch map[string]any, now string, check func(Entity) *apierr.Error) (e Entity, found bool, err *apierr.Error) {
	st.mu.Lock()
	defer st.mu.Unlock()
	c := st.colls[key]
	if c == nil {
		return nil, false, nil
	}
	old, ok := c.items[id]
	if !ok {
		return nil, false, nil
	}
	merged := maps.Clone(old)
	for k, v := range patch {
		if v == nil {
			delete(merged, k)
			continue
		}
		merged[k] = v
	}
	merged["dateModified"] = now
	if err := check(merged); err != nil {
		return nil, true, err
	}
	c.items[id] = merged
	return maps.Clone(merged), true, nil
}

// Delete removes one entity and every nested collection under it; deleting a
// list also removes its contacts.
func (st *Store) Delete(key string, id int64) bool {
	st.mu.Lock()
	defer st.mu.Unlock()
	c := st.colls[key]
	if c == nil {
		return false
	}
	if _, ok := c.items[id]; !ok {
		return false
	}
	delete(c.items, id)
	c.order = slices.DeleteFunc(c.order, func(x int64) bool { return x == id })
	if key == ListsKey {
		delete(st.Contacts.lists, id)
		delete(st.Contacts.dirty, id) // the list's absence is saved with the collections
	}
	prefix := key + "/" + strconv.FormatInt(id, 10) + "/"
	for k := range st.colls {
		if strings.HasPrefix(k, prefix) {
			delete(st.colls, k)
		}
	}
	return true
}

// AllocID hands out the account's next id for an object kept outside the
// generic collections (a batch, an import), so ids stay unique and increasing
// across the whole account.
func (st *Store) AllocID() int64 {
	st.mu.Lock()
	defer st.mu.Unlock()
	st.nextID++
	return st.nextID
}

// LastID is the last id handed out (the snapshot's nextId): ids of areas
// that take theirs from AllocID are at most this.
func (st *Store) LastID() int64 {
	st.mu.RLock()
	defer st.mu.RUnlock()
	return st.nextID
}

// Collection keys the state gives behaviour beyond the generic pattern: a
// list holds contacts, and contact properties name the attributes stored
// under PropertiesKey.
const (
	ListsKey      = "lists"
	PropertiesKey = "properties"
)

// listDirty is one list's changes since the last save.
type listDirty struct {
	all  bool                // save the whole list (new, replaced, or mostly changed)
	from int                 // order[from:] was added since the last save
	oids map[string]struct{} // changed in place
}
