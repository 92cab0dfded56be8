package provider_test

import (
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"

	"github.com/rms-labs/terraform-provider-rms/internal/acctest"
	"github.com/rms-labs/terraform-provider-rms/internal/emulator"
)

// policyGoldenDir holds the plans the example policy's `opa test` runs on,
// one folder per plan (opa merges the JSON files of a folder into one
// document).
const policyGoldenDir = "../../examples/policies/testdata"

// policyPlanChange is one resource change of `terraform show -json`, cut
// to what examples/policies reads.
type policyPlanChange struct {
	Address string `json:"address"`
	Type    string `json:"type"`
	Change  struct {
		Actions      []string       `json:"actions"`
		After        map[string]any `json:"after"`
		AfterUnknown map[string]any `json:"after_unknown"`
	} `json:"change"`
}

// policyPlan is a plan's JSON cut to what the policy reads of each change
// (other resources' changes stay, without their values: the policy must
// ignore them).
type policyPlan struct {
	ResourceChanges []policyPlanChange `json:"resource_changes"`
}

// keepOnly returns m with key alone (m is nil when the change has no
// after, as a delete's); the key is left out when m does not hold it, as
// `terraform show -json` leaves an unknown value out of after.
func keepOnly(m map[string]any, key string) map[string]any {
	if m == nil {
		return nil
	}
	out := map[string]any{}
	if v, ok := m[key]; ok {
		out[key] = v
	}
	return out
}

// cutPolicyPlan keeps of a `terraform show -json` document what the
// policy reads, with the ids of this run (such as the list's) replaced by
// fixed names so the golden does not change from run to run.
func cutPolicyPlan(t *testing.T, showJSON string, ids map[string]string) []byte {
	t.Helper()
	var full policyPlan
	dec := json.NewDecoder(strings.NewReader(showJSON))
	dec.UseNumber()
	if err := dec.Decode(&full); err != nil {
		t.Fatalf("decoding terraform show -json: %v\n%s", err, showJSON)
	}
	cut := policyPlan{ResourceChanges: []policyPlanChange{}}
	for _, rc := range full.ResourceChanges {
		rc.Change.After = renameIDs(keepOnly(rc.Change.After, "planned_changes"), ids)
		rc.Change.AfterUnknown = keepOnly(rc.Change.AfterUnknown, "planned_changes")
		cut.ResourceChanges = append(cut.ResourceChanges, rc)
	}
	out, err := json.MarshalIndent(cut, "", "  ")
	if err != nil {
		t.Fatal(err)
	}
	return append(out, '\n')
}

// renameIDs replaces every string value of m that is one of ids' keys by
// its fixed name; numbers are left alone, so an id such as "1" does not
// touch a count.
func renameIDs(m map[string]any, ids map[string]string) map[string]any {
	var walk func(v any) any
	walk = func(v any) any {
		switch x := v.(type) {
		case string:
			if name, ok := ids[x]; ok {
				return name
			}
		case map[string]any:
			for k, e := range x {
				x[k] = walk(e)
			}
		case []any:
			for i, e := range x {
				x[i] = walk(e)
			}
		}
		return v
	}
	if m == nil {
		return nil
	}
	walk(m)
	return m
}

// checkPolicyGolden compares a cut plan with its golden file, or rewrites
// the file when RMS_UPDATE_GOLDEN=1. JSON is compared as values: the
// layout of a hand-edited golden does not matter.
func checkPolicyGolden(t *testing.T, name string, got []byte) {
	t.Helper()
	path := filepath.Join(policyGoldenDir, name, "plan.json")
	if os.Getenv("RMS_UPDATE_GOLDEN") == "1" {
		if err := os.WriteFile(path, got, 0o600); err != nil {
			t.Fatalf("writing the golden plan %s: %v", path, err)
		}
		t.Logf("wrote %s", path)
		return
	}
	want, err := os.ReadFile(path)
	if err != nil {
		t.Fatalf("reading the golden plan %s: %v (RMS_UPDATE_GOLDEN=1 writes it)", path, err)
	}
	var g, w any
	if err := json.Unmarshal(got, &g); err != nil {
		t.Fatal(err)
	}
	if err := json.Unmarshal(want, &w); err != nil {
		t.Fatalf("decoding the golden plan %s: %v", path, err)
	}
	if !reflect.DeepEqual(g, w) {
		t.Errorf("the golden plan %s is stale: run this test with RMS_UPDATE_GOLDEN=1, check the diff and make policy-test, and commit it; the plan now gives:\n%s", path, got)
	}
}

// savedPlanJSON makes a saved plan named file and returns `terraform show
// -json` of it, as a pipeline hands it to a policy.
func savedPlanJSON(t *testing.T, ws *acctest.Workspace, file string) string {
	t.Helper()
	if out, code := ws.Run("plan", "-no-color", "-out="+file); code != 0 {
		t.Fatalf("terraform plan -out=%s exited %d:\n%s", file, code, out)
	}
	cmd := ws.Start("show", "-json", file)
	out, code := cmd.Wait()
	if code != 0 {
		t.Fatalf("terraform show -json %s exited %d:\n%s", file, code, out)
	}
	return out
}

// policyListConfig is rms_list_contacts.members reading contacts.csv into
// the list listRef (a quoted id or an expression).
func policyListConfig(listRef string) string {
	return fmt.Sprintf(`
resource "rms_list_contacts" "members" {
  list_id     = %s
  source_file = "${path.module}/contacts.csv"
}
`, listRef)
}

// TestAccPlanPolicyGolden makes, through the real CLI, the saved plans the
// example policy of examples/policies is tested on (opa test, make
// policy-test), and holds examples/policies/testdata to them: a changed
// file that unsubscribes 1 of 10 contacts (the policy holds it), one that
// only creates contacts (it passes), one whose list id is known only
// during the apply (its counts are unknown: held), an ADD import (its
// unsubscribe counts are known zeros: it passes), a REPLACE import that
// removes 5 of 8 contacts (held), and a re-subscription that
// allow_resubscribe_ids allows (counted). The held plan is then applied:
// the service shows the count the plan carried.
func TestAccPlanPolicyGolden(t *testing.T) {
	acctest.SkipUnlessAcceptance(t)
	t.Parallel()
	env := acctest.NewEnv(t, emulator.Options{})
	listID := newTestList(t, env)
	ids := map[string]string{listID: "LIST_ID"}

	ws := acctest.NewWorkspace(t)
	ws.Configure(env, policyListConfig(fmt.Sprintf("%q", listID)))
	var ten [][3]string
	for i := 1; i <= 10; i++ {
		ten = append(ten, [3]string{fmt.Sprintf("p-%02d", i), fmt.Sprintf("Name%d", i), "SUBSCRIBED"})
	}
	ws.Write("contacts.csv", summaryRows(ten))
	if out, code := ws.Run("apply", "-auto-approve", "-no-color"); code != 0 {
		t.Fatalf("the first apply exited %d:\n%s", code, out)
	}

	// (b) five rows added, nobody unsubscribed.
	more := append([][3]string{}, ten...)
	for i := 11; i <= 15; i++ {
		more = append(more, [3]string{fmt.Sprintf("p-%02d", i), fmt.Sprintf("Name%d", i), "SUBSCRIBED"})
	}
	ws.Write("contacts.csv", summaryRows(more))
	checkPolicyGolden(t, "passed", cutPolicyPlan(t, savedPlanJSON(t, ws, "passed.tfplan"), ids))

	// (a) p-03 set UNSUBSCRIBED in the file: 1 of 10 on e-mail.
	held := append([][3]string{}, ten...)
	held[2][2] = "UNSUBSCRIBED"
	ws.Write("contacts.csv", summaryRows(held))
	heldJSON := cutPolicyPlan(t, savedPlanJSON(t, ws, "held.tfplan"), ids)
	checkPolicyGolden(t, "held", heldJSON)

	// (c) the list id comes from a value Terraform knows only during the
	// apply, so the plan cannot count.
	unknownWS := acctest.NewWorkspace(t)
	unknownWS.Configure(env, fmt.Sprintf(`
resource "terraform_data" "list" {
  input = %q
}
`, listID)+policyListConfig("terraform_data.list.output"))
	unknownWS.Write("contacts.csv", summaryRows(ten))
	checkPolicyGolden(t, "unknown", cutPolicyPlan(t, savedPlanJSON(t, unknownWS, "unknown.tfplan"), ids))

	// The counts of the held plan are what its apply does on the service.
	var plan struct {
		ResourceChanges []struct {
			Change struct {
				After struct {
					PlannedChanges *struct {
						Email struct {
							Unsubscribed int `json:"unsubscribed"`
						} `json:"email"`
					} `json:"planned_changes"`
				} `json:"after"`
			} `json:"change"`
		} `json:"resource_changes"`
	}
	if err := json.Unmarshal(heldJSON, &plan); err != nil {
		t.Fatal(err)
	}
	planned := -1
	if len(plan.ResourceChanges) == 1 && plan.ResourceChanges[0].Change.After.PlannedChanges != nil {
		planned = plan.ResourceChanges[0].Change.After.PlannedChanges.Email.Unsubscribed
	}
	if out, code := ws.Run("apply", "-no-color", "held.tfplan"); code != 0 {
		t.Fatalf("applying the held plan exited %d:\n%s", code, out)
	}
	unsubscribed := 0
	for _, c := range listContactsOf(t, env, listID) {
		if c.Status == "UNSUBSCRIBED" {
			unsubscribed++
		}
	}
	if unsubscribed != 1 || planned != unsubscribed {
		t.Errorf("the held plan carried %d unsubscribed on e-mail (-1: none); the service holds %d unsubscribed after its apply, want 1 and equal", planned, unsubscribed)
	}

	// (f) p-05 opts out outside Terraform; allow_resubscribe_ids brings it
	// back: a re-subscription, counted under email.subscribed.
	env.MustDo(t, "PUT", "lists/"+listID+"/contacts/p-05/subscriptionstatus", map[string]any{"status": "UNSUBSCRIBED"}, nil)
	ws.Configure(env, strings.Replace(policyListConfig(fmt.Sprintf("%q", listID)), "source_file", "allow_resubscribe_ids = [\"p-05\"]\n  source_file", 1))
	checkPolicyGolden(t, "resubscribed", cutPolicyPlan(t, savedPlanJSON(t, ws, "resubscribed.tfplan"), ids))

	// (d) an ADD import into the list: nobody unsubscribed or removed.
	addWS := acctest.NewWorkspace(t)
	addWS.Configure(env, fmt.Sprintf(`
resource "rms_list_import" "add" {
  list_id = %q
  type    = "ADD"
  content = "originalId,firstname\np-11,Name11\np-12,Name12\n"
}
`, listID))
	checkPolicyGolden(t, "import_add", cutPolicyPlan(t, savedPlanJSON(t, addWS, "add.tfplan"), ids))

	// (e) a REPLACE import that removes 5 of 8 contacts, 2 of them opt-outs
	// the suppression list does not hold yet: within the resource's own
	// guardrail (max_unsubscribe_percent = 100), above the policy's limit.
	replaceList, sup := replacePlanList(t, env), importList(t, env)
	replaceWS := acctest.NewWorkspace(t)
	replaceWS.Configure(env, replacePlanConfig(replaceList, sup))
	checkPolicyGolden(t, "import_replace", cutPolicyPlan(t, savedPlanJSON(t, replaceWS, "replace.tfplan"), map[string]string{replaceList: "LIST_ID"}))
}
