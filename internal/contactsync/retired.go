package contactsync

import "github.com/rms-labs/terraform-provider-rms/internal/client"

// Only a recipient's own opt-out belongs in the suppression list. When a
// list is deleted, the service deletes its contacts with it, so the delete
// of rms_list first copies the list's unsubscribed channels into the
// suppression list; but by then the consent records of the list's
// rms_list_contacts are gone (Terraform destroys the contacts resource
// first, since its list_id refers to the list), and the list alone cannot
// tell a recipient's opt-out from an unsubscription Terraform made itself
// (exclusive, the input, on_destroy). Retired carries, within one provider
// run, what those records knew from the destroy of each rms_list_contacts
// to the delete of its list, which then copies recipients' opt-outs only.

// Retired holds, per list, the channels of its contacts that the consent
// records of the rms_list_contacts destroyed in this run know as
// Terraform's own unsubscriptions, and those they know as recipients'
// opt-outs.
type Retired struct {
	lists handoff[string, retiredList]
}

type retiredList struct {
	own, optedOut map[string][2]bool
}

// NewRetired returns an empty Retired.
func NewRetired() *Retired { return &Retired{} }

// Add notes what the record of one destroyed rms_list_contacts of list
// listID knows. Several resources on one list add theirs.
func (r *Retired) Add(listID string, rec Record) {
	own, opted := rec.TerraformsOwn(), rec.OptedOut
	r.lists.Update(listID, func(l retiredList, _ bool) (retiredList, bool) {
		l.own = orChannels(l.own, own)
		l.optedOut = orChannels(l.optedOut, opted)
		return l, true
	})
}

// Take removes and returns the channels of list listID's contacts that
// are Terraform's own: those a destroyed record knows as its own and none
// knows as a recipient's opt-out (when in doubt, an opt-out is kept).
func (r *Retired) Take(listID string) (map[string][2]bool, bool) {
	l, ok := r.lists.Take(listID)
	if !ok {
		return nil, false
	}
	out := map[string][2]bool{}
	for id, c := range l.own {
		o := l.optedOut[id]
		if c = [2]bool{c[0] && !o[0], c[1] && !o[1]}; c != ([2]bool{}) {
			out[id] = c
		}
	}
	return out, true
}

// RecipientsOwn is outs less the channels own knows as Terraform's own.
func RecipientsOwn(outs []OptOut, own map[string][2]bool) []OptOut {
	kept := outs[:0:0]
	for _, o := range outs {
		c := own[o.OriginalID]
		o.Channels = o.Channels.Without(Channels{Email: c[0], Mobile: c[1]})
		if o.Channels.Any() {
			kept = append(kept, o)
		}
	}
	return kept
}

// TerraformsOwn are, per contact, the channels the record knows Terraform
// unsubscribed itself: the input's UNSUBSCRIBED as applied or pending,
// and what it released (exclusive, on_destroy), less the channels it saw
// the recipient opt out of.
func (a Record) TerraformsOwn() map[string][2]bool {
	out := map[string][2]bool{}
	note := func(id string) {
		if _, done := out[id]; done {
			return
		}
		email, mobile := a.Lookup(id)
		o := a.OptedOut[id]
		c := [2]bool{email == client.StatusUnsubscribed && !o[0], mobile == client.StatusUnsubscribed && !o[1]}
		if c != ([2]bool{}) {
			out[id] = c
		}
	}
	for id := range a.Contacts {
		note(id)
	}
	for id := range a.Released {
		note(id)
	}
	for id := range a.Pending {
		note(id)
	}
	return out
}

func orChannels(a, b map[string][2]bool) map[string][2]bool {
	if a == nil {
		a = map[string][2]bool{}
	}
	for id, c := range b {
		cur := a[id]
		a[id] = [2]bool{cur[0] || c[0], cur[1] || c[1]}
	}
	return a
}
