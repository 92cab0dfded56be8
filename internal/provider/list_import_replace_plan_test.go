package provider_test

import (
	"encoding/json"
	"fmt"
	"strings"
	"testing"

	"github.com/hashicorp/terraform-plugin-testing/helper/resource"
	"github.com/hashicorp/terraform-plugin-testing/knownvalue"
	"github.com/hashicorp/terraform-plugin-testing/plancheck"
	"github.com/hashicorp/terraform-plugin-testing/statecheck"
	"github.com/hashicorp/terraform-plugin-testing/tfjsonpath"

	"github.com/rms-labs/terraform-provider-rms/internal/acctest"
	"github.com/rms-labs/terraform-provider-rms/internal/emulator"
)

// replacePlanList is a list of 8 contacts, 3 of which ("keep-*") the
// REPLACE file of replacePlanConfig names: the import removes 5, of which
// gone-1 (e-mail) and gone-2 (both channels) opted out.
func replacePlanList(t *testing.T, env *acctest.Env) string {
	t.Helper()
	list := importList(t, env)
	var cs []emulator.Contact
	for i := 1; i <= 3; i++ {
		cs = append(cs, emulator.Contact{OriginalID: fmt.Sprintf("keep-%d", i), Properties: map[string]string{"email": fmt.Sprintf("keep%d@example.com", i)}})
	}
	for i := 1; i <= 5; i++ {
		c := emulator.Contact{OriginalID: fmt.Sprintf("gone-%d", i), Properties: map[string]string{"email": fmt.Sprintf("gone%d@example.com", i)}}
		switch i {
		case 1:
			c.Status = "UNSUBSCRIBED"
		case 2:
			c.Status, c.MobileStatus = "UNSUBSCRIBED", "UNSUBSCRIBED"
		}
		cs = append(cs, c)
	}
	seedContacts(t, env, list, cs...)
	return list
}

// replacePlanConfig is a REPLACE import of keep-1..3 and new-1 into list,
// with the suppression list sup, and limits the removal of 5 of 8 passes.
func replacePlanConfig(list, sup string) string {
	const file = "originalId,email\nkeep-1,keep1@example.com\nkeep-2,keep2@example.com\nkeep-3,keep3@example.com\nnew-1,new1@example.com\n"
	return fmt.Sprintf(`
resource "rms_list_import" "test" {
  list_id                 = %q
  type                    = "REPLACE"
  content                 = %q
  suppression_list_id     = %q
  max_unsubscribe_percent = 100
}
`, list, file, sup)
}

// importPlannedChangesOf reads planned_changes of rms_list_import.test out
// of `terraform show -json`: nil when the plan does not know it.
func importPlannedChangesOf(t *testing.T, showJSON string) map[string]any {
	t.Helper()
	var plan struct {
		ResourceChanges []struct {
			Address string `json:"address"`
			Change  struct {
				After map[string]any `json:"after"`
			} `json:"change"`
		} `json:"resource_changes"`
	}
	if err := json.Unmarshal([]byte(showJSON), &plan); err != nil {
		t.Fatalf("decoding terraform show -json: %v", err)
	}
	for _, rc := range plan.ResourceChanges {
		if rc.Address == importAddr {
			pc, _ := rc.Change.After["planned_changes"].(map[string]any)
			return pc
		}
	}
	t.Fatalf("the plan has no change of %s:\n%s", importAddr, showJSON)
	return nil
}

// plannedCount is the count at path (dot-separated) of planned_changes pc, or
// "unknown" when the plan leaves it out.
func plannedCount(pc map[string]any, path string) string {
	var v any = pc
	for _, k := range strings.Split(path, ".") {
		m, ok := v.(map[string]any)
		if !ok {
			return "unknown"
		}
		if v, ok = m[k]; !ok || v == nil {
			return "unknown"
		}
	}
	return fmt.Sprint(v)
}

// importsOf are the imports the service holds of list listID, and the
// account's import batches: what an upload would have made.
func importsOf(t *testing.T, env *acctest.Env, listID string) (imports, batches int) {
	t.Helper()
	var is, bs []map[string]any
	env.Inspect(t, "lists/"+listID+"/imports", &is)
	env.Inspect(t, "batches?type=IMPORT", &bs)
	return len(is), len(bs)
}

// TestAccListImportPlannedChanges_replaceSavedPlan: the saved plan of a
// REPLACE import that drops 5 of 8 contacts, 2 of them opt-outs the
// suppression list does not hold yet, carries those counts in
// planned_changes (what `terraform show -json` hands a policy), with the
// unsubscribe counts known zeros; applying that plan removes the 5 and
// copies the 2 opt-outs, and the state keeps the counts.
func TestAccListImportPlannedChanges_replaceSavedPlan(t *testing.T) {
	acctest.SkipUnlessAcceptance(t)
	t.Parallel()
	env := acctest.NewEnv(t, emulator.Options{})
	sup, list := importList(t, env), replacePlanList(t, env)
	ws := acctest.NewWorkspace(t)
	ws.Configure(env, replacePlanConfig(list, sup))
	pc := importPlannedChangesOf(t, savedPlanJSON(t, ws, "replace.tfplan"))
	for path, want := range map[string]string{
		"list_size": "8", "removed": "5", "opt_outs_copied": "2",
		"email.unsubscribed": "0", "mobile.unsubscribed": "0",
		"email.unsubscribed_by_exclusive": "0", "mobile.unsubscribed_by_exclusive": "0",
	} {
		if got := plannedCount(pc, path); got != want {
			t.Errorf("the saved plan's planned_changes.%s is %s, want %s (planned_changes: %v)", path, got, want, pc)
		}
	}
	if out, code := ws.Run("apply", "-no-color", "replace.tfplan"); code != 0 {
		t.Fatalf("applying the saved plan exited %d:\n%s", code, out)
	}
	got := listContactsOf(t, env, list)
	if len(got) != 4 {
		t.Errorf("list %s holds %d contacts after the REPLACE, want keep-1..3 and new-1: %v", list, len(got), got)
	}
	suppressed := listContactsOf(t, env, sup)
	if c := suppressed["gone-1"]; len(suppressed) != 2 || c.Status != "UNSUBSCRIBED" || suppressed["gone-2"].MobileStatus != "UNSUBSCRIBED" {
		t.Errorf("the suppression list holds %+v, want the 2 opt-outs the plan counted (gone-1, gone-2)", suppressed)
	}
	st, ok := ws.Instance("rms_list_import", "test")
	if !ok {
		t.Fatal("no rms_list_import.test in the state")
	}
	saved, _ := st.Attributes["planned_changes"].(map[string]any)
	if plannedCount(saved, "removed") != "5" || plannedCount(saved, "opt_outs_copied") != "2" {
		t.Errorf("the state keeps planned_changes %v, want removed 5 and opt_outs_copied 2", saved)
	}
}

// TestAccListImport_replaceListChangedSincePlan: when the list changes
// between `terraform plan -out` and `terraform apply PLANFILE` in what a
// REPLACE import removes (a sign-up its file does not name; an opt-out of
// a contact it removes), Terraform's own check of the plan it makes again
// inside the apply refuses the apply ("Provider produced inconsistent
// final plan"), before the import is created: the service holds no import
// and no import batch, the list and the suppression list are untouched.
func TestAccListImport_replaceListChangedSincePlan(t *testing.T) {
	acctest.SkipUnlessAcceptance(t)
	t.Parallel()
	for _, tc := range []struct {
		name   string
		change func(t *testing.T, env *acctest.Env, list string)
		field  string
	}{
		{
			name: "sign-up",
			change: func(t *testing.T, env *acctest.Env, list string) {
				seedContacts(t, env, list, emulator.Contact{OriginalID: "late", Properties: map[string]string{"email": "late@example.com"}})
			},
			field: ".planned_changes.list_size",
		},
		{
			name: "opt-out",
			change: func(t *testing.T, env *acctest.Env, list string) {
				env.MustDo(t, "PUT", "lists/"+list+"/contacts/gone-3/subscriptionstatus", map[string]any{"status": "UNSUBSCRIBED"}, nil)
			},
			field: ".planned_changes.opt_outs_copied",
		},
	} {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			env := acctest.NewEnv(t, emulator.Options{})
			sup, list := importList(t, env), replacePlanList(t, env)
			ws := acctest.NewWorkspace(t)
			ws.Configure(env, replacePlanConfig(list, sup))
			savedPlanJSON(t, ws, "replace.tfplan")
			tc.change(t, env, list)
			before := listContactsOf(t, env, list)
			out, code := ws.Run("apply", "-no-color", "replace.tfplan")
			if code == 0 || !acctest.Contains(out, "Provider produced inconsistent final plan", tc.field) {
				t.Fatalf("applying the saved plan after the list changed exited %d, want Terraform's refusal naming %s:\n%s", code, tc.field, out)
			}
			if imports, batches := importsOf(t, env, list); imports != 0 || batches != 0 {
				t.Errorf("the service holds %d imports of list %s and %d import batches, want none: the apply must stop before the import is created", imports, list, batches)
			}
			wantUploads(t, env, 0)
			if after := listContactsOf(t, env, list); len(after) != len(before) {
				t.Errorf("list %s holds %d contacts after the refused apply, %d before", list, len(after), len(before))
			}
			if s := listContactsOf(t, env, sup); len(s) != 0 {
				t.Errorf("the suppression list holds %v after the refused apply, want nothing copied", s)
			}
		})
	}
}

// TestAccListImportPlannedChanges_addKnownZeros: the plan of an ADD import
// (its file has no status column) carries its unsubscribe counts, the
// contacts it removes and the opt-outs it copies as known zeros, so a
// policy reading them passes it; what the service decides when the batch
// runs (created, subscribed, the list's size) stays unknown.
func TestAccListImportPlannedChanges_addKnownZeros(t *testing.T) {
	acctest.SkipUnlessAcceptance(t)
	env := acctest.NewEnv(t, emulator.Options{})
	list := importList(t, env)
	seedContacts(t, env, list, emulator.Contact{OriginalID: "a", Properties: map[string]string{"email": "a@example.com"}, Status: "UNSUBSCRIBED"})
	pc := tfjsonpath.New("planned_changes")
	zero := knownvalue.Int64Exact(0)
	resource.ParallelTest(t, resource.TestCase{
		ProtoV6ProviderFactories: acctest.ProviderFactories(),
		Steps: []resource.TestStep{{
			Config: env.Config(importConfig(list, "ADD", heredocContent("originalId,email", "a,a@example.com", "b,b@example.com"))),
			ConfigPlanChecks: resource.ConfigPlanChecks{PreApply: []plancheck.PlanCheck{
				plancheck.ExpectKnownValue(importAddr, pc.AtMapKey("email").AtMapKey("unsubscribed"), zero),
				plancheck.ExpectKnownValue(importAddr, pc.AtMapKey("mobile").AtMapKey("unsubscribed"), zero),
				plancheck.ExpectKnownValue(importAddr, pc.AtMapKey("email").AtMapKey("unsubscribed_by_exclusive"), zero),
				plancheck.ExpectKnownValue(importAddr, pc.AtMapKey("mobile").AtMapKey("unsubscribed_by_exclusive"), zero),
				plancheck.ExpectKnownValue(importAddr, pc.AtMapKey("removed"), zero),
				plancheck.ExpectKnownValue(importAddr, pc.AtMapKey("opt_outs_copied"), zero),
				plancheck.ExpectUnknownValue(importAddr, pc.AtMapKey("created")),
				plancheck.ExpectUnknownValue(importAddr, pc.AtMapKey("list_size")),
			}},
			ConfigStateChecks: []statecheck.StateCheck{
				statecheck.ExpectKnownValue(importAddr, pc.AtMapKey("email").AtMapKey("unsubscribed"), zero),
				statecheck.ExpectKnownValue(importAddr, pc.AtMapKey("removed"), zero),
				statecheck.ExpectKnownValue(importAddr, pc.AtMapKey("created"), knownvalue.Null()),
			},
			// a's opt-out is kept: an ADD import writes no status.
			Check: wantContacts(t, env, list, map[string]string{
				"a": "email=a@example.com UNSUBSCRIBED",
				"b": "email=b@example.com SUBSCRIBED",
			}),
		}},
	})
}

// TestAccListImport_replacementListChangedSincePlan: the same refusal when
// the saved plan replaces an earlier REPLACE import (its file changed):
// the list changed since the plan stops the apply before the new import is
// created, so the service holds only the earlier import and its batch. The
// earlier import has left the state (destroying an import only forgets
// it), and the next plan runs the file as a new import.
func TestAccListImport_replacementListChangedSincePlan(t *testing.T) {
	acctest.SkipUnlessAcceptance(t)
	t.Parallel()
	env := acctest.NewEnv(t, emulator.Options{})
	sup, list := importList(t, env), replacePlanList(t, env)
	ws := acctest.NewWorkspace(t)
	ws.Configure(env, replacePlanConfig(list, sup))
	if out, code := ws.Run("apply", "-auto-approve", "-no-color"); code != 0 {
		t.Fatalf("the first apply exited %d:\n%s", code, out)
	}
	ws.Configure(env, strings.Replace(replacePlanConfig(list, sup), "new-1,new1@example.com", "new-2,new2@example.com", 1))
	savedPlanJSON(t, ws, "replacement.tfplan")
	seedContacts(t, env, list, emulator.Contact{OriginalID: "late", Properties: map[string]string{"email": "late@example.com"}})
	out, code := ws.Run("apply", "-no-color", "replacement.tfplan")
	if code == 0 || !acctest.Contains(out, "Provider produced inconsistent final plan", ".planned_changes.list_size") {
		t.Fatalf("applying the saved replacement after the list changed exited %d, want Terraform's refusal:\n%s", code, out)
	}
	if imports, batches := importsOf(t, env, list); imports != 1 || batches != 1 {
		t.Errorf("the service holds %d imports of list %s and %d import batches, want the earlier one only", imports, list, batches)
	}
	wantUploads(t, env, 1)
	if _, ok := listContactsOf(t, env, list)["late"]; !ok {
		t.Error("late left the list: an import ran after the refusal")
	}
	if _, ok := ws.Instance("rms_list_import", "test"); ok {
		t.Error("the earlier import is still in the state; the docs say it has left it")
	}
	plan, code := ws.Run("plan", "-no-color")
	if code != 0 || !acctest.Contains(plan, "rms_list_import.test will be created") {
		t.Errorf("the plan after the refusal exited %d, want a new import:\n%s", code, plan)
	}
}
