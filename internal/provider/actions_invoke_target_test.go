package provider_test

import (
	"os"
	"strings"
	"testing"

	"github.com/rms-labs/terraform-provider-rms/internal/acctest"
	"github.com/rms-labs/terraform-provider-rms/internal/emulator"
)

// TestAccActionsInvokeTarget pins what Terraform 1.16's -invoke with
// -target does with this provider's actions when several resources trigger
// the same action: the targeted caller is refreshed, no other resource is
// read, the action runs once (not once per caller), and the state keeps its
// resources as they were. The export guide's recipe relies on it.
func TestAccActionsInvokeTarget(t *testing.T) {
	acctest.SkipUnlessAcceptance(t)
	acctest.RequireCLI(t, "-invoke with -target", "1.16.0", "")
	t.Parallel()
	env := acctest.NewEnv(t, emulator.Options{})
	ws := acctest.NewWorkspace(t)
	run := func(args ...string) string {
		t.Helper()
		out, code := ws.Run(append(args, "-auto-approve", "-no-color")...)
		if code != 0 {
			t.Fatalf("terraform %s exited %d:\n%s", strings.Join(args, " "), code, out)
		}
		return out
	}
	const routeGetList = "GET /rest/{customerid}/{collection}/{id}" // lists are a generic collection
	counts := func() (exports, listReads int64) {
		st := env.Emulator.Requests()
		return st.ByRoute[routeStartExport], st.ByRoute[routeGetList]
	}
	ws.Configure(env, `
resource "rms_list" "l" {
  count = 2
  name  = "list ${count.index}"
  lifecycle {
    action_trigger {
      events  = [before_destroy]
      actions = [action.rms_run_statistics_export.final]
    }
  }
}

action "rms_run_statistics_export" "final" {
  config {
    export_type = "LISTS"
    period      = "TODAY"
    output_path = "${path.module}/final.csv"
  }
}
`)
	run("apply")
	stateBefore, err := os.ReadFile(ws.Path("terraform.tfstate"))
	if err != nil {
		t.Fatal(err)
	}
	exports0, reads0 := counts()
	if exports0 != 0 {
		t.Fatalf("creating the lists started %d exports, want none", exports0)
	}

	out := run("apply", "-invoke=action.rms_run_statistics_export.final", "-target=rms_list.l[1]")
	exports1, reads1 := counts()
	if exports1-exports0 != 1 {
		t.Errorf("-invoke -target started %d exports, want 1 (the action once, not once per caller)\n%s", exports1-exports0, out)
	}
	if !strings.Contains(out, "rms_list.l[1]: Refreshing state") || strings.Contains(out, "rms_list.l[0]: Refreshing state") {
		t.Errorf("-target=rms_list.l[1] should refresh that list and no other:\n%s", out)
	}
	if reads1-reads0 != 1 {
		t.Errorf("-invoke -target read %d objects, want 1 (the targeted list)", reads1-reads0)
	}
	if got := readText(t, ws.Path("final.csv")); !strings.Contains(got, "list 0") || !strings.Contains(got, "list 1") {
		t.Errorf("the export does not hold both lists (it covers the account):\n%s", got)
	}

	stateAfter, err := os.ReadFile(ws.Path("terraform.tfstate"))
	if err != nil {
		t.Fatal(err)
	}
	if resources(t, stateAfter) != resources(t, stateBefore) {
		t.Errorf("invoking the action changed the resources in state:\nbefore %s\nafter %s", stateBefore, stateAfter)
	}
}
