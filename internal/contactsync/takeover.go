package contactsync

import (
	"crypto/sha256"
	"encoding/hex"
	"slices"
	"sort"
	"strings"

	"github.com/rms-labs/terraform-provider-rms/internal/client"
)

// The halves of a replacement of rms_list_contacts, and what passes
// between them: the provider keeps the why (list_contacts_takeover.go) and
// the private-state glue; what is pure is here.

// TakeoverNote says that a new rms_list_contacts object takes over from the
// one this destroy removes. Applied is the consent record the replaced
// object left, when the plan could read it (its refresh ran in the same
// provider process as the create plan). ListID is the new object's list,
// "" when the plan could not know it (a replaced rms_list: its new id is
// known only once it is created); Key then names the new object by its
// input (ReplacementKey), so that the create half, which knows its list
// only at apply, finds the opt-outs the destroy half carried for it.
type TakeoverNote struct {
	ListID  string  `json:"list_id"`
	Key     string  `json:"key,omitempty"`
	Applied *Record `json:"applied,omitempty"`
}

// ReplacementKey names an rms_list_contacts object by its input, for a
// replacement whose new list id the plan cannot know: the source file's
// path, or the sorted ids of the contacts map. The plan and the apply of
// the create compute it from the same configuration.
func ReplacementKey(sourceFile string, ids []string) string {
	h := sha256.New()
	if sourceFile != "" {
		_, _ = h.Write([]byte("file\x00" + sourceFile))
	} else {
		ids = slices.Clone(ids)
		sort.Strings(ids)
		_, _ = h.Write([]byte("map\x00" + strings.Join(ids, "\x00")))
	}
	return "input:" + hex.EncodeToString(h.Sum(nil))
}

// CarriedOptOuts are the opt-outs of a list a replaced rms_list_contacts
// object managed, carried into the list of the object that replaces it:
// per contact, the channels (e-mail, mobile) the service showed
// UNSUBSCRIBED and Terraform had not unsubscribed itself. From names the
// old list(s), for the warning.
type CarriedOptOuts struct {
	From     []string           `json:"from,omitempty"`
	Contacts map[string][2]bool `json:"contacts,omitempty"`
}

// OptOutsOf are the opt-outs of a list as a destroy half finds them: every
// channel the service shows UNSUBSCRIBED that the replaced object's record
// does not account for as Terraform's own (released by exclusive or a
// destroy, or set UNSUBSCRIBED by the configuration). A contact the record
// does not know counts as opted out (the safe side).
func OptOutsOf(listID string, service *ServiceList, old Record) CarriedOptOuts {
	out := CarriedOptOuts{From: []string{listID}, Contacts: map[string][2]bool{}}
	for id, s := range service.All() {
		ae, am := old.Lookup(id)
		o := [2]bool{
			s.Email == client.StatusUnsubscribed && ae != client.StatusUnsubscribed,
			s.Mobile == client.StatusUnsubscribed && am != client.StatusUnsubscribed,
		}
		if o[0] || o[1] {
			out.Contacts[id] = o
		}
	}
	return out
}

// Merge adds other's opt-outs to o (a channel opted out in either stays
// opted out).
func (o *CarriedOptOuts) Merge(other CarriedOptOuts) {
	for _, f := range other.From {
		if !slices.Contains(o.From, f) {
			o.From = append(o.From, f)
		}
	}
	if o.Contacts == nil {
		o.Contacts = map[string][2]bool{}
	}
	for id, ch := range other.Contacts {
		cur := o.Contacts[id]
		o.Contacts[id] = [2]bool{cur[0] || ch[0], cur[1] || ch[1]}
	}
}

// Provenance carries, within one provider run, what consent needs across
// the two halves of a replacement:
//
//   - refreshed: the consent record each refresh read from private state,
//     for the create plan of a replacement that follows it (the plan and
//     its refresh share a process; the create plan's own private state is
//     empty), by list and by input, so that resources sharing a list do
//     not take each other's;
//   - carried: the record a destroy half found in its takeover note, for
//     the create half that follows it (the framework gives a create no
//     private state);
//   - created: the lists a create took over, for a deposed object's destroy
//     that follows it (create_before_destroy);
//   - optOuts: the opt-outs of a list a destroy half let go of, for the
//     create half that manages another list (a replaced rms_list), keyed
//     by the new list id or, when the plan could not know it, by the
//     replacement key of the new object's input.
type Provenance struct {
	refreshed handoff[string, map[string]Record] // list id, input (ReplacementKey)
	carried   handoff[string, Record]
	created   handoff[string, map[string][2]string]
	optOuts   handoff[string, CarriedOptOuts]
}

// NewProvenance returns the provenance of one provider run, empty.
func NewProvenance() *Provenance { return &Provenance{} }

// CarryOptOuts leaves a destroy half's opt-outs for the create half that
// follows it in this run, under key (a list id or a ReplacementKey).
func (p *Provenance) CarryOptOuts(key string, o CarriedOptOuts) {
	p.optOuts.Update(key, func(cur CarriedOptOuts, _ bool) (CarriedOptOuts, bool) {
		cur.Merge(o)
		return cur, true
	})
}

// OptOuts are the opt-outs carried for a create under any of keys (its
// list id, its replacement key), merged. They are not taken away: two
// objects of the same input replaced in one run (for_each over lists that
// share a file) cannot be told apart, and each then keeps every opt-out
// of either list, which errs on the side of consent.
func (p *Provenance) OptOuts(keys ...string) (CarriedOptOuts, bool) {
	var out CarriedOptOuts
	found := false
	for _, k := range keys {
		if k == "" {
			continue
		}
		if o, ok := p.optOuts.Get(k); ok {
			out.Merge(o)
			found = true
		}
	}
	return out, found
}

// Refresh keeps the record a refresh of the list settled for an input
// (ReplacementKey), for the plan that follows it in this run.
func (p *Provenance) Refresh(listID, input string, rec Record) {
	p.refreshed.Update(listID, func(byInput map[string]Record, _ bool) (map[string]Record, bool) {
		if byInput == nil {
			byInput = map[string]Record{}
		}
		byInput[input] = rec
		return byInput, true
	})
}

// TakeRefreshed hands the record Refresh kept for the list and input over,
// once. A replacement whose input changed too finds its record under the
// list alone, when a single resource refreshed that list; where several
// did, it gets none (the create then errs on the side of consent) rather
// than another resource's.
func (p *Provenance) TakeRefreshed(listID, input string) (Record, bool) {
	var rec Record
	var found bool
	p.refreshed.Update(listID, func(byInput map[string]Record, ok bool) (map[string]Record, bool) {
		key := input
		rec, found = byInput[key]
		if !found && len(byInput) == 1 {
			for key, rec = range byInput {
				found = true
			}
		}
		if found {
			delete(byInput, key)
		}
		return byInput, ok
	})
	return rec, found
}

// Carry leaves a destroy half's record for the create half that follows
// it in this run.
func (p *Provenance) Carry(listID string, rec Record) { p.carried.Put(listID, rec) }

// TakeCarried hands the record Carry left over, once.
func (p *Provenance) TakeCarried(listID string) (Record, bool) { return p.carried.Take(listID) }

// Create notes that a create of this run took the list over; heldBack
// are the contacts whose status it could not give without the old object's
// record, with the statuses the input wants ("" a channel left to the
// service).
func (p *Provenance) Create(listID string, heldBack map[string][2]string) {
	p.created.Put(listID, heldBack)
}

// CreatedInRun reports whether a create of this run took the list over, and
// hands its held-back contacts to the caller (once: the list stays noted
// as taken over).
func (p *Provenance) CreatedInRun(listID string) (map[string][2]string, bool) {
	var held map[string][2]string
	var found bool
	p.created.Update(listID, func(h map[string][2]string, ok bool) (map[string][2]string, bool) {
		held, found = h, ok
		return nil, ok
	})
	return held, found
}

// GivenBack is what a deposed object's destroy sends to the contacts a
// create of the same run held back: per channel, the status the input wants
// where the old record shows Terraform itself unsubscribed the contact, or,
// where the input says nothing, the status Terraform's unsubscription took
// away. Everything else stays as it is (a recipient's own opt-out).
func GivenBack(held map[string][2]string, old Record, service *ServiceList) map[string]client.SubscriptionStatus {
	out := map[string]client.SubscriptionStatus{}
	for id, want := range held {
		s, ok := service.Get(id)
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
func HeldBack(desired *Book, service *ServiceList, applied Record) map[string][2]string {
	out := map[string][2]string{}
	for i := range desired.Len() {
		w := desired.Entry(i)
		s, ok := service.lookup(desired, i)
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

// KeptOptOuts is Options.KeptOptOuts for the record (nil when it carries
// no opt-outs).
func (a Record) KeptOptOuts() map[string][2]bool {
	if a.OptOuts == nil {
		return nil
	}
	return a.OptOuts.Contacts
}
