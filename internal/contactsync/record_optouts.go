package contactsync

import (
	"maps"

	"github.com/rms-labs/terraform-provider-rms/internal/client"
)

// The record's memory of opt-outs (Record.OptedOut) and of the
// re-subscriptions allow_resubscribe_ids allowed (Record.Resubscribed).
//
// A contact that leaves the list (a REPLACE import, a cut file, a removal by
// hand) takes its status with it: when the input adds it back, the service
// would create it as the input says, SUBSCRIBED, and nobody would know it
// had opted out. So an opt-out the resource has seen in a listing is kept
// in the record, also once the contact is gone, until the service shows the
// channel SUBSCRIBED again or the configuration allows re-subscription for
// that contact; a contact the input adds back starts UNSUBSCRIBED there
// (Options.SeenOptOuts). Opt-outs are few next to a list, so the memory
// stays small for a file of 100,000 contacts too.
//
// allow_resubscribe_ids allows once: an apply that has an id in it records
// the id as used, and while it stays there a later opt-out of that contact
// is honoured; dropping the id forgets the use, so naming it again allows
// once more.

// NoteOptOuts learns, from a listing, the opt-outs of the contacts named
// lists with the statuses it wants: every channel the consent rule honours
// as the recipient's own opt-out (Decide: the input wants SUBSCRIBED, the
// service shows UNSUBSCRIBED, and the record does not account for it as
// Terraform's own). A channel the input leaves to the service is the
// service's to keep (a double opt-in service starts every contact
// UNSUBSCRIBED), and is not learned. With unnamed, a contact named does
// not name counts as wanted SUBSCRIBED on both channels: a file is read as
// it is now, not as last applied, so a row cut since is no longer in it,
// and its opt-out is learned this way (for a file any contact not recorded
// counts as last applied SUBSCRIBED, Lookup).
//
// It also forgets each remembered channel the listing shows SUBSCRIBED
// (re-subscribed since, by an allowed apply or by the recipient). A
// contact the listing does not hold keeps what is remembered. named may be
// nil (a file not readable): then the record only settles. It reports
// whether the record changed.
func (a *Record) NoteOptOuts(named *Book, service *ServiceList, unnamed bool) bool {
	changed := a.settleOptOuts(service)
	if named == nil {
		return changed
	}
	for id, s := range service.All() {
		if s.Email != client.StatusUnsubscribed && s.Mobile != client.StatusUnsubscribed {
			continue
		}
		want := Entry{ID: id, Email: client.StatusSubscribed, Mobile: client.StatusSubscribed}
		if i, ok := named.Index(id); ok {
			want = named.Entry(i)
		} else if !unnamed {
			continue
		}
		ae, am := a.Lookup(id)
		seen := [2]bool{Decide(want.Email, ae, s.Email, false).OptedOut, Decide(want.Mobile, am, s.Mobile, false).OptedOut}
		if a.noteOptOut(id, seen) {
			changed = true
		}
	}
	return changed
}

// settleOptOuts forgets each remembered opt-out the listing shows
// SUBSCRIBED, and each consented re-subscription it shows UNSUBSCRIBED (the
// recipient opted out again), and reports whether it forgot any.
func (a *Record) settleOptOuts(service *ServiceList) bool {
	changed := a.settleConsented(service)
	for id, o := range a.OptedOut {
		s, ok := service.Get(id)
		if !ok {
			continue
		}
		for i, st := range [2]string{s.Email, s.Mobile} {
			if st == client.StatusSubscribed && o[i] {
				o[i], changed = false, true
			}
		}
		if o == ([2]bool{}) {
			delete(a.OptedOut, id)
			continue
		}
		a.OptedOut[id] = o
	}
	return changed
}

// settleConsented forgets each consented channel the listing shows
// UNSUBSCRIBED, and reports whether it forgot any. A contact the listing
// does not hold keeps its consent: it comes back as the input says.
func (a *Record) settleConsented(service *ServiceList) bool {
	changed := false
	for id, c := range a.Consented {
		s, ok := service.Get(id)
		if !ok {
			continue
		}
		for i, st := range [2]string{s.Email, s.Mobile} {
			if st == client.StatusUnsubscribed && c[i] {
				c[i], changed = false, true
			}
		}
		if c == ([2]bool{}) {
			delete(a.Consented, id)
			continue
		}
		a.Consented[id] = c
	}
	return changed
}

// NoteConsented remembers the channels an apply re-subscribed, or left
// subscribed, under the configuration's allowance (Diff.Resubscribed),
// except for the contacts whose write failed.
func (a *Record) NoteConsented(resubscribed map[string]Channels, failed map[string]bool) {
	for id, c := range resubscribed {
		if failed[id] {
			continue
		}
		if a.Consented == nil {
			a.Consented = map[string][2]bool{}
		}
		cur := a.Consented[id]
		a.Consented[id] = [2]bool{cur[0] || c.Email, cur[1] || c.Mobile}
	}
}

// noteOptOut adds the channels of seen to what is remembered of id, and
// reports whether that added any.
func (a *Record) noteOptOut(id string, seen [2]bool) bool {
	cur := a.OptedOut[id]
	next := [2]bool{cur[0] || seen[0], cur[1] || seen[1]}
	if next == cur {
		return false
	}
	if a.OptedOut == nil {
		a.OptedOut = map[string][2]bool{}
	}
	a.OptedOut[id] = next
	return true
}

// NoteKept remembers the opt-outs an apply kept by creating contacts
// UNSUBSCRIBED (a replaced list's carried opt-outs): should those contacts
// leave the list and come back, they are opt-outs still.
func (a *Record) NoteKept(kept []string, channels map[string][2]bool) {
	for _, id := range kept {
		a.noteOptOut(id, channels[id])
	}
}

// ForgetOptOuts forgets the remembered opt-outs of the contacts allowed
// says the configuration lets an apply re-subscribe: the apply that ends
// now did (or, for a contact not in the list, will create it as the input
// says).
func (a *Record) ForgetOptOuts(allowed func(id string) bool) {
	maps.DeleteFunc(a.OptedOut, func(id string, _ [2]bool) bool { return allowed(id) })
}

// SeenOptOuts is Options.SeenOptOuts for the record.
func (a Record) SeenOptOuts() map[string][2]bool { return a.OptedOut }

// KnowsOptOut reports whether the record remembers an opt-out of id, or a
// re-subscription of it that allow_resubscribe_ids allowed.
func (a Record) KnowsOptOut(id string) bool {
	_, seen := a.OptedOut[id]
	return seen || a.Resubscribed[id]
}

// Unused are the ids of named (allow_resubscribe_ids) whose one
// re-subscription no apply has used yet: the ones an apply may still
// re-subscribe.
func (a Record) Unused(named map[string]bool) map[string]bool {
	if len(named) == 0 {
		return named
	}
	out := make(map[string]bool, len(named))
	for id := range named {
		if !a.Resubscribed[id] {
			out[id] = true
		}
	}
	return out
}

// NoteResubscribeIDs records, at the end of an apply, the ids
// allow_resubscribe_ids names as used: any opt-out made after this apply is
// honoured while they stay named. An id whose write failed keeps the mark
// it had (the next apply uses it), and an id no longer named is forgotten.
func (a *Record) NoteResubscribeIDs(named, failed map[string]bool, before Record) {
	a.Resubscribed = nil
	for id := range named {
		if failed[id] && !before.Resubscribed[id] {
			continue
		}
		if a.Resubscribed == nil {
			a.Resubscribed = map[string]bool{}
		}
		a.Resubscribed[id] = true
	}
}

// NewOptOuts is diff with only the opt-outs kept that the record as saved
// (recorded: Record.OptedOut before this run noted its listing) did not
// hold, for the warnings that name them, and the number of those it
// leaves out. now is the record as it stands. diff itself is not changed
// (the counts of a plan hold every opt-out).
func NewOptOuts(diff Diff, recorded map[string][2]bool, now Record) (Diff, int) {
	if len(recorded) == 0 || len(diff.OptedOut) == 0 {
		return diff, 0
	}
	fresh := make([]string, 0, len(diff.OptedOut))
	for _, id := range diff.OptedOut {
		if !optOutRecorded(recorded[id], now.OptedOut[id]) {
			fresh = append(fresh, id)
		}
	}
	n := len(diff.OptedOut) - len(fresh)
	diff.OptedOut = fresh
	return diff, n
}

// optOutRecorded reports whether the record as saved (was) holds the
// opt-out the record now holds on every channel, and holds one at all.
func optOutRecorded(was, now [2]bool) bool {
	if was == ([2]bool{}) {
		return false
	}
	return (!now[0] || was[0]) && (!now[1] || was[1])
}
