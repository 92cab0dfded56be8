package provider_test

import (
	"fmt"
	"strings"
	"testing"

	"github.com/rms-labs/terraform-provider-rms/internal/acctest"
	"github.com/rms-labs/terraform-provider-rms/internal/emulator"
)

// An opt-out the resource has seen outlives the
// contact's stay in the list, and allow_resubscribe_ids allows once. Both
// run through the CLI (acctest.Workspace), as a pipeline does, so that
// the plan's words are read as a reviewer reads them.

// optOutContacts is a map of ids, each SUBSCRIBED to e-mail with an
// address.
func optOutContacts(ids ...string) map[string]listContact {
	out := map[string]listContact{}
	for _, id := range ids {
		out[id] = listContact{props: map[string]string{"email": id + "@example.com"}, email: "SUBSCRIBED"}
	}
	return out
}

// replaceImport is an rms_list_import that makes the list exactly ids
// (a REPLACE import removes every contact the file does not name).
func replaceImport(listID string, ids ...string) string {
	lines := []string{"originalId,email"}
	for _, id := range ids {
		lines = append(lines, id+","+id+"@example.com")
	}
	// It writes after the rms_list_contacts beside it: the final plan of
	// that resource refuses a list another resource changed since the plan.
	return importConfig(listID, "REPLACE", heredocContent(lines...), "depends_on = [rms_list_contacts.c]")
}

// mustApply applies the workspace, failing the test unless it succeeds.
func mustApply(t *testing.T, ws *acctest.Workspace, what string) string {
	t.Helper()
	out, code := ws.Run("apply", "-auto-approve", "-no-color")
	if code != 0 {
		t.Fatalf("%s: apply exited %d:\n%s", what, code, out)
	}
	return out
}

// optOut makes id's recipient unsubscribe from e-mail on the service's own
// call, outside Terraform.
func optOut(t *testing.T, env *acctest.Env, listID, id string) {
	t.Helper()
	env.MustDo(t, "PUT", "lists/"+listID+"/contacts/"+id+"/subscriptionstatus", map[string]any{"status": "UNSUBSCRIBED"}, nil)
}

// optOutFileConfig is an rms_list_contacts of contacts.csv.
func optOutFileConfig(listID string) string {
	return fmt.Sprintf(`
resource "rms_list_contacts" "c" {
  list_id     = %q
  source_file = "${path.module}/contacts.csv"
}
`, listID)
}

// optOutFile is contacts.csv naming ids, each SUBSCRIBED to e-mail.
func optOutFile(ids ...string) string {
	var b strings.Builder
	b.WriteString("originalId,email,email_status\n")
	for _, id := range ids {
		fmt.Fprintf(&b, "%s,%s@example.com,SUBSCRIBED\n", id, id)
	}
	return b.String()
}

// A recipient v-03 opts out; then v-03 leaves the list (a REPLACE import
// that does not name it, with its map key or file row removed first, or
// not); when the input names v-03 again, the apply adds it back
// UNSUBSCRIBED, and the plan said so. Before the fix the record forgot
// v-03 with the list and the apply created it SUBSCRIBED.
func TestAccListContactsOptOutOutlivesLeaving(t *testing.T) {
	acctest.SkipUnlessAcceptance(t)
	all := optOutContacts("v-01", "v-02", "v-03")
	mapInput := func(contacts map[string]listContact) func(*acctest.Workspace, string) string {
		return func(_ *acctest.Workspace, listID string) string { return listContactsConfig(listID, contacts, "") }
	}
	fileInput := func(ids ...string) func(*acctest.Workspace, string) string {
		return func(ws *acctest.Workspace, listID string) string {
			ws.Write("contacts.csv", optOutFile(ids...))
			return optOutFileConfig(listID)
		}
	}
	for _, tc := range []struct {
		name string
		// all names v-01 to v-03; left is the input while v-03 leaves the
		// list (by the REPLACE import beside it).
		all, left func(ws *acctest.Workspace, listID string) string
	}{
		{"REPLACE import", mapInput(all), mapInput(all)},
		{"map key removed, then REPLACE import", mapInput(all), mapInput(optOutContacts("v-01", "v-02"))},
		{"file cut, REPLACE import, file restored", fileInput("v-01", "v-02", "v-03"), fileInput("v-01", "v-02")},
	} {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			env := acctest.NewEnv(t, emulator.Options{})
			listID := newTestList(t, env)
			ws := acctest.NewWorkspace(t)
			ws.Configure(env, tc.all(ws, listID))
			mustApply(t, ws, "the create")
			optOut(t, env, listID, "v-03")

			ws.Configure(env, tc.left(ws, listID)+replaceImport(listID, "v-01", "v-02"))
			mustApply(t, ws, "v-03 leaves the list")
			if _, ok := listContactsOf(t, env, listID)["v-03"]; ok {
				t.Fatalf("v-03 is still in the list after the REPLACE import")
			}

			// v-03 is named again (it always was, in the first case).
			ws.Configure(env, tc.all(ws, listID)+replaceImport(listID, "v-01", "v-02"))
			plan, code := ws.Run("plan", "-no-color")
			if code != 0 {
				t.Fatalf("the plan exited %d:\n%s", code, plan)
			}
			if !acctest.Contains(plan, `1 re-added unsubscribed, as they opted out before they left the list`, `"v-03"`) {
				t.Errorf("the plan does not name v-03 as an opt-out kept:\n%s", plan)
			}
			mustApply(t, ws, "v-03 is named again")
			got := listContactsOf(t, env, listID)
			if c, ok := got["v-03"]; !ok || c.Status != "UNSUBSCRIBED" {
				t.Errorf("v-03 is %+v after the apply, want it in the list and UNSUBSCRIBED", c)
			}
			if got["v-01"].Status != "SUBSCRIBED" || got["v-02"].Status != "SUBSCRIBED" {
				t.Errorf("v-01 %s, v-02 %s; want both SUBSCRIBED", got["v-01"].Status, got["v-02"].Status)
			}
			// The opt-out kept is no drift.
			if out, code := ws.Run("plan", "-detailed-exitcode", "-no-color"); code != 0 {
				t.Errorf("the plan after the apply is not empty (exit %d):\n%s", code, out)
			}
		})
	}
}

// allow_resubscribe_ids works once: a typo is an error at plan that
// suggests the id meant; the right id re-subscribes m-03 once; an opt-out
// m-03 makes after that is honoured while the argument stays, and the plan
// names it. Before the fix the typo was ignored and the argument undid
// the second opt-out.
func TestAccListContactsResubscribeIDsOnce(t *testing.T) {
	acctest.SkipUnlessAcceptance(t)
	t.Parallel()
	env := acctest.NewEnv(t, emulator.Options{})
	listID := newTestList(t, env)
	contacts := optOutContacts("m-01", "m-02", "m-03")
	allowing := func(id string) string {
		return listContactsConfig(listID, contacts, fmt.Sprintf("  allow_resubscribe_ids = [%q]\n", id))
	}
	ws := acctest.NewWorkspace(t)
	ws.Configure(env, listContactsConfig(listID, contacts, ""))
	mustApply(t, ws, "the create")
	optOut(t, env, listID, "m-03")

	ws.Configure(env, allowing("m-O3"))
	out, code := ws.Run("plan", "-no-color")
	if code == 0 || !acctest.Contains(out, "Unknown contact in allow_resubscribe_ids", `"m-O3" is neither a contact of the input`, `Did you mean "m-03"?`) {
		t.Fatalf("the plan with the typo m-O3 exited %d, want an error naming it and m-03:\n%s", code, out)
	}
	if got := listContactsOf(t, env, listID)["m-03"].Status; got != "UNSUBSCRIBED" {
		t.Fatalf("m-03 is %s after the refused plan, want UNSUBSCRIBED", got)
	}

	ws.Configure(env, allowing("m-03"))
	mustApply(t, ws, "allow_resubscribe_ids = [m-03]")
	if got := listContactsOf(t, env, listID)["m-03"].Status; got != "SUBSCRIBED" {
		t.Fatalf("m-03 is %s after the apply that allows it, want SUBSCRIBED", got)
	}

	// m-03 opts out again; the argument stays.
	optOut(t, env, listID, "m-03")
	plan, code := ws.Run("plan", "-detailed-exitcode", "-no-color")
	if code != 0 {
		t.Errorf("the plan after m-03's second opt-out is not empty (exit %d):\n%s", code, plan)
	}
	if !acctest.Contains(plan, "Opt-outs kept in list "+listID, `1 opted out outside Terraform and stay unsubscribed`, `"m-03"`) {
		t.Errorf("the plan does not name m-03's opt-out as kept:\n%s", plan)
	}
	mustApply(t, ws, "the argument still in place")
	if got := listContactsOf(t, env, listID)["m-03"].Status; got != "UNSUBSCRIBED" {
		t.Errorf("m-03 is %s after an apply with allow_resubscribe_ids still in place, want its second opt-out kept (UNSUBSCRIBED)", got)
	}
}
