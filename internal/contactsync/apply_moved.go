package contactsync

// An apply does at most what its plan counted. The final plan counts from
// the listing as the plan's refresh saw it (Moved, ServiceList.Rewind);
// the apply decides from the list as it is now and then drops every
// decision about a contact that moved on since: an opt-out made after the
// plan is kept, a sign-up after the plan is not unsubscribed by exclusive,
// a contact another writer changed is not written over. The next plan
// shows what is left to do for them.

// leaveMoved drops from diff what it decides for the contacts that moved
// on since the plan, and names them in the outcome.
func (a *applyRun) leaveMoved(diff Diff) Diff {
	if a.moved.Len() == 0 {
		return diff
	}
	a.out.LeftAsTheyAre = a.moved.IDs()
	return diff.without(a.moved.Has)
}

// without is diff less what it decides for the contacts moved names.
func (d Diff) without(moved func(id string) bool) Diff {
	keep := func(ids []string) []string {
		var out []string
		for _, id := range ids {
			if !moved(id) {
				out = append(out, id)
			}
		}
		return out
	}
	out := Diff{OptedOut: keep(d.OptedOut), Kept: keep(d.Kept), Rejoined: keep(d.Rejoined), Suppressed: keep(d.Suppressed)}
	for c := range d.All() {
		if !moved(c.ID) {
			out.Changes = append(out.Changes, c)
		}
	}
	for id, ch := range d.Resubscribed {
		if !moved(id) {
			out.noteResubscribed(id, ch)
		}
	}
	return out
}
