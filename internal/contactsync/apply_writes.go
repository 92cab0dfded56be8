package contactsync

import (
	"context"
	"io"
	"maps"
)

// importBatches writes, above the batch threshold, what import batches
// can, and answers with the diff left for single calls. Where every batch
// reported all its rows done and no contact it created needs its status
// checked, the rest is what the imports were not asked to do; otherwise
// what the imports did is read back, not assumed.
func (a *applyRun) importBatches(ctx context.Context, diff Diff) (Diff, bool) {
	if int64(diff.Len()) <= a.in.BatchThreshold {
		return diff, true
	}
	rows, unsubscribe := ImportPlan(diff.All())
	confirmed := true
	run := func(action string, write func(io.Writer) error) bool {
		ok, err := a.port.Import(ctx, action, write, a.started(ctx))
		if err != nil {
			a.end(ApplyCutShort, err)
			return false
		}
		confirmed = confirmed && ok
		return true
	}
	if rows > 0 && !run("ADD", func(w io.Writer) error { return WriteAddImport(w, diff.All()) }) {
		return Diff{}, false
	}
	if len(unsubscribe) > 0 && !run("UNSUBSCRIBE", func(w io.Writer) error { return WriteUnsubscribeImport(w, unsubscribe) }) {
		return Diff{}, false
	}
	a.out.Pending = nil
	left, needRead := AfterImports(diff.All())
	if !needRead && confirmed {
		return diff.withChanges(left), true
	}
	service, err := a.port.ReadBack(ctx, a.desired)
	if err != nil {
		a.end(ApplyCutShort, err)
		return Diff{}, false
	}
	a.service = service
	a.opts.Fresh = CreatedBy(diff.All())
	return Compare(a.desired, a.service, a.opts), true
}

// finish notes a create's takeover for a deposed destroy of the run and
// rebuilds the record: what this apply wanted, except for contacts whose
// write failed, which keep what was recorded before, and their pending
// unsubscriptions (a failed write may have acted).
func (a *applyRun) finish(diff Diff, failed map[string]bool) {
	settled := a.out.Record
	a.out.Settled = settled
	if a.in.Creating && a.in.Provenance != nil {
		a.in.Provenance.Create(a.in.ListID, HeldBack(a.desired, a.service, settled))
	}
	next := Record{File: a.in.File, Released: maps.Clone(settled.Released)}
	next.NoteApplied(a.desired)
	for id := range failed {
		keepFailed(&next, settled, id)
	}
	if len(failed) > 0 {
		// The opt-outs a replaced list carried stay until every contact
		// is written: a contact whose create failed is added by the next
		// apply, and must start unsubscribed there too.
		next.OptOuts = settled.OptOuts
	}
	a.in.Rules.Remember(&next, settled, diff, failed)
	a.out.Record = next
	if len(failed) > 0 {
		a.end(ApplyStopped, nil)
	}
}

// keepFailed gives a contact whose write failed in next what settled
// recorded of it.
func keepFailed(next *Record, settled Record, id string) {
	if st, ok := settled.Contacts[id]; ok {
		next.Contacts[id] = st
	} else {
		delete(next.Contacts, id)
	}
	if before, ok := settled.Released[id]; ok {
		next.Released[id] = before
	}
	if p, ok := settled.Pending[id]; ok {
		if next.Pending == nil {
			next.Pending = map[string][2]string{}
		}
		next.Pending[id] = p
	}
}

// end ends the apply.
func (a *applyRun) end(e ApplyEnd, err error) { a.out.End, a.out.Err = e, err }

// takeReleased records, as released by Terraform, the contacts this run's
// destroy of the list unsubscribed (a replacement whose destroy half could
// not hand them over): the diff then gives them the status the input says,
// or the one they had before, and the consent rule does not take
// Terraform's own unsubscribing for their opt-out.
func takeReleased(released *Released, listID string, service *ServiceList, rec *Record) {
	if released == nil {
		return
	}
	for id, s := range service.All() {
		st, ok := released.Take(listID, id)
		if !ok {
			continue
		}
		if s.Email == st.Status && s.Mobile == st.MobileStatus {
			continue // destroyed with on_destroy = "forget": nothing was unsubscribed
		}
		delete(rec.Released, id) // the statuses before this run's destroy are the ones to restore
		rec.Release(id, ServiceContact{Email: st.Status, Mobile: st.MobileStatus})
	}
}
