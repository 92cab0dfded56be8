package contactsync

import (
	"flag"
	"fmt"
	"os"
	"strings"
	"testing"

	"pgregory.net/rapid"

	"github.com/rms-labs/terraform-provider-rms/internal/client"
)

// TestMain sets how many cases each property test draws (rapid's
// -rapid.checks), unless the command line says: enough to reach the
// corners of a small world in a second or two.
func TestMain(m *testing.M) {
	flag.Parse()
	if f := flag.Lookup("rapid.checks"); f != nil && !flagSet("rapid.checks") {
		_ = f.Value.Set("2000") // a known flag with an int value: cannot fail
	}
	os.Exit(m.Run())
}

// flagSet reports whether the command line set the flag name.
func flagSet(name string) bool {
	set := false
	flag.Visit(func(f *flag.Flag) { set = set || f.Name == name })
	return set
}

// agreementWorld is one drawn case: a list, an input, a consent record,
// a suppression list and the allowances. Ids and addresses are few, and
// addresses differ in letter case and spaces, so every rule meets every
// other.
type agreementWorld struct {
	service    map[string]ServiceContact
	desired    []Desired
	applied    map[string][2]string
	suppressed map[string]Channels // by id, or by normalised address
	opts       Options
}

var (
	agreementIDs       = []string{"a", "b", "c", "d", "e"}
	agreementAddresses = []string{"", "x@example.com", " X@Example.com", "y@example.com"}
	shownStatuses      = []string{client.StatusSubscribed, client.StatusUnsubscribed, "", "PENDING"}
	wantedStatuses     = []string{client.StatusSubscribed, client.StatusUnsubscribed, ""}
	appliedStatuses    = []string{"", client.StatusSubscribed, client.StatusUnsubscribed}
)

func drawWorld(t *rapid.T) agreementWorld {
	w := agreementWorld{service: map[string]ServiceContact{}, applied: map[string][2]string{}, suppressed: map[string]Channels{}}
	channels := func(label string) Channels {
		return Channels{Email: rapid.Bool().Draw(t, label+" e-mail"), Mobile: rapid.Bool().Draw(t, label+" mobile")}
	}
	for _, id := range agreementIDs {
		if rapid.Bool().Draw(t, id+" listed") {
			w.service[id] = ServiceContact{
				Email:  rapid.SampledFrom(shownStatuses).Draw(t, id+" shown e-mail"),
				Mobile: rapid.SampledFrom(shownStatuses).Draw(t, id+" shown mobile"),
				Props:  map[string]string{EmailAttribute: rapid.SampledFrom(agreementAddresses).Draw(t, id+" listed address")},
			}
		}
		if rapid.Bool().Draw(t, id+" named") {
			w.desired = append(w.desired, Desired{
				ID:     id,
				Email:  rapid.SampledFrom(wantedStatuses).Draw(t, id+" wanted e-mail"),
				Mobile: rapid.SampledFrom(wantedStatuses).Draw(t, id+" wanted mobile"),
				Props:  map[string]string{EmailAttribute: rapid.SampledFrom(agreementAddresses).Draw(t, id+" wanted address")},
			})
		}
		w.applied[id] = [2]string{rapid.SampledFrom(appliedStatuses).Draw(t, id+" applied e-mail"), rapid.SampledFrom(appliedStatuses).Draw(t, id+" applied mobile")}
		if rapid.Bool().Draw(t, id+" suppressed") {
			w.suppressed[id] = channels(id + " suppressed")
		}
	}
	if rapid.Bool().Draw(t, "an address suppressed") {
		w.suppressed[NormalizeEmail(rapid.SampledFrom(agreementAddresses[1:]).Draw(t, "suppressed address"))] = channels("address")
	}
	w.opts = Options{
		Applied:          func(id string) (string, string) { s := w.applied[id]; return s[0], s[1] },
		AllowResubscribe: rapid.Bool().Draw(t, "allow_resubscribe"),
		Exclusive:        rapid.Bool().Draw(t, "exclusive"),
		Resubscribe:      map[string]bool{},
		Keep:             map[string]bool{},
		Consented:        map[string][2]bool{},
	}
	for _, id := range agreementIDs {
		w.opts.Resubscribe[id] = rapid.Bool().Draw(t, id+" in allow_resubscribe_ids")
		w.opts.Keep[id] = rapid.Bool().Draw(t, id+" in keep_ids")
		if rapid.Bool().Draw(t, id+" consented") {
			c := channels(id + " consented")
			w.opts.Consented[id] = [2]bool{c.Email, c.Mobile}
		}
	}
	w.opts.Suppressed = w.suppressedFunc
	return w
}

// suppressedFunc answers as the suppression list does: by id, or by the
// contact's address, ignoring case and spaces.
func (w agreementWorld) suppressedFunc(b *Book, i int) Channels {
	c := b.Contact(i)
	return w.suppressed[c.ID].Union(w.suppressed[NormalizeEmail(c.Props[EmailAttribute])])
}

// allowed says whether the configuration may re-subscribe id.
func (w agreementWorld) allowed(id string) bool {
	return w.opts.AllowResubscribe || w.opts.Resubscribe[id]
}

// applyChanges is the service after an apply wrote changes.
func applyChanges(service map[string]ServiceContact, changes []Change) map[string]ServiceContact {
	out := make(map[string]ServiceContact, len(service))
	for id, s := range service {
		out[id] = s
	}
	for _, c := range changes {
		s := out[c.ID]
		if c.Create {
			s = ServiceContact{Props: map[string]string{}}
		}
		props := map[string]string{}
		for k, v := range s.Props {
			props[k] = v
		}
		for k, v := range c.Set {
			props[k] = v
		}
		for _, k := range c.Remove {
			delete(props, k)
		}
		s.Props = props
		switch {
		case c.Unsubscribe && c.Status == (client.SubscriptionStatus{}):
			s.Email, s.Mobile = client.StatusUnsubscribed, client.StatusUnsubscribed
		default:
			s.Email, s.Mobile = cmpOr(c.Status.Status, s.Email), cmpOr(c.Status.MobileStatus, s.Mobile)
		}
		out[c.ID] = s
	}
	return out
}

// TestDecisionsAgree draws lists, inputs, consent records, suppression
// entries and allowances, and holds the decisions of Compare to the
// rules every view of the provider reads from them:
//   - consent: no write subscribes a channel the service shows
//     unsubscribed unless the configuration allows it or asked for that
//     unsubscription itself; no write subscribes, and no listed contact is
//     left subscribed on, a channel the suppression list holds, unless
//     allowed or consented to;
//   - one reason: a channel the suppression list decided is never also a
//     kept opt-out, and a contact it names has a channel it decided;
//   - the record: each re-subscription the allowance made is in
//     Resubscribed, and no other;
//   - a second plan after the apply, with the record the apply leaves,
//     decides nothing.
func TestDecisionsAgree(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		w := drawWorld(t)
		desired := BookOf(w.desired)
		diff := Compare(desired, ServiceListOf(w.service), w.opts)
		for _, c := range diff.Changes {
			have, listed := w.service[c.ID]
			i, named := desired.Index(c.ID)
			var sup Channels
			if named {
				sup = w.suppressedFunc(desired, i)
			}
			consented := w.opts.Consented[c.ID]
			for ch, st := range [2]struct{ sent, shown, applied string }{
				{c.Status.Status, have.Email, w.applied[c.ID][0]},
				{c.Status.MobileStatus, have.Mobile, w.applied[c.ID][1]},
			} {
				if st.sent != client.StatusSubscribed {
					continue
				}
				if listed && st.shown == client.StatusUnsubscribed && !w.allowed(c.ID) && st.applied != client.StatusUnsubscribed {
					t.Fatalf("%s: channel %d subscribed over an opt-out without an allowance: %+v", c.ID, ch, c)
				}
				if ([2]bool{sup.Email, sup.Mobile})[ch] && !w.allowed(c.ID) && !consented[ch] {
					t.Fatalf("%s: channel %d subscribed although suppressed: %+v", c.ID, ch, c)
				}
			}
		}
		optedOut := map[string]bool{}
		for _, id := range diff.OptedOut {
			optedOut[id] = true
		}
		for _, c := range diff.Changes {
			if c.Suppressed.Any() && !contains(diff.Suppressed, c.ID) {
				t.Fatalf("%s: a change the suppression list decided is not counted as suppressed: %+v", c.ID, c)
			}
		}
		after := applyChanges(w.service, diff.Changes)
		for _, d := range w.desired {
			i, _ := desired.Index(d.ID)
			sup := w.suppressedFunc(desired, i)
			s := after[d.ID]
			consented := w.opts.Consented[d.ID]
			if sup.Email && !w.allowed(d.ID) && !consented[0] && s.Email == client.StatusSubscribed {
				t.Fatalf("%s: left subscribed on a suppressed e-mail channel (%+v)", d.ID, s)
			}
			if sup.Mobile && !w.allowed(d.ID) && !consented[1] && s.Mobile == client.StatusSubscribed {
				t.Fatalf("%s: left subscribed on a suppressed mobile channel (%+v)", d.ID, s)
			}
		}
		second := w.opts
		rec := Record{Contacts: map[string][2]string{}, Consented: w.opts.Consented}
		rec.NoteApplied(desired)
		for _, c := range diff.Changes {
			if c.Unsubscribe {
				rec.Release(c.ID, w.service[c.ID])
			}
		}
		rec.NoteConsented(diff.Resubscribed, nil)
		rec.Prune(ServiceListOf(after))
		second.Applied = rec.Lookup
		second.Consented = rec.Consented
		// The ids of allow_resubscribe_ids are used once (Record.Unused).
		second.Resubscribe = map[string]bool{}
		if again := Compare(desired, ServiceListOf(after), second); len(again.Changes) > 0 {
			t.Fatalf("a second plan after the apply decides again: %s\nfirst: %s", describeChanges(again.Changes), describeChanges(diff.Changes))
		}
	})
}

func contains(ids []string, id string) bool {
	for _, x := range ids {
		if x == id {
			return true
		}
	}
	return false
}

func describeChanges(changes []Change) string {
	var b strings.Builder
	for _, c := range changes {
		fmt.Fprintf(&b, "\n  %+v", c)
	}
	return b.String()
}
