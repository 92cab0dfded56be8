package contactsync

// Plan is the one decision of a plan of a list's contacts. Every view of
// it derives from its result: the refresh's suppressed_subscribed, the
// plan's warnings and planned_changes, the final plan's counts, and (by
// Apply, which decides through Compare the same way) the apply's writes and
// the consent record it keeps. The provider calls Plan, PlanExclusive,
// Refreshed and Apply, never the rules behind them (Compare, Decide,
// ExclusiveChanges...): a test of the provider package holds it to that.

// PlanInput is what a plan decides from: the input, the listing, the
// rules (consent record, suppression list, allowances, exclusive) and,
// for the final plan Terraform makes inside an apply, the contacts that
// moved on since the refresh the reviewed plan counted from.
type PlanInput struct {
	Desired *Book
	Service *ServiceList
	Options Options
	Moved   Moved
}

// PlanResult is the decisions of one plan, one per contact, and the size
// of the list they were counted against.
type PlanResult struct {
	Diff     Diff
	ListSize int
}

// Plan decides, contact by contact, what an apply of the input would do to
// the listing. The contacts in Moved are counted as the refresh saw them
// (ServiceList.Rewind), so that the final plan counts what the reviewed
// plan counted; the listing is left as it was given.
func Plan(in PlanInput) PlanResult {
	undo := in.Service.Rewind(in.Moved)
	defer undo()
	return PlanResult{Diff: Compare(in.Desired, in.Service, in.Options), ListSize: in.Service.Len()}
}

// SuppressedWrites are the ids of the listed contacts the plan unsubscribes
// on a channel because the suppression list holds it (a contact to create
// is counted as created).
func (r PlanResult) SuppressedWrites() []string {
	var ids []string
	for c := range r.Diff.All() {
		if !c.Create && c.SuppressedWrite() {
			ids = append(ids, c.ID)
		}
	}
	return ids
}

// PlanExclusive is the plan of a list whose input is not known yet (a
// create, a plan whose refresh was skipped): only what exclusive would
// unsubscribe can be decided, from the statuses listed.
func PlanExclusive(desired *Book, service *ServiceList, keep map[string]bool) PlanResult {
	return PlanResult{Diff: Diff{Changes: ExclusiveChangesKeeping(desired, service, keep)}, ListSize: service.Len()}
}

// Refreshed are the statuses a refresh records for a contact of a map
// input on the channels the configuration manages (want "" : not managed,
// left ""): what the service shows, except where it shows nothing or where
// the consent rule honours an opt-out (EffectiveStatus).
func Refreshed(want, applied [2]string, shown ServiceContact, allowResubscribe bool) [2]string {
	var out [2]string
	for ch, have := range [2]string{shown.Email, shown.Mobile} {
		if want[ch] != "" {
			out[ch] = EffectiveStatus(want[ch], applied[ch], have, allowResubscribe)
		}
	}
	return out
}
