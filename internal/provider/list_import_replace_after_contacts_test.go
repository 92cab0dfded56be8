package provider_test

import (
	"fmt"
	"testing"

	"github.com/rms-labs/terraform-provider-rms/internal/acctest"
	"github.com/rms-labs/terraform-provider-rms/internal/emulator"
)

// TestAccListImportReplaceAfterContactsResource: a list first managed by
// rms_list_contacts, then handed to a REPLACE import. The contacts
// resource unsubscribed "ex" itself (its input said UNSUBSCRIBED) and kept
// "own", a recipient's opt-out, which its apply recorded in the suppression
// list (and not ex). When the contacts resource leaves the configuration
// and the import arrives in the same apply, Terraform orders nothing
// between that destroy and the import's create, so the import cannot take
// the destroyed record over (as the delete of an rms_list does, which
// Terraform orders after it): it takes the rule's other branch. Its saved
// plan counts what it copies (ex; own is held already) in
// planned_changes.opt_outs_copied, and its warning names ex, says it
// cannot tell Terraform's own unsubscription from an opt-out, and what to
// do instead; the apply copies exactly what the plan counted.
func TestAccListImportReplaceAfterContactsResource(t *testing.T) {
	acctest.SkipUnlessAcceptance(t)
	t.Parallel()
	env := acctest.NewEnv(t, emulator.Options{})
	sup, list := importList(t, env), importList(t, env)
	seedContacts(t, env, list,
		emulator.Contact{OriginalID: "keep", Properties: map[string]string{"email": "keep@example.com"}},
		emulator.Contact{OriginalID: "ex", Properties: map[string]string{"email": "ex@example.com"}},
		emulator.Contact{OriginalID: "own", Properties: map[string]string{"email": "own@example.com"}, Status: "UNSUBSCRIBED"},
	)
	ws := acctest.NewWorkspace(t)
	ws.Configure(env, listContactsConfig(list, map[string]listContact{
		"keep": {props: map[string]string{"email": "keep@example.com"}, email: "SUBSCRIBED"},
		"ex":   {props: map[string]string{"email": "ex@example.com"}, email: "UNSUBSCRIBED"},
		"own":  {props: map[string]string{"email": "own@example.com"}, email: "SUBSCRIBED"},
	}, fmt.Sprintf("  suppression_list_id = %q\n", sup)))
	if out, code := ws.Run("apply", "-auto-approve", "-no-color"); code != 0 {
		t.Fatalf("the apply of rms_list_contacts exited %d:\n%s", code, out)
	}
	held := listContactsOf(t, env, sup)
	if _, ok := held["ex"]; ok || held["own"].Status != "UNSUBSCRIBED" {
		t.Fatalf("after rms_list_contacts the suppression list holds %+v, want own (the recipient's opt-out) and not ex (Terraform's own)", held)
	}

	ws.Configure(env, fmt.Sprintf(`
resource "rms_list_import" "test" {
  list_id                 = %q
  type                    = "REPLACE"
  content                 = "originalId,email\nkeep,keep@example.com\n"
  suppression_list_id     = %q
  max_unsubscribe_percent = 100
}
`, list, sup))
	out, code := ws.Run("plan", "-no-color", "-out=replace.tfplan")
	if code != 0 {
		t.Fatalf("terraform plan exited %d:\n%s", code, out)
	}
	if !acctest.Contains(out, "Opt-outs to copy into the suppression list", `"ex" (e-mail)`, "An import cannot tell a recipient's own opt-out from an unsubscription Terraform made", "take those contacts out of the rms_list_contacts") {
		t.Errorf("the plan does not name ex as a copy it cannot tell apart:\n%s", out)
	}
	show, code := ws.Run("show", "-json", "replace.tfplan")
	if code != 0 {
		t.Fatalf("terraform show -json exited %d:\n%s", code, show)
	}
	pc := importPlannedChangesOf(t, show)
	if plannedCount(pc, "removed") != "2" || plannedCount(pc, "opt_outs_copied") != "1" {
		t.Errorf("the saved plan counts removed %s and opt_outs_copied %s, want 2 (ex, own) and 1 (ex: own is held already)", plannedCount(pc, "removed"), plannedCount(pc, "opt_outs_copied"))
	}
	if out, code := ws.Run("apply", "-no-color", "replace.tfplan"); code != 0 {
		t.Fatalf("applying the saved plan exited %d:\n%s", code, out)
	}
	held = listContactsOf(t, env, sup)
	if len(held) != 2 || held["ex"].Status != "UNSUBSCRIBED" || held["own"].Status != "UNSUBSCRIBED" {
		t.Errorf("the suppression list holds %+v, want own and the one copy the plan counted (ex)", held)
	}
}
