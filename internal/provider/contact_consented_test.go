package provider_test

import (
	"fmt"
	"strings"
	"testing"

	"github.com/rms-labs/terraform-provider-rms/internal/acctest"
	"github.com/rms-labs/terraform-provider-rms/internal/emulator"
)

// consentedContactsConfig is rms_contact.c for p1 and p2 of list listID,
// e-mail SUBSCRIBED (mobile left to the service), answering to suppression
// list sup; extra goes inside the block.
func consentedContactsConfig(listID, sup, firstname, extra string) string {
	return fmt.Sprintf(`
resource "rms_contact" "c" {
  for_each            = toset(["p1", "p2"])
  list_id             = %q
  original_id         = each.key
  properties          = { email = "${each.key}@example.com", firstname = %q }
  email_status        = "SUBSCRIBED"
  suppression_list_id = %q
%s}
`, listID, firstname, sup, extra)
}

// expectContactStatuses fails unless list listID holds each contact of want
// with its (e-mail, mobile) statuses.
func expectContactStatuses(t *testing.T, env *acctest.Env, listID, when string, want map[string][2]string) {
	t.Helper()
	for id, st := range want {
		if c := getContact(t, env, listID, id); c.Status != st[0] || c.MobileStatus != st[1] {
			t.Fatalf("%s: %s of list %s is %s/%s, want %s/%s", when, id, listID, c.Status, c.MobileStatus, st[0], st[1])
		}
	}
}

// An allowed re-subscription of rms_contact is remembered: p1 (suppressed
// on e-mail) and p2 (on both channels) are created unsubscribed there;
// allow_resubscribe = true re-subscribes their e-mail (the channel the
// configuration wants SUBSCRIBED; p2's mobile stays unsubscribed), and no
// later plan warns about it or undoes it, with the argument kept, removed,
// or an unrelated change made, until p1 opts out again, which is honoured.
// The suppression list's entries stay as they were. Before, removing
// allow_resubscribe planned to unsubscribe both again, as suppressed.
func TestAccContactResource_allowedResubscriptionRemembered(t *testing.T) {
	acctest.SkipUnlessAcceptance(t)
	t.Parallel()
	env := acctest.NewEnv(t, emulator.Options{})
	sup, list := newTestList(t, env), newTestList(t, env)
	seedContacts(t, env, sup,
		emulator.Contact{OriginalID: "p1", Properties: map[string]string{"email": "p1@example.com"}, Status: "UNSUBSCRIBED", MobileStatus: "SUBSCRIBED"},
		emulator.Contact{OriginalID: "p2", Properties: map[string]string{"email": "p2@example.com"}, Status: "UNSUBSCRIBED", MobileStatus: "UNSUBSCRIBED"},
	)
	ws := acctest.NewWorkspace(t)
	const allow = "  allow_resubscribe = true\n"
	noSuppressionWarning := func(out, when string) {
		t.Helper()
		if strings.Contains(out, "Suppressed contact") || strings.Contains(out, "Contact opted out") {
			t.Fatalf("%s: the plan warns about an allowed re-subscription:\n%s", when, out)
		}
	}

	ws.Configure(env, consentedContactsConfig(list, sup, "Pia", ""))
	mustApply(t, ws, "the create")
	expectContactStatuses(t, env, list, "created", map[string][2]string{"p1": {"UNSUBSCRIBED", "SUBSCRIBED"}, "p2": {"UNSUBSCRIBED", "UNSUBSCRIBED"}})

	ws.Configure(env, consentedContactsConfig(list, sup, "Pia", allow))
	mustApply(t, ws, "the allowed re-subscription")
	resubscribed := map[string][2]string{"p1": {"SUBSCRIBED", "SUBSCRIBED"}, "p2": {"SUBSCRIBED", "UNSUBSCRIBED"}}
	expectContactStatuses(t, env, list, "re-subscribed", resubscribed)
	noSuppressionWarning(planExit(t, ws, "the allowance kept", 0), "the allowance kept")

	ws.Configure(env, consentedContactsConfig(list, sup, "Pia", ""))
	noSuppressionWarning(planExit(t, ws, "the allowance removed", 2), "the allowance removed")
	mustApply(t, ws, "the allowance removed")
	expectContactStatuses(t, env, list, "the allowance removed", resubscribed)
	noSuppressionWarning(planExit(t, ws, "after the allowance", 0), "after the allowance")

	ws.Configure(env, consentedContactsConfig(list, sup, "Pat", ""))
	mustApply(t, ws, "an unrelated change")
	expectContactStatuses(t, env, list, "an unrelated change", resubscribed)

	// The suppression list still holds both: the allowance lifted nothing
	// account-wide.
	expectContactStatuses(t, env, sup, "the suppression list", map[string][2]string{"p1": {"UNSUBSCRIBED", "SUBSCRIBED"}, "p2": {"UNSUBSCRIBED", "UNSUBSCRIBED"}})

	// p1 opts out again: a new opt-out, honoured as the suppression list says.
	optOut(t, env, list, "p1")
	out := planExit(t, ws, "p1 opted out again", 0)
	if !strings.Contains(out, "Suppressed contact: not subscribed") || !strings.Contains(out, `Contact "p1" of list `+list) {
		t.Fatalf("the plan after p1 opted out again does not name it as suppressed:\n%s", out)
	}
	ws.Configure(env, consentedContactsConfig(list, sup, "Pia", ""))
	mustApply(t, ws, "a change after the new opt-out")
	expectContactStatuses(t, env, list, "after the new opt-out", map[string][2]string{"p1": {"UNSUBSCRIBED", "SUBSCRIBED"}, "p2": {"SUBSCRIBED", "UNSUBSCRIBED"}})
}
