package provider_test

import (
	"fmt"
	"net/http"
	"os"
	"strings"
	"testing"

	"github.com/rms-labs/terraform-provider-rms/internal/acctest"
	"github.com/rms-labs/terraform-provider-rms/internal/emulator"
)

// The apply never exceeds what the plan showed: `terraform plan -out`, the
// CSV rewritten, then `terraform apply PLANFILE`. Terraform 1.11 plans each
// resource again inside the apply and compares with the saved plan before
// the provider's apply runs; these tests pin what the user sees there and
// that nothing reaches the service.

// writes counts the requests that can change the service.
func writes(env *acctest.Env) int64 {
	by := env.Emulator.Requests().ByMethod
	return by[http.MethodPost] + by[http.MethodPut] + by[http.MethodDelete] + by[http.MethodPatch]
}

// savedPlanRows is a source file of the ids given, each with a first name
// made of prefix and id, all subscribed.
func savedPlanRows(prefix string, ids ...string) string {
	var b strings.Builder
	b.WriteString("originalId;firstname;email_status\n")
	for _, id := range ids {
		fmt.Fprintf(&b, "%s;%s %s;SUBSCRIBED\n", id, prefix, id)
	}
	return b.String()
}

// TestAccListContactsSavedPlan_fileChanged: (a) on an existing list the
// rewritten file is refused in the provider's words, before Terraform's
// "inconsistent final plan", with nothing written, and a plan with
// -refresh=false after an apply without changes is not mistaken for it;
// (b) on a list created in the same run, desired_sha256 is in the plan, so
// Terraform refuses the rewritten file before anything is written to the
// new list (the provider cannot see the saved plan there: the docs say so).
func TestAccListContactsSavedPlan_fileChanged(t *testing.T) {
	acctest.SkipUnlessAcceptance(t)
	acctest.MustDetectCLI(t)
	t.Parallel()
	env := acctest.NewEnv(t, emulator.Options{})
	listID := newTestList(t, env)
	w := acctest.NewWorkspace(t)
	existing := func() string {
		return fmt.Sprintf(`
resource "rms_list_contacts" "existing" {
  list_id     = %q
  source_file = %q
  delimiter   = ";"
}
`, listID, w.Path("existing.csv"))
	}
	fresh := fmt.Sprintf(`
resource "rms_list" "fresh" {
  name = "Fresh"
}

resource "rms_list_contacts" "fresh" {
  list_id     = rms_list.fresh.id
  source_file = %q
  delimiter   = ";"
}
`, w.Path("fresh.csv"))
	run := func(want int, args ...string) string {
		t.Helper()
		out, code := w.Run(args...)
		if code != want {
			t.Fatalf("terraform %s: exit %d, want %d:\n%s", strings.Join(args, " "), code, want, out)
		}
		return out
	}
	firstNames := func(list string) map[string]string {
		out := map[string]string{}
		for id, c := range listContactsOf(t, env, list) {
			out[id] = c.Properties["firstname"] + " " + c.Status
		}
		return out
	}

	v1 := savedPlanRows("Old", "a", "b", "c", "d", "e")
	w.Write("existing.csv", v1)
	w.Configure(env, existing())
	run(0, "apply", "-auto-approve", "-no-color")
	run(0, "apply", "-auto-approve", "-no-color") // no change: the refreshed state (and its private state) is saved as it is
	// A -refresh=false plan after that, with the file changed on purpose,
	// plans the change: the refresh's digest saved by the apply without
	// changes is not taken for the plan's.
	w.Write("existing.csv", savedPlanRows("Old", "a", "b", "c", "d", "e", "f"))
	if out := run(0, "plan", "-refresh=false", "-no-color"); !acctest.Contains(out, "1 to change") {
		t.Fatalf("plan -refresh=false after a changed file:\n%s", out)
	}
	w.Write("existing.csv", v1)

	// (a) An existing list: reviewed, then rewritten.
	w.Write("existing.csv", savedPlanRows("Reviewed", "a", "b", "c", "d", "e"))
	run(0, "plan", "-out=existing.tfplan", "-no-color")
	w.Write("existing.csv", savedPlanRows("Stranger", "v", "w", "x", "y", "z"))
	before, contacts := writes(env), firstNames(listID)
	out := run(1, "apply", "-no-color", "existing.tfplan")
	if !acctest.Contains(out, "Source file changed since the plan", w.Path("existing.csv")+" changed since the plan was made", "Nothing was written to list "+listID, "plan again") ||
		strings.Contains(out, "inconsistent final plan") {
		t.Fatalf("apply of a saved plan after the file changed:\n%s", out)
	}
	if n := writes(env) - before; n != 0 {
		t.Errorf("the refused apply sent %d writes to the service", n)
	}
	if got := firstNames(listID); fmt.Sprint(got) != fmt.Sprint(contacts) {
		t.Errorf("the refused apply changed the list: %v, before %v", got, contacts)
	}

	// (b) A list made in the same run: the plan shows the file's digest,
	// so the apply cannot take a file rewritten since.
	w.Write("existing.csv", v1)
	w.Write("fresh.csv", savedPlanRows("Reviewed", "a", "b", "c"))
	w.Configure(env, existing()+fresh)
	out = run(0, "plan", "-out=fresh.tfplan", "-no-color")
	if !acctest.Contains(out, "contact_count = 3") {
		t.Fatalf("the plan of a list made in the same run does not count its contacts:\n%s", out)
	}
	w.Write("fresh.csv", savedPlanRows("Stranger", "v", "w", "x", "y", "z"))
	out = run(1, "apply", "-no-color", "fresh.tfplan")
	if !acctest.Contains(out, "Provider produced inconsistent final plan", "rms_list_contacts.fresh", ".desired_sha256") {
		t.Fatalf("apply of a saved plan (list made in the same run) after the file changed:\n%s", out)
	}
	made, ok := w.Instance("rms_list", "fresh")
	if !ok {
		t.Fatalf("the new list is not in the state:\n%s", out)
	}
	freshID := fmt.Sprint(made.Attributes["id"])
	if got := listContactsOf(t, env, freshID); len(got) != 0 {
		t.Errorf("the refused apply wrote %d contacts to the new list %s", len(got), freshID)
	}
	if n := env.Emulator.Requests().ByRoute[routeCreateImport]; n != 0 {
		t.Errorf("%d imports were created", n)
	}
}

// TestAccListImportSavedPlan_fileChanged: (c) a changed import file runs a
// new import (a replacement); rewritten again after the plan, the apply is
// refused in the provider's words by the replacement's destroy half, before
// anything is imported, and the old import stays in the state. A new
// import (no prior state) is refused by Terraform's own check, also before
// anything is created.
func TestAccListImportSavedPlan_fileChanged(t *testing.T) {
	acctest.SkipUnlessAcceptance(t)
	acctest.MustDetectCLI(t)
	t.Parallel()
	env := acctest.NewEnv(t, emulator.Options{})
	list := importList(t, env)
	w := acctest.NewWorkspace(t)
	w.Configure(env, importConfig(list, "ADD", fmt.Sprintf("file = %q", w.Path("contacts.csv"))))
	run := func(want int, args ...string) string {
		t.Helper()
		out, code := w.Run(args...)
		if code != want {
			t.Fatalf("terraform %s: exit %d, want %d:\n%s", strings.Join(args, " "), code, want, out)
		}
		return out
	}
	imports := func() int64 { return env.Emulator.Requests().ByRoute[routeCreateImport] }

	// A new import: the plan has content_sha256.
	w.Write("contacts.csv", "originalId,firstname\nc1,Reviewed\n")
	run(0, "plan", "-out=new.tfplan", "-no-color")
	w.Write("contacts.csv", "originalId,firstname\nc1,Stranger\nc2,Stranger\n")
	out := run(1, "apply", "-no-color", "new.tfplan")
	if !acctest.Contains(out, "Provider produced inconsistent final plan", "rms_list_import.test", ".content_sha256") {
		t.Fatalf("apply of a saved plan (new import) after the file changed:\n%s", out)
	}
	if n := imports(); n != 0 {
		t.Fatalf("%d imports were created", n)
	}

	// A replacement: the destroy half refuses in the provider's words.
	w.Write("contacts.csv", "originalId,firstname\nc1,First\n")
	run(0, "apply", "-auto-approve", "-no-color")
	old, _ := w.Instance("rms_list_import", "test")
	w.Write("contacts.csv", "originalId,firstname\nc1,Reviewed\n")
	run(0, "plan", "-out=replace.tfplan", "-no-color")
	w.Write("contacts.csv", "originalId,firstname\nc1,Stranger\nc2,Stranger\n")
	before, importsBefore := writes(env), imports()
	out = run(1, "apply", "-no-color", "replace.tfplan")
	if !acctest.Contains(out, "Import file changed since the plan", w.Path("contacts.csv")+" changed since the plan was made", "Nothing was imported", "plan again") ||
		strings.Contains(out, "inconsistent final plan") {
		t.Fatalf("apply of a saved plan (replacement) after the file changed:\n%s", out)
	}
	if n := writes(env) - before; n != 0 || imports() != importsBefore {
		t.Errorf("the refused apply sent %d writes (%d imports) to the service", n, imports()-importsBefore)
	}
	if got := listContacts(t, env, list); len(got) != 1 || !strings.Contains(got["c1"], "firstname=First") {
		t.Errorf("the list after the refused apply: %v", got)
	}
	if still, ok := w.Instance("rms_list_import", "test"); !ok || still.Attributes["import_id"] != old.Attributes["import_id"] {
		t.Errorf("the replaced import left the state: %v", still.Attributes)
	}
	// The note of the plan is not kept in the state.
	var note map[string]any
	if inst, _ := w.Instance("rms_list_import", "test"); inst.PrivateKey(t, "planned_file", &note) {
		t.Errorf("the state keeps the plan's note: %v", note)
	}

	// A file gone since the plan is refused the same way.
	w.Write("contacts.csv", "originalId,firstname\nc1,Reviewed\n")
	run(0, "plan", "-out=gone.tfplan", "-no-color")
	if err := os.Remove(w.Path("contacts.csv")); err != nil {
		t.Fatal(err)
	}
	out = run(1, "apply", "-no-color", "gone.tfplan")
	if !acctest.Contains(out, "Import file gone since the plan", "There is no file at", "Nothing was imported") {
		t.Fatalf("apply of a saved plan (replacement) after the file went away:\n%s", out)
	}
	if imports() != importsBefore {
		t.Errorf("%d imports were created", imports()-importsBefore)
	}
}
