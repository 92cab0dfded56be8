package provider

import (
	"context"
	"encoding/json"
	"sync"

	"github.com/rms-labs/terraform-provider-rms/internal/client"
)

// A replacement of rms_list_contacts (-replace, a tainted object, a changed
// argument that forces one) must unsubscribe nobody, not even for the
// moment between the old object's destroy and the new one's create: the
// service tells the account's systems about every unsubscription
// (contact.unsubscribed webhooks), and a recipient shown UNSUBSCRIBED may
// not be subscribed again without their consent. The new object takes the
// list over instead, as an update would, and the old one lets it go.
//
// Terraform orders the two halves in one of two ways, and each way gives
// the provider one means of knowing:
//
//   - destroy, then create (the default): Terraform hands the create plan's
//     private state to the destroy half. The create plan (ModifyPlan with
//     no prior state) leaves a takeover note naming the list; a destroy
//     that finds a note unsubscribes nobody. The note also carries the
//     replaced object's consent record (what Terraform last applied, what
//     it unsubscribed itself), which the create plan takes from the
//     refresh of the same run (Terraform gives the create plan of a
//     replacement no private state), and the destroy half hands it to the
//     create half in memory.
//   - create, then destroy (create_before_destroy): the deposed object's
//     destroy runs after the create in the same provider process, with its
//     own private state. The create registers its list in the run's
//     provenance; the deposed destroy of the same list finds it there.
//     The new object starts without the old one's consent record (the
//     framework hands a create no private state, and the destroy runs
//     last), so it errs on the side of consent: a contact shown
//     UNSUBSCRIBED counts as the recipient's own opt-out. It leaves those
//     contacts (the ones whose status it held back) in the run's
//     provenance, and the deposed destroy, which has the old record, sends
//     the statuses the old record shows were Terraform's to give back.
//
// A plain destroy sees neither: a create starts with empty private state
// (the framework does not hand it the planned one), so the note never
// reaches the state, and a run's takeovers die with the provider process,
// so a deposed object destroyed by a later apply is an ordinary destroy.
// A destroy half unsubscribes nobody, whichever list the new object
// manages: a replacement that moves to another list forgets the old list's
// contacts, as an update that drops them would.

// privateTakeover is the private-state key of a takeoverNote.
const privateTakeover = "takeover"

// takeoverNote says that a new rms_list_contacts object takes over from the
// one this destroy removes. Applied is the consent record the replaced
// object left, when the plan could read it (its refresh ran in the same
// provider process as the create plan).
type takeoverNote struct {
	ListID  string         `json:"list_id"`
	Applied *appliedRecord `json:"applied,omitempty"`
}

// readTakeover returns the takeover note p holds, if any.
func readTakeover(ctx context.Context, p privateGetter) (takeoverNote, bool) {
	var note takeoverNote
	if p == nil {
		return note, false
	}
	raw, diags := p.GetKey(ctx, privateTakeover)
	if diags.HasError() || len(raw) == 0 || json.Unmarshal(raw, &note) != nil {
		return takeoverNote{}, false
	}
	return note, true
}

// listProvenance carries, within one provider run, what consent needs across
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
type listProvenance struct {
	mu        sync.Mutex
	refreshed map[string]appliedRecord
	carried   map[string]appliedRecord
	created   map[string]map[string][2]string
}

func newListProvenance() *listProvenance {
	return &listProvenance{refreshed: map[string]appliedRecord{}, carried: map[string]appliedRecord{}, created: map[string]map[string][2]string{}}
}

func (p *listProvenance) refresh(listID string, rec appliedRecord) {
	p.mu.Lock()
	defer p.mu.Unlock()
	p.refreshed[listID] = rec
}

func (p *listProvenance) takeRefreshed(listID string) (appliedRecord, bool) {
	p.mu.Lock()
	defer p.mu.Unlock()
	rec, ok := p.refreshed[listID]
	delete(p.refreshed, listID)
	return rec, ok
}

func (p *listProvenance) carry(listID string, rec appliedRecord) {
	p.mu.Lock()
	defer p.mu.Unlock()
	p.carried[listID] = rec
}

func (p *listProvenance) takeCarried(listID string) (appliedRecord, bool) {
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
func (p *listProvenance) create(listID string, heldBack map[string][2]string) {
	p.mu.Lock()
	defer p.mu.Unlock()
	p.created[listID] = heldBack
}

// createdInRun reports whether a create of this run took the list over, and
// hands its held-back contacts to the caller (once).
func (p *listProvenance) createdInRun(listID string) (map[string][2]string, bool) {
	p.mu.Lock()
	defer p.mu.Unlock()
	held, ok := p.created[listID]
	if ok {
		p.created[listID] = nil
	}
	return held, ok
}

// givenBack is what a deposed object's destroy sends to the contacts a
// create of the same run held back: per channel, the status the input wants
// where the old record shows Terraform itself unsubscribed the contact, or,
// where the input says nothing, the status Terraform's unsubscription took
// away. Everything else stays as it is (a recipient's own opt-out).
func givenBack(held map[string][2]string, old appliedRecord, service map[string]serviceContact) map[string]client.SubscriptionStatus {
	out := map[string]client.SubscriptionStatus{}
	for id, want := range held {
		s, ok := service[id]
		if !ok {
			continue
		}
		oe, om := old.lookup(id)
		re, rm := old.restore(id)
		var st client.SubscriptionStatus
		st.Status = giveBack(want[0], oe, re, s.Email)
		st.MobileStatus = giveBack(want[1], om, rm, s.Mobile)
		if st != (client.SubscriptionStatus{}) {
			out[id] = st
		}
	}
	return out
}

// giveBack decides one channel for givenBack.
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
