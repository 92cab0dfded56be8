package provider_test

import (
	"fmt"
	"testing"

	"github.com/hashicorp/terraform-plugin-testing/helper/resource"
	"github.com/hashicorp/terraform-plugin-testing/terraform"

	"github.com/rms-labs/terraform-provider-rms/internal/acctest"
	"github.com/rms-labs/terraform-provider-rms/internal/emulator"
)

// TestAccListContactsExclusiveNewList: rms_list and an exclusive
// rms_list_contacts made in one run (the list id known only during the
// apply) apply with the default limits: the new list is empty, so there is
// nobody to unsubscribe (refused at plan before).
func TestAccListContactsExclusiveNewList(t *testing.T) {
	acctest.SkipUnlessAcceptance(t)
	env := acctest.NewEnv(t, emulator.Options{})
	resource.ParallelTest(t, resource.TestCase{
		ProtoV6ProviderFactories: acctest.ProviderFactories(),
		Steps: []resource.TestStep{{
			Config: env.Config(`
resource "rms_list" "l" {
  name                = "Members"
  deletion_protection = false
}

resource "rms_list_contacts" "c" {
  list_id   = rms_list.l.id
  exclusive = true
  contacts = {
    "a" = {}
    "b" = {}
  }
}
`),
			Check: func(s *terraform.State) error {
				listID := s.RootModule().Resources["rms_list.l"].Primary.ID
				got := listContactsOf(t, env, listID)
				if len(got) != 2 || got["a"].Status != "SUBSCRIBED" || got["b"].Status != "SUBSCRIBED" {
					return fmt.Errorf("list %s holds %v, want a and b subscribed", listID, got)
				}
				return nil
			},
		}},
	})
}

// TestAccListContactsExclusiveSignUpAfterPlan: a recipient who signs up
// between `terraform plan -out` and `terraform apply PLANFILE` is not
// unsubscribed: the apply goes through, does what the plan counted (the
// contact it named is unsubscribed) and leaves the late sign-up as they
// are, naming them. Planned again, the late one goes too.
func TestAccListContactsExclusiveSignUpAfterPlan(t *testing.T) {
	acctest.SkipUnlessAcceptance(t)
	t.Parallel()
	env := acctest.NewEnv(t, emulator.Options{})
	listID := newTestList(t, env)
	ws := acctest.NewWorkspace(t)
	ws.Configure(env, listContactsConfig(listID, map[string]listContact{"a": {}, "b": {}}, "  exclusive = true"))
	if out, code := ws.Run("apply", "-auto-approve", "-no-color"); code != 0 {
		t.Fatalf("the first apply exited %d:\n%s", code, out)
	}
	signUp := func(id string) {
		env.MustDo(t, "POST", "lists/"+listID+"/contacts", map[string]any{"originalId": id}, nil)
	}
	signUp("counted")
	if out, code := ws.Run("plan", "-out=x.tfplan", "-no-color"); code != 0 || !acctest.Contains(out, "counted") {
		t.Fatalf("the plan exited %d or does not name the contact it unsubscribes:\n%s", code, out)
	}
	signUp("late")
	out, code := ws.Run("apply", "-no-color", "x.tfplan")
	if code != 0 || !acctest.Contains(out, "Contacts changed since the plan left as they are", "1 contacts of list "+listID, `"late"`) {
		t.Fatalf("the apply of the saved plan did not go through naming the late sign-up (exit %d):\n%s", code, out)
	}
	got := listContactsOf(t, env, listID)
	wantStatuses(t, got, []string{"counted"}, "UNSUBSCRIBED", "UNSUBSCRIBED")
	wantStatuses(t, got, []string{"a", "b", "late"}, "SUBSCRIBED", "SUBSCRIBED")

	if out, code := ws.Run("apply", "-auto-approve", "-no-color"); code != 0 || !acctest.Contains(out, "late") {
		t.Fatalf("the apply planned again exited %d or does not name the late sign-up:\n%s", code, out)
	}
	got = listContactsOf(t, env, listID)
	wantStatuses(t, got, []string{"counted", "late"}, "UNSUBSCRIBED", "UNSUBSCRIBED")
	wantStatuses(t, got, []string{"a", "b"}, "SUBSCRIBED", "SUBSCRIBED")
}

// TestAccListContactsExclusiveCreateCounted: a new exclusive resource on a
// list that holds subscribed contacts it does not name is refused at plan
// without a limit set explicitly (its apply could not hold to the plan's
// count), naming them and the limit that lets it through; nothing is
// written. With the limit it goes through.
func TestAccListContactsExclusiveCreateCounted(t *testing.T) {
	acctest.SkipUnlessAcceptance(t)
	env := acctest.NewEnv(t, emulator.Options{})
	listID := newTestList(t, env)
	seedContacts(t, env, listID,
		emulator.Contact{OriginalID: "a", Status: "SUBSCRIBED", MobileStatus: "SUBSCRIBED"},
		emulator.Contact{OriginalID: "z", Status: "SUBSCRIBED", MobileStatus: "SUBSCRIBED"})
	writes := serviceWrites(env)
	cfg := listContactsConfig(listID, map[string]listContact{"a": {}}, "  exclusive = true")
	resource.ParallelTest(t, resource.TestCase{
		ProtoV6ProviderFactories: acctest.ProviderFactories(),
		Steps: []resource.TestStep{
			{
				Config:      env.Config(cfg),
				ExpectError: acctest.ExpectErrorParts("Unsubscriptions on create need a limit set explicitly", `unsubscribes 1 contacts of list `+listID, `"z"`, "max_unsubscribe = 1", "exclusive = false"),
			},
			{
				PreConfig: func() {
					if n := serviceWrites(env) - writes; n != 0 {
						t.Fatalf("the refused plan was followed by %d writes", n)
					}
				},
				Config: env.Config(listContactsConfig(listID, map[string]listContact{"a": {}}, "  exclusive = true\n  max_unsubscribe = 1")),
				Check: func(*terraform.State) error {
					got := listContactsOf(t, env, listID)
					if got["z"].Status != "UNSUBSCRIBED" || got["a"].Status != "SUBSCRIBED" {
						return fmt.Errorf("z is %s and a %s, want z unsubscribed and a subscribed", got["z"].Status, got["a"].Status)
					}
					return nil
				},
			},
		},
	})
}

// TestAccListContactsExclusiveNoRefresh: a plan made with -refresh=false
// after an apply has no count the apply can hold to: it says it
// unsubscribes nobody it could not count, and the apply of a key dropped
// from the map stops before its first write; with a limit set explicitly
// it goes through.
func TestAccListContactsExclusiveNoRefresh(t *testing.T) {
	acctest.SkipUnlessAcceptance(t)
	t.Parallel()
	env := acctest.NewEnv(t, emulator.Options{})
	listID := newTestList(t, env)
	ws := acctest.NewWorkspace(t)
	both := map[string]listContact{"a": {}, "b": {}}
	ws.Configure(env, listContactsConfig(listID, both, "  exclusive = true"))
	if out, code := ws.Run("apply", "-auto-approve", "-no-color"); code != 0 {
		t.Fatalf("the first apply exited %d:\n%s", code, out)
	}
	ws.Configure(env, listContactsConfig(listID, map[string]listContact{"a": {}}, "  exclusive = true"))
	writes := serviceWrites(env)
	out, code := ws.Run("apply", "-refresh=false", "-auto-approve", "-no-color")
	if code == 0 || !acctest.Contains(out, "unsubscribes nobody it could not count") || !acctest.Contains(out, "Unsubscriptions not counted by the plan") || !acctest.Contains(out, `"b"`) {
		t.Fatalf("the apply without a refresh did not stop before unsubscribing b (exit %d):\n%s", code, out)
	}
	if n := serviceWrites(env) - writes; n != 0 {
		t.Errorf("the stopped apply sent %d writes, want none", n)
	}
	wantStatuses(t, listContactsOf(t, env, listID), []string{"a", "b"}, "SUBSCRIBED", "SUBSCRIBED")

	ws.Configure(env, listContactsConfig(listID, map[string]listContact{"a": {}}, "  exclusive = true\n  max_unsubscribe = 1"))
	if out, code := ws.Run("apply", "-refresh=false", "-auto-approve", "-no-color"); code != 0 {
		t.Fatalf("the apply with a limit set explicitly exited %d:\n%s", code, out)
	}
	wantStatuses(t, listContactsOf(t, env, listID), []string{"b"}, "UNSUBSCRIBED", "UNSUBSCRIBED")
}
