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
	// OptOuts are the opt-outs a replaced object's list carried into this
	// object's new list (takeover.go): a contact the create adds starts
	// UNSUBSCRIBED on such a channel. They stay here until an apply has
	// written every contact, so that an apply cut short still knows them.
	OptOuts *CarriedOptOuts `json:"opt_outs,omitempty"`
}

// lookup is the status Terraform last applied to a contact, per channel
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

// restore is, per channel, the status a released contact had before
// Terraform unsubscribed it ("" for a channel it did not change, and for a
// contact it did not release).
func (a Record) Restore(id string) (email, mobile string) {
	before := a.Released[id]
	return before[0], before[1]
}

// record notes that desired was applied: the statuses as desired, and the
// named contacts are released no more.
func (a *Record) NoteApplied(desired []Desired) {
	a.Contacts = make(map[string][2]string, len(desired))
	for _, w := range desired {
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

// release notes that Terraform unsubscribes a contact the configuration
// does not name, which the service showed as s: each channel not already
// UNSUBSCRIBED is remembered with the status it had (one the service does
// not show counts as SUBSCRIBED: Terraform unsubscribed it as such). A
// contact released before keeps its first record.
func (a *Record) Release(id string, s ServiceContact) {
	if _, ok := a.Released[id]; ok {
		return
	}
	before := [2]string{}
	for i, st := range [2]string{s.Email, s.Mobile} {
		switch st {
		case client.StatusUnsubscribed:
		case "":
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

// prune forgets released contacts the service shows subscribed again on a
// channel Terraform released (someone subscribed them since, or the
// unsubscription never happened), and those the list no longer has: the
// record must never let a later opt-out pass for Terraform's own.
func (a *Record) Prune(service map[string]ServiceContact) {
	for id, before := range a.Released {
		s, ok := service[id]
		if !ok || (before[0] != "" && s.Email == client.StatusSubscribed) || (before[1] != "" && s.Mobile == client.StatusSubscribed) {
			delete(a.Released, id)
		}
	}
}

// forInput is the record for an input of the given kind: a record made for
// the other kind (a replacement that switches between map and file) keeps
// only what Terraform released.
func (a Record) ForInput(file bool) Record {
	if a.File != file {
		return Record{File: file, Released: a.Released, OptOuts: a.OptOuts}
	}
	return a
}
