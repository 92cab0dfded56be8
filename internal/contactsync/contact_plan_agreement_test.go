package contactsync

import (
	"testing"

	"pgregory.net/rapid"

	"github.com/rms-labs/terraform-provider-rms/internal/client"
)

// TestPlanContactAgreesWithCompare draws one contact as TestDecisionsAgree
// draws a list's (statuses shown and wanted, what was applied, the
// suppression list, the consented channels, the allowance) and holds
// rms_contact's decision (PlanContact) to rms_list_contacts' (Compare of a
// one-contact list): the channels written and their statuses match, and a
// channel the suppression list decided is one for both.
//
// The draw leaves out what only one of them has:
//   - exclusive, keep_ids and the unnamed contacts they unsubscribe: an
//     rms_contact names its one contact;
//   - a replaced object's opt-outs, the opt-outs seen before a contact left
//     and the statuses Terraform released (KeptOptOuts, SeenOptOuts,
//     Restore, Fresh): rms_list_contacts' record; rms_contact's take-over
//     has its own unit tests;
//   - per-contact allowances: rms_contact has allow_resubscribe only, drawn
//     as AllowResubscribe;
//   - a consented channel the service shows UNSUBSCRIBED: the record
//     forgets it before Compare runs (Record.settleConsented), as
//     PlanContact does itself.
//
// One difference is the rule's, and is asserted as such: where the
// suppression list holds a channel of a listed contact whose status the
// service does not show, and the input sends nothing there, rms_contact
// unsubscribes it (the safe side, one write) and Compare does not (it would
// write every such contact of a list on every apply).
func TestPlanContactAgreesWithCompare(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		const id = "a"
		listed := rapid.Bool().Draw(t, "listed")
		shown := [2]string{}
		if listed {
			shown = [2]string{rapid.SampledFrom(shownStatuses).Draw(t, "shown e-mail"), rapid.SampledFrom(shownStatuses).Draw(t, "shown mobile")}
		}
		wanted := [2]string{rapid.SampledFrom(wantedStatuses).Draw(t, "wanted e-mail"), rapid.SampledFrom(wantedStatuses).Draw(t, "wanted mobile")}
		applied := [2]string{rapid.SampledFrom(appliedStatuses).Draw(t, "applied e-mail"), rapid.SampledFrom(appliedStatuses).Draw(t, "applied mobile")}
		hasList := rapid.Bool().Draw(t, "a suppression list")
		var held Channels
		if hasList {
			held = Channels{Email: rapid.Bool().Draw(t, "held e-mail"), Mobile: rapid.Bool().Draw(t, "held mobile")}
		}
		consented := Channels{Email: rapid.Bool().Draw(t, "consented e-mail"), Mobile: rapid.Bool().Draw(t, "consented mobile")}.
			Without(UnsubscribedChannels(shown[0], shown[1]))
		allow := rapid.Bool().Draw(t, "allow_resubscribe")

		service := map[string]ServiceContact{}
		if listed {
			service[id] = ServiceContact{Email: shown[0], Mobile: shown[1], Props: map[string]string{}}
		}
		opts := Options{
			Applied:          func(string) (string, string) { return applied[0], applied[1] },
			AllowResubscribe: allow,
			Consented:        map[string][2]bool{id: {consented.Email, consented.Mobile}},
		}
		if hasList {
			opts.Suppressed = func(*Book, int) Channels { return held }
		}
		diff := Compare(BookOf([]Desired{{ID: id, Email: wanted[0], Mobile: wanted[1], Props: map[string]string{}}}), ServiceListOf(service), opts)
		var ch Change
		if len(diff.Changes) > 0 {
			ch = diff.Changes[0]
		}

		d := PlanContact(ContactInput{
			Create: !listed, Desired: wanted, Applied: applied, Shown: shown, Allow: allow,
			SuppressionList: hasList, Suppressed: held, Consented: consented,
		})
		compared := [2]string{ch.Status.Status, ch.Status.MobileStatus}
		byList := [2]bool{ch.Suppressed.Email, ch.Suppressed.Mobile}
		suppressed := false
		for i, c := range d.Channels {
			if listed && shown[i] == "" && compared[i] == "" && c.Send == client.StatusUnsubscribed && c.Reason == ReasonSuppressed {
				continue // the one difference (see above)
			}
			if c.Send != compared[i] {
				t.Fatalf("channel %d: PlanContact sends %q (%s), Compare %q: %+v", i, c.Send, c.Reason, compared[i], ch)
			}
			suppressed = suppressed || c.Reason == ReasonSuppressed
			// A change that writes nothing is left out of Diff.Changes:
			// its channels' reasons are then only counted per contact.
			if len(diff.Changes) > 0 && (c.Reason == ReasonSuppressed) != byList[i] {
				t.Fatalf("channel %d: PlanContact's reason %s, Compare's change %+v", i, c.Reason, ch)
			}
		}
		if suppressed != contains(diff.Suppressed, id) {
			t.Fatalf("PlanContact's reasons %s, %s; Compare counts suppressed %v", d.Channels[0].Reason, d.Channels[1].Reason, diff.Suppressed)
		}
	})
}
