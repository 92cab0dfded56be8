package contactsync

import "sync"

// Snapshots hands the listing a refresh made to the plan that
// follows it in the same provider run (terraform plan refreshes and plans
// in one provider process), so that a plan costs one listing and can still
// name the contacts it changes; a file input's listing comes with the book
// it was held against, with the file options it was read with, so the plan
// reads the file no second time. A plan takes the snapshot (it is not kept
// for later); a plan without one (refresh skipped, or the apply's final
// plan, which runs in a new provider process) says so.
type Snapshots struct {
	mu    sync.Mutex
	lists map[string]Snapshot
}

// Snapshot is one refresh's listing, and for a file input the book it was
// held against and how the file was read.
type Snapshot struct {
	Service *ServiceList
	File    FileOptions
}

// Put keeps a refresh's listing of a list for the plan that follows.
func (s *Snapshots) Put(listID string, snap Snapshot) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.lists == nil {
		s.lists = map[string]Snapshot{}
	}
	s.lists[listID] = snap
}

// Take hands the listing of a list over, once.
func (s *Snapshots) Take(listID string) (Snapshot, bool) {
	s.mu.Lock()
	defer s.mu.Unlock()
	m, ok := s.lists[listID]
	delete(s.lists, listID)
	return m, ok
}
