package contactsync

// Snapshots hands the listing a refresh made to the plan that
// follows it in the same provider run (terraform plan refreshes and plans
// in one provider process), so that a plan costs one listing and can still
// name the contacts it changes; a file input's listing comes with the book
// it was held against, with the file options it was read with, so the plan
// reads the file no second time. A plan takes the snapshot (it is not kept
// for later); a plan without one (refresh skipped, or the apply's final
// plan, which runs in a new provider process) says so.
//
// Snapshots are kept by list and by input (the replacement key of the
// refreshed state: its file's path or its map's ids), not by list alone:
// resources that share a list read it each for their own input (a listing
// is held against one file, or keeps the properties of one map's
// contacts), so one resource's plan must neither take nor overwrite
// another's. Resources of one list and one input read it the
// same way: they share one snapshot, held once, and counted, so that each
// of their plans finds it and the last one lets it go.
type Snapshots struct {
	lists handoff[snapshotKey, heldSnapshot]
}

// snapshotKey names the snapshot of one input on one list.
type snapshotKey struct{ list, input string }

// heldSnapshot is a snapshot and the number of refreshes that put it and
// whose plans have not taken it yet.
type heldSnapshot struct {
	snap Snapshot
	refs int
}

// Snapshot is one refresh's listing, and for a file input the book it was
// held against and how the file was read.
type Snapshot struct {
	Service *ServiceList
	File    FileOptions
	// RecordedOptOuts are the opt-outs the record held before this
	// refresh noted the listing's (Record.OptedOut as saved): the plan
	// names only the opt-outs kept that no earlier apply recorded.
	RecordedOptOuts map[string][2]bool
	// Moved are the contacts that moved on since the refresh the plan
	// counted from (the final plan's listing only): the apply leaves them
	// as they are.
	Moved Moved
}

// Put keeps a refresh's listing of a list, for the input it was made for,
// for the plan that follows. A later listing of the same list and input
// replaces the one held (the newer reading), and one more plan may take it.
func (s *Snapshots) Put(listID, input string, snap Snapshot) {
	s.lists.Update(snapshotKey{listID, input}, func(h heldSnapshot, _ bool) (heldSnapshot, bool) {
		return heldSnapshot{snap: snap, refs: h.refs + 1}, true
	})
}

// Take hands the listing of a list for an input over, once per Put: the
// last plan to take it lets it go.
func (s *Snapshots) Take(listID, input string) (Snapshot, bool) {
	var snap Snapshot
	var found bool
	s.lists.Update(snapshotKey{listID, input}, func(h heldSnapshot, ok bool) (heldSnapshot, bool) {
		snap, found = h.snap, ok
		h.refs--
		return h, ok && h.refs > 0
	})
	return snap, found
}
