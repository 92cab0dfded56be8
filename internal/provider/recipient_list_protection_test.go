package provider_test

import (
	"fmt"
	"testing"

	"github.com/hashicorp/terraform-plugin-testing/helper/resource"
	"github.com/hashicorp/terraform-plugin-testing/knownvalue"
	"github.com/hashicorp/terraform-plugin-testing/plancheck"
	"github.com/hashicorp/terraform-plugin-testing/statecheck"
	"github.com/hashicorp/terraform-plugin-testing/terraform"
	"github.com/hashicorp/terraform-plugin-testing/tfjsonpath"

	"github.com/rms-labs/terraform-provider-rms/internal/acctest"
	"github.com/rms-labs/terraform-provider-rms/internal/emulator"
)

// routeUpdateList is the service's update of a list (lists are a generic
// collection of the emulator).
const routeUpdateList = "PUT /rest/{customerid}/{collection}/{id}"

// seedHeldList makes a list out of band holding n contacts, the first
// unsubscribed on e-mail and the second on both channels (their own
// opt-outs), and returns its id.
func seedHeldList(t *testing.T, env *acctest.Env, name string, n int) string {
	t.Helper()
	var list map[string]any
	env.MustDo(t, "POST", "lists", map[string]any{"name": name}, &list)
	id := fmt.Sprint(list["id"])
	addHeldContacts(t, env, id, n)
	return id
}

// addHeldContacts adds n contacts to list id out of band, the first
// unsubscribed on e-mail and the second on both channels.
func addHeldContacts(t *testing.T, env *acctest.Env, id string, n int) {
	t.Helper()
	for i := range n {
		oid := fmt.Sprintf("held-%d", i)
		env.MustDo(t, "POST", "lists/"+id+"/contacts", map[string]any{"originalId": oid, "properties": map[string]any{"email": oid + "@example.com"}}, nil)
	}
	env.MustDo(t, "PUT", "lists/"+id+"/contacts/held-0/subscriptionstatus", map[string]any{"status": "UNSUBSCRIBED"}, nil)
	env.MustDo(t, "PUT", "lists/"+id+"/contacts/held-1/subscriptionstatus", map[string]any{"status": "UNSUBSCRIBED", "mobileStatus": "UNSUBSCRIBED"}, nil)
}

// expectListHolds fails the test unless list id exists and holds n contacts.
func expectListHolds(t *testing.T, env *acctest.Env, id string, n int) {
	t.Helper()
	if status := env.Do(t, "GET", "lists/"+id, nil, nil); status != 200 {
		t.Fatalf("list %s: GET answered %d, want it kept", id, status)
	}
	if got := len(listContactsOf(t, env, id)); got != n {
		t.Errorf("list %s holds %d contacts, want %d", id, got, n)
	}
}

// expectListsGone is a CheckDestroy: every rms_list of the state is gone
// from the service.
func expectListsGone(t *testing.T, env *acctest.Env) func(*terraform.State) error {
	return func(s *terraform.State) error {
		for _, r := range s.RootModule().Resources {
			if r.Type == "rms_list" {
				if status := env.Do(t, "GET", "lists/"+r.Primary.ID, nil, nil); status != 404 {
					t.Errorf("list %s still exists after destroy (GET answered %d)", r.Primary.ID, status)
				}
			}
		}
		return nil
	}
}

// A destroy of a list that holds contacts (fed by rms_list_contacts, two
// of them opted out) is refused at plan with the defaults, naming the list,
// its contacts and its opt-outs, and nothing is deleted; an empty list is
// deleted with the defaults; deletion_protection = false, applied first
// (an in-place change that calls nothing), lets the destroy go through.
func TestAccRecipientListDeletionProtection_destroy(t *testing.T) {
	acctest.SkipUnlessAcceptance(t)
	env := acctest.NewEnv(t, emulator.Options{})
	contacts := `
resource "rms_list_contacts" "held" {
  list_id  = rms_list.held.id
  contacts = {
    held-0 = { properties = { email = "held-0@example.com" } }
    held-1 = { properties = { email = "held-1@example.com" } }
    held-2 = { properties = { email = "held-2@example.com" } }
    held-3 = { properties = { email = "held-3@example.com" } }
  }
}
`
	empty := `resource "rms_list" "empty" { name = "Empty" }` + "\n"
	var heldID, emptyID string
	var updates int64
	resource.ParallelTest(t, resource.TestCase{
		ProtoV6ProviderFactories: acctest.ProviderFactories(),
		Steps: []resource.TestStep{
			{
				Config: env.Config(`resource "rms_list" "held" { name = "Held" }`+"\n", empty, contacts),
				ConfigStateChecks: []statecheck.StateCheck{
					statecheck.ExpectKnownValue("rms_list.held", tfjsonpath.New("deletion_protection"), knownvalue.Bool(true)),
				},
				Check: func(s *terraform.State) error {
					heldID, emptyID = resourceID(s, "rms_list.held"), resourceID(s, "rms_list.empty")
					// The recipients' own opt-outs, on the service's page.
					env.MustDo(t, "PUT", "lists/"+heldID+"/contacts/held-0/subscriptionstatus", map[string]any{"status": "UNSUBSCRIBED"}, nil)
					env.MustDo(t, "PUT", "lists/"+heldID+"/contacts/held-1/subscriptionstatus", map[string]any{"status": "UNSUBSCRIBED", "mobileStatus": "UNSUBSCRIBED"}, nil)
					return nil
				},
			},
			{
				Config:  env.Config(`resource "rms_list" "held" { name = "Held" }`+"\n", empty, contacts),
				Destroy: true,
				ExpectError: acctest.ExpectErrorParts("List holds contacts: deletion protection is on",
					`rms_list "Held" (id`, "holds 4 contacts, 2 of them unsubscribed on e-mail and 1 on mobile",
					"This plan deletes nothing", "set deletion_protection = false on this rms_list and apply that first",
					"delete the old list first"),
			},
			{ // nothing was deleted; the empty list goes with the defaults
				PreConfig: func() {
					expectListHolds(t, env, heldID, 4)
					expectListHolds(t, env, emptyID, 0)
				},
				Config: env.Config(`resource "rms_list" "held" { name = "Held" }`+"\n", contacts),
				Check: func(*terraform.State) error {
					if status := env.Do(t, "GET", "lists/"+emptyID, nil, nil); status != 404 {
						t.Errorf("the empty list %s was not deleted (GET answered %d)", emptyID, status)
					}
					expectListHolds(t, env, heldID, 4)
					return nil
				},
			},
			{ // lifting the protection is an update that calls nothing
				PreConfig: func() { updates = env.Emulator.Requests().ByRoute[routeUpdateList] },
				Config:    env.Config(`resource "rms_list" "held" {`+"\n  name = \"Held\"\n  deletion_protection = false\n}\n", contacts),
				ConfigPlanChecks: resource.ConfigPlanChecks{
					PreApply: []plancheck.PlanCheck{
						plancheck.ExpectResourceAction("rms_list.held", plancheck.ResourceActionUpdate),
						plancheck.ExpectKnownValue("rms_list.held", tfjsonpath.New("date_modified"), knownvalue.NotNull()),
					},
				},
				ConfigStateChecks: []statecheck.StateCheck{
					statecheck.ExpectKnownValue("rms_list.held", tfjsonpath.New("deletion_protection"), knownvalue.Bool(false)),
				},
				Check: func(*terraform.State) error {
					if n := env.Emulator.Requests().ByRoute[routeUpdateList] - updates; n != 0 {
						t.Errorf("changing deletion_protection alone sent %d updates of the list, want none", n)
					}
					return nil
				},
			},
		},
		CheckDestroy: expectListsGone(t, env),
	})
}

// A replacement Terraform itself decides (replace_triggered_by, as
// -replace) is not shown to the provider at plan; the delete checks again
// and refuses it at apply before anything is deleted, and (destroy before
// create) no new list is made. With deletion_protection = false applied
// first, the replacement goes through.
func TestAccRecipientListDeletionProtection_replace(t *testing.T) {
	acctest.SkipUnlessAcceptance(t)
	env := acctest.NewEnv(t, emulator.Options{})
	config := func(rev, extra string, triggered bool) string {
		lifecycle := ""
		if triggered {
			lifecycle = "lifecycle { replace_triggered_by = [terraform_data.rev] }"
		}
		return env.Config(fmt.Sprintf(`
resource "terraform_data" "rev" { input = %q }

resource "rms_list" "l" {
  name = "Replaced"
  %s
  %s
}
`, rev, extra, lifecycle))
	}
	var id string
	resource.ParallelTest(t, resource.TestCase{
		ProtoV6ProviderFactories: acctest.ProviderFactories(),
		Steps: []resource.TestStep{
			{
				Config: config("1", "", true),
				Check: func(s *terraform.State) error {
					id = resourceID(s, "rms_list.l")
					addHeldContacts(t, env, id, 3)
					return nil
				},
			},
			{
				Config: config("2", "", true),
				ExpectError: acctest.ExpectErrorParts("List holds contacts: deletion protection is on",
					`rms_list "Replaced" (id`, "holds 3 contacts, 2 of them unsubscribed on e-mail and 1 on mobile",
					"The delete was refused before anything was deleted"),
			},
			{
				PreConfig: func() {
					expectListHolds(t, env, id, 3)
					var all []map[string]any
					env.MustDo(t, "GET", "lists", nil, &all)
					if len(all) != 1 {
						t.Errorf("the account holds %d lists after the refused replacement, want the old one only: %v", len(all), all)
					}
				},
				// Not triggered: the refused run may have left the trigger pending.
				Config: config("2", "deletion_protection = false", false),
			},
			{
				Config: config("3", "deletion_protection = false", true),
				ConfigPlanChecks: resource.ConfigPlanChecks{
					PreApply: []plancheck.PlanCheck{plancheck.ExpectResourceAction("rms_list.l", plancheck.ResourceActionDestroyBeforeCreate)},
				},
				Check: func(s *terraform.State) error {
					if status := env.Do(t, "GET", "lists/"+id, nil, nil); status != 404 {
						t.Errorf("the replaced list %s is still there (GET answered %d)", id, status)
					}
					return nil
				},
			},
		},
		CheckDestroy: expectListsGone(t, env),
	})
}

// An imported list (terraform import, no configuration value yet in the
// state) is protected: its state says deletion_protection = true and a
// destroy is refused while it holds contacts.
func TestAccRecipientListDeletionProtection_imported(t *testing.T) {
	acctest.SkipUnlessAcceptance(t)
	env := acctest.NewEnv(t, emulator.Options{})
	id := seedHeldList(t, env, "Imported", 2)
	config := env.Config(`resource "rms_list" "l" { name = "Imported" }`)
	resource.ParallelTest(t, resource.TestCase{
		ProtoV6ProviderFactories: acctest.ProviderFactories(),
		Steps: []resource.TestStep{
			{
				Config:             config,
				ResourceName:       "rms_list.l",
				ImportState:        true,
				ImportStateId:      id,
				ImportStatePersist: true,
				ImportStateCheck: func(s []*terraform.InstanceState) error {
					if len(s) != 1 || s[0].Attributes["deletion_protection"] != "true" {
						return fmt.Errorf("imported %d instances; want one with deletion_protection = true: %v", len(s), s)
					}
					return nil
				},
			},
			{
				Config:  config,
				Destroy: true,
				ExpectError: acctest.ExpectErrorParts("List holds contacts: deletion protection is on",
					`rms_list "Imported" (id `+id+`) holds 2 contacts, 2 of them unsubscribed on e-mail and 1 on mobile`),
			},
			{
				PreConfig: func() { expectListHolds(t, env, id, 2) },
				Config:    env.Config(`resource "rms_list" "l" {` + "\n  name = \"Imported\"\n  deletion_protection = false\n}\n"),
			},
		},
		CheckDestroy: expectListsGone(t, env),
	})
}
