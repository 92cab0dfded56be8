package contactsync

import (
	"sort"
	"sync"
)

// Managers are the contact resources (rms_list_contacts, rms_contact)
// the plans of this run met, per list. exclusive = true means a resource
// owns its list: it unsubscribes every contact its input does not name, so
// a second resource of the configuration on the same list would have its
// contacts unsubscribed. Terraform plans resources
// concurrently, so each plan registers its resource before it checks: of
// two resources on a list, whichever plans second sees the first.
type Managers struct {
	mu    sync.Mutex
	lists map[string]*listManagers
}

// Manager is one contact resource of the configuration on a list, as its
// plan describes it.
type Manager struct {
	// Name names the resource in messages, by its type and input (the
	// provider is not told resource addresses); a resource planned twice
	// in a run (the two plans of a replacement) registers once.
	Name      string
	Exclusive bool
	// Keep is keep_ids of an exclusive resource: the contacts it never
	// unsubscribes; nil when not set. KeepUnknown: set, known only at
	// apply (the apply's plan checks again).
	Keep        map[string]bool
	KeepUnknown bool
	// IDs are the contacts the resource manages, when its plan knows them
	// without reading a file (a map's keys, an rms_contact's id); nil
	// otherwise.
	IDs []string
}

// NewManagers returns the empty registry of one provider run.
func NewManagers() *Managers { return &Managers{lists: map[string]*listManagers{}} }

// Register adds m to the managers of list listID (replacing one of the same
// name) and returns the conflicts m takes part in there (Conflicts). A list
// without an exclusive manager has none, and costs no more than the
// registration: a list may have thousands of rms_contact.
func (r *Managers) Register(listID string, m Manager) []ManagerConflict {
	if r == nil { // a run made without it (unit tests)
		return nil
	}
	r.mu.Lock()
	defer r.mu.Unlock()
	l := r.lists[listID]
	if l == nil {
		l = &listManagers{byName: map[string]Manager{}, exclusive: map[string]bool{}}
		r.lists[listID] = l
	}
	l.byName[m.Name] = m
	delete(l.exclusive, m.Name)
	if m.Exclusive {
		l.exclusive[m.Name] = true
	}
	if len(l.exclusive) == 0 {
		return nil
	}
	all := make([]Manager, 0, len(l.byName))
	for _, m := range l.byName {
		all = append(all, m)
	}
	sort.Slice(all, func(i, j int) bool { return all[i].Name < all[j].Name })
	return Conflicts(all, m.Name)
}

// listManagers are the managers of one list, by name, and the names of
// the exclusive ones.
type listManagers struct {
	byName    map[string]Manager
	exclusive map[string]bool
}

// ManagerConflict is an exclusive resource and another one on its list
// that it would unsubscribe contacts of: Unkept are the other's contacts
// keep_ids does not name (nil when the other's contacts are not known, or
// the other is exclusive too).
type ManagerConflict struct {
	Owner, Other Manager
	Unkept       []string
}

// Conflicts are the conflicts among the managers of one list (sorted by
// name) that the resource named me takes part in, in a stable
// order, so that whichever of two resources reports one reports the same.
// An exclusive resource and another one coexist only where keep_ids of the
// exclusive one names every contact of the other (or the other's contacts
// are known only by reading its file, or keep_ids only at apply): an
// explicit reference, as the provider cannot see which contacts another
// resource will write.
func Conflicts(all []Manager, me string) []ManagerConflict {
	var out []ManagerConflict
	for i, owner := range all {
		if !owner.Exclusive {
			continue
		}
		for j, other := range all {
			if i == j || (other.Exclusive && j < i) || (owner.Name != me && other.Name != me) {
				continue // two exclusive resources are one conflict, named once
			}
			if other.Exclusive {
				out = append(out, ManagerConflict{Owner: owner, Other: other})
				continue
			}
			if owner.KeepUnknown || (owner.Keep != nil && other.IDs == nil) {
				continue
			}
			var unkept []string
			for _, id := range other.IDs {
				if !owner.Keep[id] {
					unkept = append(unkept, id)
				}
			}
			if len(unkept) > 0 || other.IDs == nil {
				sort.Strings(unkept)
				out = append(out, ManagerConflict{Owner: owner, Other: other, Unkept: unkept})
			}
		}
	}
	return out
}
