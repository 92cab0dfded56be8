package provider_test

import (
	"fmt"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
	"github.com/hashicorp/terraform-plugin-testing/helper/resource"
	"github.com/hashicorp/terraform-plugin-testing/plancheck"
	"github.com/hashicorp/terraform-plugin-testing/terraform"
	"github.com/hashicorp/terraform-plugin-testing/tfversion"

	"github.com/rms-labs/terraform-provider-rms/internal/acctest"
	"github.com/rms-labs/terraform-provider-rms/internal/emulator"
)

// failedRowsFile has 4 rows, 2 of which the service refuses: row 3 has a
// field too many, row 5 no identity.
const failedRowsFile = "originalId,email\nc1,ada@example.com\nc2,grace@example.com,extra\nc3,linus@example.com\n,nobody@example.com\n"

// failedRowsNamed are the parts of a diagnostic that names them.
var failedRowsNamed = []string{
	"2 of 4 rows of the file could not be imported",
	"row 3: 3 fields where the header has 2",
	`row 5: the identity column "originalId" is empty`,
}

func failedRowsConfig(listID, extra string) string {
	return fmt.Sprintf(`
resource "rms_list_import" "test" {
  list_id = %q
  type    = "ADD"
  file    = "${path.module}/contacts.csv"
  %s
}
`, listID, extra)
}

// stateCount reads a count of the state file (JSON numbers decode as
// float64); -1 when it is null.
func stateCount(t *testing.T, inst acctest.StateInstance, name string) int64 {
	t.Helper()
	switch v := inst.Attributes[name].(type) {
	case nil:
		return -1
	case float64:
		return int64(v)
	default:
		t.Fatalf("%s = %#v, not a number", name, v)
		return 0
	}
}

// Rows the service refuses are never silent: with the default
// max_failed_rows (0), an import whose batch refused 2 of 4 rows is an
// error naming them; the import stays in the state, tainted, with its ids
// and counts; the next apply, with the file corrected, runs it as a new
// import.
func TestAccListImportResource_failedRowsRefused(t *testing.T) {
	acctest.SkipUnlessAcceptance(t)
	t.Parallel()
	env := acctest.NewEnv(t, emulator.Options{})
	list := importList(t, env)
	ws := acctest.NewWorkspace(t)
	ws.Configure(env, failedRowsConfig(list, ""))
	ws.Write("contacts.csv", failedRowsFile)

	out, code := ws.Run("apply", "-auto-approve", "-no-color")
	if code == 0 {
		t.Fatalf("an import that refused 2 rows applied:\n%s", out)
	}
	if want := append([]string{"Error: Import rows refused", "more than max_failed_rows (0) allows", "marks the new import", "as tainted"}, failedRowsNamed...); !acctest.Contains(out, want...) {
		t.Errorf("the error does not say %q:\n%s", want, out)
	}
	inst, ok := ws.Instance("rms_list_import", "test")
	if !ok {
		t.Fatalf("the refused import left the state; its import and batch would be orphaned")
	}
	if inst.Status != "tainted" {
		t.Errorf("the refused import is %q in the state, want tainted", inst.Status)
	}
	got := map[string]int64{"total": stateCount(t, inst, "total"), "processed": stateCount(t, inst, "processed"), "affected": stateCount(t, inst, "affected"), "failed": stateCount(t, inst, "failed")}
	if diff := cmp.Diff(map[string]int64{"total": 4, "processed": 4, "affected": 2, "failed": 2}, got); diff != "" {
		t.Errorf("counts in the state (-want +got):\n%s", diff)
	}
	firstImport, _ := inst.Attributes["import_id"].(string)
	if firstImport == "" || inst.Attributes["batch_id"] == nil {
		t.Errorf("the state lost the import's ids: import_id %v, batch_id %v", inst.Attributes["import_id"], inst.Attributes["batch_id"])
	}
	if diff := cmp.Diff(map[string]string{"c1": "email=ada@example.com SUBSCRIBED", "c3": "email=linus@example.com SUBSCRIBED"}, listContacts(t, env, list)); diff != "" {
		t.Errorf("contacts after the refused rows (-want +got):\n%s", diff)
	}

	// The file corrected: the tainted import is replaced by a new one.
	ws.Write("contacts.csv", "originalId,email\nc1,ada@example.com\nc2,grace@example.com\nc3,linus@example.com\nc4,nobody@example.com\n")
	if out, code := ws.Run("apply", "-auto-approve", "-no-color"); code != 0 {
		t.Fatalf("the corrected file did not apply:\n%s", out)
	}
	inst, _ = ws.Instance("rms_list_import", "test")
	if inst.Status != "" || stateCount(t, inst, "failed") != 0 || inst.Attributes["import_id"] == firstImport {
		t.Errorf("after the corrected file: status %q, failed %d, import_id %v (the refused one was %s); want a new import with no failed rows",
			inst.Status, stateCount(t, inst, "failed"), inst.Attributes["import_id"], firstImport)
	}
	if n := len(listContacts(t, env, list)); n != 4 {
		t.Errorf("the list holds %d contacts after the corrected file, want 4", n)
	}
}

// max_failed_rows = 2 accepts the 2 refused rows: the apply succeeds with a
// warning naming them, the state has the counts, and the next plan has
// nothing to do.
func TestAccListImportResource_failedRowsWithinLimit(t *testing.T) {
	acctest.SkipUnlessAcceptance(t)
	t.Parallel()
	env := acctest.NewEnv(t, emulator.Options{})
	list := importList(t, env)
	ws := acctest.NewWorkspace(t)
	ws.Configure(env, failedRowsConfig(list, "max_failed_rows = 2"))
	ws.Write("contacts.csv", failedRowsFile)

	out, code := ws.Run("apply", "-auto-approve", "-no-color")
	if code != 0 {
		t.Fatalf("an import within max_failed_rows failed:\n%s", out)
	}
	if want := append([]string{"Warning: Import rows refused", "max_failed_rows (2) allows them"}, failedRowsNamed...); !acctest.Contains(out, want...) {
		t.Errorf("the warning does not say %q:\n%s", want, out)
	}
	inst, _ := ws.Instance("rms_list_import", "test")
	if inst.Status != "" || stateCount(t, inst, "failed") != 2 || stateCount(t, inst, "affected") != 2 {
		t.Errorf("state: status %q, failed %d, affected %d; want an untainted import with 2 failed and 2 affected", inst.Status, stateCount(t, inst, "failed"), stateCount(t, inst, "affected"))
	}
	if out, code := ws.Run("plan", "-detailed-exitcode", "-no-color"); code != 0 {
		t.Errorf("the plan after an accepted import is not empty (exit %d):\n%s", code, out)
	}
}

// A service that reports no row counts (batch-sparse) is not held by the
// limit: the import applies and its counts stay null.
func TestAccListImportResource_failedRowsNotReported(t *testing.T) {
	acctest.SkipUnlessAcceptance(t)
	t.Parallel()
	env := acctest.NewEnv(t, emulator.Options{Wire: emulator.MustParseWire(emulator.WireBatchSparse)})
	list := importList(t, env)
	ws := acctest.NewWorkspace(t)
	ws.Configure(env, failedRowsConfig(list, ""))
	ws.Write("contacts.csv", failedRowsFile)

	out, code := ws.Run("apply", "-auto-approve", "-no-color")
	if code != 0 {
		t.Fatalf("an import whose batch reports no counts failed:\n%s", out)
	}
	if acctest.Contains(out, "Import rows refused") {
		t.Errorf("rows judged on a service that does not report them:\n%s", out)
	}
	inst, _ := ws.Instance("rms_list_import", "test")
	for _, name := range []string{"processed", "affected", "failed"} {
		if n := stateCount(t, inst, name); n != -1 {
			t.Errorf("%s = %d in the state, want null: the service did not report it", name, n)
		}
	}
}

// The action fails the same way, naming the rows, and says that invoking
// it again starts a new import.
func TestAccRunListImportAction_failedRowsRefused(t *testing.T) {
	acctest.SkipUnlessAcceptance(t)
	env := acctest.NewEnv(t, emulator.Options{})
	list := importList(t, env)
	config := func(limit string) string {
		return env.Config(fmt.Sprintf(`
action "rms_run_list_import" "seed" {
  config {
    list_id = %q
    type    = "ADD"
    content = %q
    %s
  }
}

resource "terraform_data" "pipeline" {
  triggers_replace = %q
  lifecycle {
    action_trigger {
      events  = [after_create]
      actions = [action.rms_run_list_import.seed]
    }
  }
}
`, list, failedRowsFile, limit, limit))
	}
	resource.ParallelTest(t, resource.TestCase{
		TerraformVersionChecks:   []tfversion.TerraformVersionCheck{acctest.SkipWithoutActions},
		ProtoV6ProviderFactories: acctest.ProviderFactories(),
		Steps: []resource.TestStep{
			{
				Config:      config(""),
				ExpectError: acctest.ExpectErrorParts(append(append([]string{"Import rows refused"}, failedRowsNamed...), "max_failed_rows (0)", "invoking the action again starts a new import")...),
			},
			{
				Config: config("max_failed_rows = 2"),
			},
		},
	})
}

// An import whose create wait timed out and whose resumed wait (an update)
// finds rows refused above the limit is an error that keeps the import in
// the state, with its counts; Terraform does not taint an update, so the
// next plan replaces it (the file runs again as a new import) unless the
// limit is raised to its failed rows, which keeps it as it is.
func TestAccListImportResource_failedRowsResumed(t *testing.T) {
	acctest.SkipUnlessAcceptance(t)
	clock := &pollClock{base: time.Now().UTC()}
	env := acctest.NewEnv(t, emulator.Options{Now: clock.Now, BatchPendingFor: time.Hour})
	clock.env = env
	list := importList(t, env)
	config := func(extra string) string {
		return env.Config(importConfig(list, "ADD", heredocContent("originalId,firstname", "x,Xavier", "broken"), "timeouts {\n    create = \"2s\"\n  }", extra))
	}
	resource.ParallelTest(t, resource.TestCase{
		ProtoV6ProviderFactories: acctest.ProviderFactories(),
		Steps: []resource.TestStep{
			{ // the create's wait is cut short: a warning, the batch kept
				Config:             config(""),
				ExpectNonEmptyPlan: true,
			},
			{ // the resumed wait sees the batch finish with 1 row refused
				PreConfig:   func() { clock.arm(3) },
				Config:      config(""),
				ExpectError: acctest.ExpectErrorParts("Import rows refused", "1 of 2 rows of the file could not be imported", "row 3: 1 field where the header has 2", "max_failed_rows (0)", "stays in the state with its counts", "the next plan runs the file again as a new import"),
			},
			{ // kept with its counts; the next plan runs the file again
				Config: config(""),
				Check: resource.ComposeTestCheckFunc(
					resource.TestCheckResourceAttr(importAddr, "failed", "1"),
					resource.TestCheckResourceAttr(importAddr, "affected", "1"),
					resource.TestCheckResourceAttr(importAddr, "status", "FINISHED"),
				),
				PlanOnly:           true,
				ExpectNonEmptyPlan: true,
				ConfigPlanChecks: resource.ConfigPlanChecks{PostApplyPreRefresh: []plancheck.PlanCheck{
					plancheck.ExpectResourceAction(importAddr, plancheck.ResourceActionDestroyBeforeCreate),
				}},
			},
			{ // the limit raised to the refused rows: kept, nothing imported again
				Config: config("max_failed_rows = 1"),
				ConfigPlanChecks: resource.ConfigPlanChecks{PreApply: []plancheck.PlanCheck{
					plancheck.ExpectResourceAction(importAddr, plancheck.ResourceActionUpdate),
				}},
				Check: func(*terraform.State) error { wantUploads(t, env, 1); return nil },
			},
		},
	})
}
