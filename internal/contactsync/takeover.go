package contactsync

import (
	"sync"

	"github.com/rms-labs/terraform-provider-rms/internal/client"
)

// The halves of a replacement of rms_list_contacts, and what passes
// between them: the provider keeps the why (list_contacts_takeover.go) and
// the private-state glue; what is pure is here.

// TakeoverNote says that a new rms_list_contacts object takes over from the
// one this destroy removes. Applied is the consent record the replaced
// object left, when the plan could read it (its refresh ran in the same
// provider process as the create plan).
type TakeoverNote struct {
	ListID  string  `json:"list_id"`
	Applied *Record `json:"applied,omitempty"`
}

// Provenance carries, within one provider run, what consent needs across
// the two halves of a replacement:
//
//   - refreshed: the consent record each refresh read from private state,
//     for the create plan of a replacement that follows it (the plan and
//     its refresh share a process; the create plan's own private state is
//     empty);
//   - carried: the record a destroy half found in its takeover note, for
//     the create half that follows it (the framework gives a create no
//     private state);
//   - created: the lists a create took over, for a deposed object's destroy
//     that follows it (create_before_destroy).
type Provenance struct {
	mu        sync.Mutex
	refreshed map[string]Record
	carried   map[string]Record
	created   map[string]map[string][2]string
}

func NewProvenance() *Provenance {
	return &Provenance{refreshed: map[string]Record{}, carried: map[string]Record{}, created: map[string]map[string][2]string{}}
}

func (p *Provenance) Refresh(listID string, rec Record) {
	p.mu.Lock()
	defer p.mu.Unlock()
	p.refreshed[listID] = rec
}

func (p *Provenance) TakeRefreshed(listID string) (Record, bool) {
	p.mu.Lock()
	defer p.mu.Unlock()
	rec, ok := p.refreshed[listID]
	delete(p.refreshed, listID)
	return rec, ok
}

func (p *Provenance) Carry(listID string, rec Record) {
	p.mu.Lock()
	defer p.mu.Unlock()
	p.carried[listID] = rec
}

func (p *Provenance) TakeCarried(listID string) (Record, bool) {
	p.mu.Lock()
	defer p.mu.Unlock()
	rec, ok := p.carried[listID]
	delete(p.carried, listID)
	return rec, ok
}

// create notes that a create of this run took the list over; heldBack
// are the contacts whose status it could not give without the old object's
// record, with the statuses the input wants ("" a channel left to the
// service).
func (p *Provenance) Create(listID string, heldBack map[string][2]string) {
	p.mu.Lock()
	defer p.mu.Unlock()
	p.created[listID] = heldBack
}

// createdInRun reports whether a create of this run took the list over, and
// hands its held-back contacts to the caller (once).
func (p *Provenance) CreatedInRun(listID string) (map[string][2]string, bool) {
	p.mu.Lock()
	defer p.mu.Unlock()
	held, ok := p.created[listID]
	if ok {
		p.created[listID] = nil
	}
	return held, ok
}

// GivenBack is what a deposed object's destroy sends to the contacts a
// create of the same run held back: per channel, the status the input wants
// where the old record shows Terraform itself unsubscribed the contact, or,
// where the input says nothing, the status Terraform's unsubscription took
// away. Everything else stays as it is (a recipient's own opt-out).
func GivenBack(held map[string][2]string, old Record, service map[string]ServiceContact) map[string]client.SubscriptionStatus {
	out := map[string]client.SubscriptionStatus{}
	for id, want := range held {
		s, ok := service[id]
		if !ok {
			continue
		}
		oe, om := old.Lookup(id)
		re, rm := old.Restore(id)
		var st client.SubscriptionStatus
		st.Status = giveBack(want[0], oe, re, s.Email)
		st.MobileStatus = giveBack(want[1], om, rm, s.Mobile)
		if st != (client.SubscriptionStatus{}) {
			out[id] = st
		}
	}
	return out
}

// giveBack decides one channel for GivenBack.
func giveBack(want, oldApplied, oldBefore, service string) string {
	if service != client.StatusUnsubscribed {
		return ""
	}
	switch {
	case want == client.StatusSubscribed && oldApplied == client.StatusUnsubscribed:
		return want
	case want == "" && oldBefore != "":
		return oldBefore
	}
	return ""
}

// HeldBack are the named contacts the service shows UNSUBSCRIBED on a
// channel the input wants SUBSCRIBED or leaves to the service, and that the
// consent record cannot account for (a create without the old object's
// record): a deposed destroy of the same run may know better (GivenBack).
func HeldBack(desired []Desired, service map[string]ServiceContact, applied Record) map[string][2]string {
	out := map[string][2]string{}
	for _, w := range desired {
		s, ok := service[w.ID]
		if !ok {
			continue
		}
		ae, am := applied.Lookup(w.ID)
		held := func(want, applied, have string) bool {
			return have == client.StatusUnsubscribed && want != client.StatusUnsubscribed && applied != client.StatusUnsubscribed
		}
		if held(w.Email, ae, s.Email) || held(w.Mobile, am, s.Mobile) {
			out[w.ID] = [2]string{w.Email, w.Mobile}
		}
	}
	return out
}
