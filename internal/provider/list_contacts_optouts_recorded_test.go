package provider_test

import (
	"testing"

	"github.com/rms-labs/terraform-provider-rms/internal/acctest"
	"github.com/rms-labs/terraform-provider-rms/internal/emulator"
)

// A kept opt-out is named on every plan until an apply
// has recorded it (a plan alone records nothing); after that a plan counts
// it in one line without naming it, and a plan with no change says
// nothing of it; a new opt-out is named again, alone. For a map, a file
// and an exclusive map. Before the fix every plan named every opt-out.
func TestAccListContactsOptOutsNamedUntilRecorded(t *testing.T) {
	acctest.SkipUnlessAcceptance(t)
	ids := func(n int) []string {
		out := []string{"r-01", "r-02", "r-03", "r-04"} // r-01 first: a map's warning titles name it, so no opt-out is r-01
		return out[:n]
	}
	mapInput := func(extra string) func(*acctest.Workspace, string, int) string {
		return func(_ *acctest.Workspace, listID string, n int) string {
			return listContactsConfig(listID, optOutContacts(ids(n)...), extra)
		}
	}
	for _, tc := range []struct {
		name   string
		config func(ws *acctest.Workspace, listID string, n int) string
	}{
		{"map", mapInput("")},
		{"file", func(ws *acctest.Workspace, listID string, n int) string {
			ws.Write("contacts.csv", optOutFile(ids(n)...))
			return optOutFileConfig(listID)
		}},
		{"exclusive map", mapInput("  exclusive = true\n")},
	} {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			env := acctest.NewEnv(t, emulator.Options{})
			listID := newTestList(t, env)
			ws := acctest.NewWorkspace(t)
			ws.Configure(env, tc.config(ws, listID, 3))
			mustApply(t, ws, "the create")
			optOut(t, env, listID, "r-02")

			plan := func(what string) string {
				t.Helper()
				out, code := ws.Run("plan", "-no-color")
				if code != 0 {
					t.Fatalf("%s: the plan exited %d:\n%s", what, code, out)
				}
				return out
			}
			// Named on every plan until an apply: a plan records nothing.
			for _, what := range []string{"the first plan after the opt-out", "a second plan"} {
				if out := plan(what); !acctest.Contains(out, "Opt-outs kept in list "+listID, `"r-02"`) {
					t.Errorf("%s does not name r-02 as an opt-out kept:\n%s", what, out)
				}
			}
			mustApply(t, ws, "the apply that records r-02")

			// Recorded: a plan with no change says nothing of it.
			out, code := ws.Run("plan", "-detailed-exitcode", "-no-color")
			if code != 0 {
				t.Errorf("the plan after the apply is not empty (exit %d):\n%s", code, out)
			}
			if acctest.Contains(out, "Opt-outs kept") || acctest.Contains(out, `"r-02"`) {
				t.Errorf("the no-change plan after the apply still warns of r-02:\n%s", out)
			}

			// A change: the recorded opt-out is counted, not named.
			ws.Configure(env, tc.config(ws, listID, 4))
			out = plan("the plan that adds r-04")
			if !acctest.Contains(out, "Changes to the contacts of list "+listID, `"r-04"`, "1 opt-out kept, recorded by earlier applies") || acctest.Contains(out, `"r-02"`) || acctest.Contains(out, "Opt-outs kept in list") {
				t.Errorf("the plan that adds r-04 does not count r-02 without naming it:\n%s", out)
			}
			// The apply names no opt-out its plan named or counted.
			if out := mustApply(t, ws, "r-04 added"); acctest.Contains(out, "Opt-outs honoured") {
				t.Errorf("the apply that adds r-04 names the recorded opt-out again:\n%s", out)
			}

			// A new opt-out is named, alone; the recorded one is counted.
			optOut(t, env, listID, "r-03")
			out = plan("the plan after r-03 opts out")
			if !acctest.Contains(out, "Opt-outs kept in list "+listID, `"r-03"`, "1 opt-out kept, recorded by earlier applies") || acctest.Contains(out, `"r-02"`) {
				t.Errorf("the plan after r-03's opt-out does not name r-03 alone and count r-02:\n%s", out)
			}
			mustApply(t, ws, "the apply that records r-03")
			got := listContactsOf(t, env, listID)
			if got["r-02"].Status != "UNSUBSCRIBED" || got["r-03"].Status != "UNSUBSCRIBED" || got["r-04"].Status != "SUBSCRIBED" {
				t.Errorf("the service holds r-02 %s, r-03 %s, r-04 %s; want both opt-outs kept and r-04 SUBSCRIBED", got["r-02"].Status, got["r-03"].Status, got["r-04"].Status)
			}
			if out, _ := ws.Run("plan", "-no-color"); acctest.Contains(out, "Opt-outs kept") {
				t.Errorf("the no-change plan after both were recorded still warns:\n%s", out)
			}
		})
	}
}
