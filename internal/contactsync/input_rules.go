package contactsync

// InputRules are the settings of an rms_list_contacts input that decide
// its diff and what its consent record remembers after an apply.
type InputRules struct {
	Exclusive        bool
	AllowResubscribe bool
	// ResubscribeIDs are the ids allow_resubscribe_ids names (nil: unset);
	// Keep the ids keep_ids names (nil: unset).
	ResubscribeIDs map[string]bool
	Keep           map[string]bool
}

// Options are the options of a diff of the input against a listing, for
// the consent record as it stands.
func (in InputRules) Options(rec Record) Options {
	return Options{Applied: rec.Lookup, AllowResubscribe: in.AllowResubscribe, Resubscribe: rec.Unused(in.ResubscribeIDs),
		Exclusive: in.Exclusive, SeenOptOuts: rec.SeenOptOuts(), Keep: in.Keep, Consented: rec.Consented}
}

// MayResubscribe says whether an apply may undo a contact's opt-out:
// allow_resubscribe, or an id of allow_resubscribe_ids not used yet.
func (in InputRules) MayResubscribe(rec Record) func(id string) bool {
	all, ids := in.AllowResubscribe, rec.Unused(in.ResubscribeIDs)
	return func(id string) bool { return all || ids[id] }
}

// Remember carries into next, the record an apply leaves, what the record
// before (settled) remembered of opt-outs, plus the opt-outs the apply
// kept by creating contacts unsubscribed; it forgets those the input
// allowed to re-subscribe (whose write did not fail), marks the ids
// allow_resubscribe_ids names as used, and remembers the channels the
// allowance re-subscribed (Record.Consented).
func (in InputRules) Remember(next *Record, settled Record, diff Diff, failed map[string]bool) {
	for id, o := range settled.OptedOut {
		if next.OptedOut == nil {
			next.OptedOut = map[string][2]bool{}
		}
		next.OptedOut[id] = o
	}
	next.NoteKept(diff.Kept, settled.KeptOptOuts())
	allow := in.MayResubscribe(settled)
	next.ForgetOptOuts(func(id string) bool { return allow(id) && !failed[id] })
	next.NoteResubscribeIDs(in.ResubscribeIDs, failed, settled)
	for id, c := range settled.Consented {
		if next.Consented == nil {
			next.Consented = map[string][2]bool{}
		}
		next.Consented[id] = c
	}
	next.NoteConsented(diff.Resubscribed, failed)
}
