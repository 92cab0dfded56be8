package contactsync

import "github.com/rms-labs/terraform-provider-rms/internal/client"

// Record is the consent provenance of rms_list_contacts: the desired
// statuses last applied per contact, and the unsubscriptions Terraform made
// itself. For a map input every named contact is recorded. For a file
// input, which may name 100,000 contacts, only the contacts last applied
// UNSUBSCRIBED are (per channel); any other contact counts as last applied
// SUBSCRIBED, which for the consent rule means: an UNSUBSCRIBED the service
// shows is the recipient's own opt-out, unless the file itself had
// unsubscribed them.
type Record struct {
	File     bool                 `json:"file,omitempty"`
	Contacts map[string][2]string `json:"contacts,omitempty"`
	// Released holds the contacts Terraform unsubscribed although the
	// configuration did not name them (exclusive, or the destroy of a
	// replacement that could not hand them over), with, per channel
	// (e-mail, mobile), the status the service showed before: "" for a
	// channel Terraform did not change. Such an UNSUBSCRIBED is
	// Terraform's own doing, never a recipient's opt-out: when the input
	// names the contact again, it gets the status the input says, or,
	// where the input says nothing, the one it had before.
	Released map[string][2]string `json:"released,omitempty"`
	// Pending holds, per channel, the unsubscriptions the input asked for
	// that an apply was about to make when it stopped (a wait cut short,
	// writes that failed): UNSUBSCRIBED for a channel pending. Until Prune
	// settles them by what the service shows, they count as applied, so
	// an UNSUBSCRIBED the service shows there is Terraform's doing.
	Pending map[string][2]string `json:"pending,omitempty"`
	// OptOuts are the opt-outs a replaced object's list carried into this
	// object's new list (takeover.go): a contact the create adds starts
	// UNSUBSCRIBED on such a channel. They stay here until an apply has
	// written every contact, so that an apply cut short still knows them.
	OptOuts *CarriedOptOuts `json:"opt_outs,omitempty"`
	// OptedOut holds the opt-outs a listing showed (record_optouts.go):
	// per contact, the channels (e-mail, mobile) it left of its own
	// accord. They are kept when the contact leaves the list, so that the
	// input adding it back creates it UNSUBSCRIBED there.
	OptedOut map[string][2]bool `json:"opted_out,omitempty"`
	// Resubscribed holds the ids allow_resubscribe_ids named at the last
	// apply: each allowed one re-subscription, now used.
	Resubscribed map[string]bool `json:"resubscribed,omitempty"`
	// Consented holds, per contact, the channels (e-mail, mobile) an
	// allowed re-subscription subscribed again over an opt-out or a
	// suppression entry (Diff.Resubscribed): the recipient agreed, so no
	// later plan undoes it, whether or not the id stays in
	// allow_resubscribe_ids, until a listing shows the channel
	// UNSUBSCRIBED again (a new opt-out: settleOptOuts forgets it).
	Consented map[string][2]bool `json:"consented,omitempty"`
}

// MarkPending notes, before the write, the channels a change of a named
// contact sets UNSUBSCRIBED.
func (a *Record) MarkPending(id string, st client.SubscriptionStatus) {
	var p [2]string
	for i, s := range [2]string{st.Status, st.MobileStatus} {
		if s == client.StatusUnsubscribed {
			p[i] = client.StatusUnsubscribed
		}
	}
	if p == ([2]string{}) {
		return
	}
	if a.Pending == nil {
		a.Pending = map[string][2]string{}
	}
	a.Pending[id] = p
}

// Lookup is the status Terraform last applied to a contact, per channel
// (AppliedStatuses): UNSUBSCRIBED for a channel it released.
func (a Record) Lookup(id string) (email, mobile string) {
	st, ok := a.Contacts[id]
	if a.File {
		email, mobile = client.StatusSubscribed, client.StatusSubscribed
		if ok && st[0] != "" {
			email = st[0]
		}
		if ok && st[1] != "" {
			mobile = st[1]
		}
	} else {
		email, mobile = st[0], st[1]
	}
	if p, pending := a.Pending[id]; pending {
		if p[0] != "" {
			email = client.StatusUnsubscribed
		}
		if p[1] != "" {
			mobile = client.StatusUnsubscribed
		}
	}
	if before, released := a.Released[id]; released {
		if before[0] != "" {
			email = client.StatusUnsubscribed
		}
		if before[1] != "" {
			mobile = client.StatusUnsubscribed
		}
	}
	return email, mobile
}

// Restore is, per channel, the status a released contact had before
// Terraform unsubscribed it ("" for a channel it did not change, and for a
// contact it did not release).
func (a Record) Restore(id string) (email, mobile string) {
	before := a.Released[id]
	return before[0], before[1]
}

// NoteApplied notes that desired was applied: the statuses as desired, and the
// named contacts are released no more.
func (a *Record) NoteApplied(desired *Book) {
	a.Contacts = map[string][2]string{}
	if !a.File {
		a.Contacts = make(map[string][2]string, desired.Len())
	}
	for i := range desired.Len() {
		w := desired.Entry(i)
		delete(a.Released, w.ID)
		st := [2]string{w.Email, w.Mobile}
		if a.File {
			for i := range st {
				if st[i] != client.StatusUnsubscribed {
					st[i] = ""
				}
			}
			if st == ([2]string{}) {
				continue
			}
		}
		a.Contacts[w.ID] = st
	}
}

// Release notes that Terraform is about to unsubscribe a contact the
// configuration does not name, which the service shows as s: each channel
// not already UNSUBSCRIBED is remembered with the status it had (one the
// service does not show counts as SUBSCRIBED: Terraform unsubscribes it as
// such). It is called after the guardrail let the apply go on and before
// the write, so an apply cut short still knows what it may have done. A
// channel recorded before keeps its first record (the status before
// Terraform's first unsubscription); a channel not recorded yet is added,
// so an apply that finishes what an interrupted one began records it.
func (a *Record) Release(id string, s ServiceContact) {
	a.ReleaseChannels(id, s, true, true)
}

// ReleaseChannels is Release of the channels given: a destroy with
// on_destroy = "unsubscribe" unsubscribes only the channels the input sets.
func (a *Record) ReleaseChannels(id string, s ServiceContact, email, mobile bool) {
	before := a.Released[id]
	for i, st := range [2]string{s.Email, s.Mobile} {
		switch {
		case !([2]bool{email, mobile})[i], before[i] != "", st == client.StatusUnsubscribed:
		case st == "":
			before[i] = client.StatusSubscribed
		default:
			before[i] = st
		}
	}
	if before == ([2]string{}) {
		return // already unsubscribed on both channels: their own doing
	}
	if a.Released == nil {
		a.Released = map[string][2]string{}
	}
	a.Released[id] = before
}

// Prune settles the record by what the service shows, channel by channel:
// a released channel the service shows SUBSCRIBED is forgotten (someone
// subscribed the contact since, or the unsubscription never happened: an
// apply cut short before its write), while the other channel keeps its
// record; a contact the list no longer has is forgotten whole (its
// opt-outs are not: NoteOptOuts keeps them apart, in OptedOut). The record
// must never let a later opt-out pass for Terraform's own, nor lose an
// unsubscription Terraform made because its other channel was not written
// yet.
//
// Pending unsubscriptions are settled too: a channel the service shows
// UNSUBSCRIBED becomes the status last applied (the write happened), any
// other is forgotten (it did not).
func (a *Record) Prune(service *ServiceList) {
	for id, p := range a.Pending {
		s, ok := service.Get(id)
		for i, st := range [2]string{s.Email, s.Mobile} {
			if !ok || p[i] == "" || st != client.StatusUnsubscribed {
				continue
			}
			if a.Contacts == nil {
				a.Contacts = map[string][2]string{}
			}
			c := a.Contacts[id]
			c[i] = client.StatusUnsubscribed
			a.Contacts[id] = c
		}
	}
	a.Pending = nil
	for id, before := range a.Released {
		s, ok := service.Get(id)
		if !ok {
			delete(a.Released, id)
			continue
		}
		for i, st := range [2]string{s.Email, s.Mobile} {
			if st == client.StatusSubscribed {
				before[i] = ""
			}
		}
		if before == ([2]string{}) {
			delete(a.Released, id)
			continue
		}
		a.Released[id] = before
	}
}

// ForInput is the record for an input of the given kind: a record made for
// the other kind (a replacement that switches between map and file) keeps
// only what Terraform released.
func (a Record) ForInput(file bool) Record {
	if a.File != file {
		return Record{File: file, Released: a.Released, OptOuts: a.OptOuts, OptedOut: a.OptedOut, Resubscribed: a.Resubscribed, Consented: a.Consented}
	}
	return a
}
