package contactsync

import "sync"

// Snapshots hands the listing a refresh made to the plan that
// follows it in the same provider run (terraform plan refreshes and plans
// in one provider process), so that a plan costs one listing and can still
// name the contacts it changes. A plan takes the snapshot (it is not kept
// for later); a plan without one (refresh skipped, or the apply's final
// plan, which runs in a new provider process) says so.
type Snapshots struct {
	mu    sync.Mutex
	lists map[string]map[string]ServiceContact
}

// Put keeps the service's contacts a refresh listed, for the plan of the
// same list.
func (s *Snapshots) Put(listID string, service map[string]ServiceContact) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.lists == nil {
		s.lists = map[string]map[string]ServiceContact{}
	}
	s.lists[listID] = service
}

// Take hands the listing of the list over, once: a second Take finds none.
func (s *Snapshots) Take(listID string) (map[string]ServiceContact, bool) {
	s.mu.Lock()
	defer s.mu.Unlock()
	m, ok := s.lists[listID]
	delete(s.lists, listID)
	return m, ok
}
