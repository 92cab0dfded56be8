package provider_test

import (
	"fmt"
	"strings"
	"testing"

	"github.com/rms-labs/terraform-provider-rms/internal/acctest"
	"github.com/rms-labs/terraform-provider-rms/internal/emulator"
)

// suppressedListConfig is rms_list_contacts.c of list listID with e-mail
// subscribers ids, answering to suppression list sup; extra goes inside
// the block.
func suppressedListConfig(listID, sup, extra string, ids ...string) string {
	return listContactsConfig(listID, optOutContacts(ids...), fmt.Sprintf("  suppression_list_id = %q\n%s", sup, extra))
}

// suppressAccountWide puts ids into the suppression list sup, unsubscribed
// from e-mail, as the apply of another list's resource records its
// recipients' opt-outs.
func suppressAccountWide(t *testing.T, env *acctest.Env, sup string, ids ...string) {
	t.Helper()
	for _, id := range ids {
		seedContacts(t, env, sup, emulator.Contact{OriginalID: id, Properties: map[string]string{"email": id + "@example.com"}, Status: "UNSUBSCRIBED", MobileStatus: "SUBSCRIBED"})
	}
}

// planExit runs terraform plan with -detailed-exitcode and args, and fails
// unless it exits want (0: no changes, 2: changes).
func planExit(t *testing.T, ws *acctest.Workspace, what string, want int, args ...string) string {
	t.Helper()
	out, code := ws.Run(append([]string{"plan", "-detailed-exitcode", "-no-color"}, args...)...)
	if code != want {
		t.Fatalf("%s: the plan exited %d, want %d:\n%s", what, code, want, out)
	}
	return out
}

// A contact the suppression list holds that the list shows subscribed is
// unsubscribed by the next apply although the configuration changes
// nothing: the refresh finds it (suppressed_subscribed), the plan is an
// update that counts it under suppressed only (not as an unsubscription
// the input asked for), and a suppressed contact already unsubscribed in
// the list counts as suppressed, not as a kept opt-out. After the apply the
// plan is empty and warns of nothing: the unsubscriptions the suppression
// list made are not taken for recipients' opt-outs. Before, every plan
// said "No changes" and the people kept receiving mail.
func TestAccListContactsSuppressedSubscribedUnsubscribed(t *testing.T) {
	acctest.SkipUnlessAcceptance(t)
	t.Parallel()
	env := acctest.NewEnv(t, emulator.Options{})
	sup := newTestList(t, env)
	listID := newTestList(t, env)
	ws := acctest.NewWorkspace(t)
	ws.Configure(env, suppressedListConfig(listID, sup, "", "c-1", "c-2", "c-3", "c-4"))
	mustApply(t, ws, "the create")

	// c-1 and c-2 opted out of another list (its apply recorded them);
	// c-3 opted out here as well.
	suppressAccountWide(t, env, sup, "c-1", "c-2", "c-3")
	optOut(t, env, listID, "c-3")

	out := planExit(t, ws, "the plan after the suppression list learnt of them", 2, "-out", "tfplan")
	if !acctest.Contains(out, "suppressed_subscribed", "to unsubscribe on a channel the suppression list holds them on", `"c-1"`, `"c-2"`) {
		t.Errorf("the plan does not name c-1 and c-2 as suppressed unsubscriptions:\n%s", out)
	}
	pc := plannedChangesIn(t, ws, "tfplan", "rms_list_contacts.c")
	email, _ := pc["email"].(map[string]any)
	if pc["suppressed"] != float64(3) || pc["opt_outs_kept"] != float64(0) || email["unsubscribed"] != float64(0) {
		t.Errorf("planned_changes: suppressed %v, opt_outs_kept %v, email.unsubscribed %v; want 3, 0, 0 (one reason per contact)", pc["suppressed"], pc["opt_outs_kept"], email["unsubscribed"])
	}
	if out, code := ws.Run("apply", "-no-color", "tfplan"); code != 0 {
		t.Fatalf("the apply of the saved plan exited %d:\n%s", code, out)
	}
	got := listContactsOf(t, env, listID)
	for id, want := range map[string]string{"c-1": "UNSUBSCRIBED", "c-2": "UNSUBSCRIBED", "c-3": "UNSUBSCRIBED", "c-4": "SUBSCRIBED"} {
		if got[id].Status != want {
			t.Errorf("%s is %s on e-mail after the apply, want %s", id, got[id].Status, want)
		}
	}
	out = planExit(t, ws, "the plan after the apply", 0)
	// (The only warning is the one of dev_overrides.)
	if acctest.Contains(out, "Opt-outs kept") || acctest.Contains(out, "suppressed account-wide") || strings.Count(out, "Warning:") > 1 {
		t.Errorf("the no-change plan after the apply warns:\n%s", out)
	}
}

// A re-subscription allow_resubscribe_ids allowed is remembered: no later
// plan warns about it or undoes it, when another contact is added, nor
// when the id leaves the argument as the docs say to do; a new opt-out of
// the recipient is honoured again. Before, every plan warned that it would
// unsubscribe the member, and the next change did.
func TestAccListContactsAllowedResubscriptionKept(t *testing.T) {
	acctest.SkipUnlessAcceptance(t)
	t.Parallel()
	env := acctest.NewEnv(t, emulator.Options{})
	sup := newTestList(t, env)
	listID := newTestList(t, env)
	suppressAccountWide(t, env, sup, "mem-2")
	ws := acctest.NewWorkspace(t)
	ws.Configure(env, suppressedListConfig(listID, sup, "", "mem-1", "mem-2"))
	mustApply(t, ws, "the create")
	if got := listContactsOf(t, env, listID)["mem-2"].Status; got != "UNSUBSCRIBED" {
		t.Fatalf("the suppressed mem-2 was created %s, want UNSUBSCRIBED", got)
	}

	// mem-2 agreed to be subscribed again.
	ws.Configure(env, suppressedListConfig(listID, sup, `  allow_resubscribe_ids = ["mem-2"]`, "mem-1", "mem-2"))
	mustApply(t, ws, "the allowed re-subscription")
	subscribed := func(what string) {
		t.Helper()
		if got := listContactsOf(t, env, listID)["mem-2"].Status; got != "SUBSCRIBED" {
			t.Errorf("%s: mem-2 is %s, want SUBSCRIBED", what, got)
		}
	}
	subscribed("after the allowed re-subscription")
	if out := planExit(t, ws, "the plan after the re-subscription", 0); acctest.Contains(out, "mem-2") {
		t.Errorf("the no-change plan names mem-2:\n%s", out)
	}

	ws.Configure(env, suppressedListConfig(listID, sup, `  allow_resubscribe_ids = ["mem-2"]`, "mem-1", "mem-2", "mem-3"))
	if out := mustApply(t, ws, "an unrelated contact added"); acctest.Contains(out, `"mem-2"`) {
		t.Errorf("the apply that adds mem-3 names mem-2:\n%s", out)
	}
	subscribed("after an unrelated contact was added")

	ws.Configure(env, suppressedListConfig(listID, sup, "", "mem-1", "mem-2", "mem-3"))
	// (The argument's own diff shows the id: no warning may.)
	if out := planExit(t, ws, "the plan that drops allow_resubscribe_ids", 2); acctest.Contains(out, "Warning: ") && acctest.Contains(out, "to unsubscribe") {
		t.Errorf("the plan that drops allow_resubscribe_ids plans to unsubscribe someone:\n%s", out)
	}
	mustApply(t, ws, "allow_resubscribe_ids dropped")
	subscribed("after allow_resubscribe_ids was dropped")
	planExit(t, ws, "the plan after allow_resubscribe_ids was dropped", 0)

	// A new opt-out ends the consent: the suppression entry holds again.
	optOut(t, env, listID, "mem-2")
	mustApply(t, ws, "the apply after mem-2 opted out again")
	ws.Configure(env, suppressedListConfig(listID, sup, "", "mem-1", "mem-2", "mem-3", "mem-4"))
	mustApply(t, ws, "another contact added after the opt-out")
	if got := listContactsOf(t, env, listID)["mem-2"].Status; got != "UNSUBSCRIBED" {
		t.Errorf("mem-2 opted out again and is %s, want UNSUBSCRIBED", got)
	}
}

// retiredListConfig is an unprotected rms_list named name with an
// exclusive rms_list_contacts of ids, both answering to suppression list
// sup.
func retiredListConfig(name, sup string, ids ...string) string {
	return fmt.Sprintf(`
resource "rms_list" %[1]q {
  name                = %[1]q
  suppression_list_id = %[2]q
  deletion_protection = false
}
`, name, sup) + strings.Replace(
		suppressedListConfig("LIST", sup, "  exclusive = true\n", ids...),
		`list_id = "LIST"`, "list_id = rms_list."+name+".id", 1)
}

// Retiring a list records only recipients' opt-outs: an unprotected
// rms_list and its exclusive rms_list_contacts leave the configuration in
// one apply; the list's delete takes the contacts resource's consent
// record over, so the two contacts exclusive unsubscribed (they left the
// CRM export) do not enter the suppression list, while the recipient who
// opted out does. One of them comes back in a later export and is created
// subscribed. Before, the delete copied every unsubscribed channel, and
// the returning contact was created unsubscribed though nobody opted out.
func TestAccListRetiredCopiesRecipientsOptOutsOnly(t *testing.T) {
	acctest.SkipUnlessAcceptance(t)
	t.Parallel()
	env := acctest.NewEnv(t, emulator.Options{})
	sup := newTestList(t, env)
	ws := acctest.NewWorkspace(t)
	ws.Configure(env, retiredListConfig("news", sup, "c-1", "c-2", "c-3", "x-1", "x-2"))
	mustApply(t, ws, "the create")
	news, ok := ws.Instance("rms_list", "news")
	if !ok {
		t.Fatal("rms_list.news is not in the state")
	}
	listID := fmt.Sprint(news.Attributes["id"])

	// x-1 and x-2 left the CRM export; c-3 opted out on their own.
	optOut(t, env, listID, "c-3")
	ws.Configure(env, retiredListConfig("news", sup, "c-1", "c-2", "c-3"))
	mustApply(t, ws, "the export without x-1 and x-2")
	got := listContactsOf(t, env, listID)
	if got["x-1"].Status != "UNSUBSCRIBED" || got["x-2"].Status != "UNSUBSCRIBED" {
		t.Fatalf("exclusive did not unsubscribe x-1 and x-2: %+v %+v", got["x-1"], got["x-2"])
	}

	ws.Configure(env, `# the list is retired`)
	mustApply(t, ws, "the list retired")
	held := listContactsOf(t, env, sup)
	if held["c-3"].Status != "UNSUBSCRIBED" {
		t.Errorf("the suppression list does not hold c-3's opt-out: %+v", held)
	}
	for _, id := range []string{"x-1", "x-2"} {
		if c, ok := held[id]; ok {
			t.Errorf("the suppression list holds %s (%s/%s), whom exclusive unsubscribed: nobody opted out", id, c.Status, c.MobileStatus)
		}
	}

	ws.Configure(env, retiredListConfig("next", sup, "c-3", "x-1"))
	mustApply(t, ws, "the next export")
	next, _ := ws.Instance("rms_list", "next")
	got = listContactsOf(t, env, fmt.Sprint(next.Attributes["id"]))
	if got["x-1"].Status != "SUBSCRIBED" || got["c-3"].Status != "UNSUBSCRIBED" {
		t.Errorf("the new list holds x-1 %s and c-3 %s; want x-1 SUBSCRIBED (never opted out) and c-3 UNSUBSCRIBED", got["x-1"].Status, got["c-3"].Status)
	}
}
