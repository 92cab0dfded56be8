package provider_test

import (
	"fmt"
	"reflect"
	"strings"
	"testing"

	"github.com/rms-labs/terraform-provider-rms/internal/acctest"
	"github.com/rms-labs/terraform-provider-rms/internal/emulator"
)

// Five plans of one configuration, made one after another against an
// account nobody changes, say the same thing: the same text, warnings
// word for word, and the same planned_changes in their JSON; the apply of
// the last does what they said; and then five plans in a row say "No
// changes" and warn of nothing. The configuration meets every rule of the
// one decision at once: a subscriber the suppression list holds, a
// recipient's opt-out kept, an opt-out an allowance re-subscribes, and a
// contact exclusive unsubscribes.
func TestAccListContactsFivePlansAgree(t *testing.T) {
	acctest.SkipUnlessAcceptance(t)
	t.Parallel()
	env := acctest.NewEnv(t, emulator.Options{})
	sup := newTestList(t, env)
	listID := newTestList(t, env)
	ws := acctest.NewWorkspace(t)
	ids := []string{"c-1", "c-2", "c-3", "c-4"}
	ws.Configure(env, suppressedListConfig(listID, sup, "", ids...))
	mustApply(t, ws, "the create")

	suppressAccountWide(t, env, sup, "c-1")
	optOut(t, env, listID, "c-2")
	optOut(t, env, listID, "c-3")
	seedContacts(t, env, listID, emulator.Contact{OriginalID: "x", Properties: map[string]string{"email": "x@example.com"}})
	ws.Configure(env, suppressedListConfig(listID, sup, "  exclusive = true\n  max_unsubscribe = 5\n  allow_resubscribe_ids = [\"c-3\"]\n", ids...))

	var first string
	var firstPC map[string]any
	for i := range 5 {
		out := withoutOverrides(planExit(t, ws, fmt.Sprintf("plan %d", i+1), 2, "-out", "tfplan"))
		pc := plannedChangesIn(t, ws, "tfplan", "rms_list_contacts.c")
		if i == 0 {
			first, firstPC = out, pc
			email, _ := pc["email"].(map[string]any)
			if pc["suppressed"] != float64(1) || pc["opt_outs_kept"] != float64(1) || email["subscribed"] != float64(1) || email["unsubscribed_by_exclusive"] != float64(1) {
				t.Fatalf("the first plan counts %v; want c-1 suppressed, c-2's opt-out kept, c-3 subscribed again, x unsubscribed by exclusive:\n%s", pc, out)
			}
			continue
		}
		if out != first {
			t.Errorf("plan %d says otherwise than plan 1:\n--- plan 1\n%s\n--- plan %d\n%s", i+1, first, i+1, out)
		}
		if !reflect.DeepEqual(pc, firstPC) {
			t.Errorf("plan %d's planned_changes %v differ from plan 1's %v", i+1, pc, firstPC)
		}
	}
	if out, code := ws.Run("apply", "-no-color", "tfplan"); code != 0 {
		t.Fatalf("the apply of the fifth plan exited %d:\n%s", code, out)
	}
	got := listContactsOf(t, env, listID)
	for id, want := range map[string]string{"c-1": "UNSUBSCRIBED", "c-2": "UNSUBSCRIBED", "c-3": "SUBSCRIBED", "c-4": "SUBSCRIBED", "x": "UNSUBSCRIBED"} {
		if got[id].Status != want {
			t.Errorf("%s is %s on e-mail after the apply, want %s as the plans said", id, got[id].Status, want)
		}
	}

	var after string
	for i := range 5 {
		out := withoutOverrides(planExit(t, ws, fmt.Sprintf("no-change plan %d", i+1), 0))
		// The only warning is the one of dev_overrides.
		if strings.Count(out, "Warning:") > 1 {
			t.Errorf("no-change plan %d warns:\n%s", i+1, out)
		}
		if i > 0 && out != after {
			t.Errorf("no-change plan %d says otherwise than the first:\n%s\n---\n%s", i+1, after, out)
		}
		after = out
	}
}

// withoutOverrides is a plan's output without the list of dev_overrides,
// which Terraform prints in no fixed order.
func withoutOverrides(out string) string {
	var kept []string
	for _, line := range strings.Split(out, "\n") {
		if !strings.HasPrefix(line, " - ") || !strings.Contains(line, "rms-labs/rms in ") {
			kept = append(kept, line)
		}
	}
	return strings.Join(kept, "\n")
}
