package provider_test

import (
	"fmt"
	"testing"

	"github.com/hashicorp/terraform-plugin-testing/helper/resource"
	"github.com/hashicorp/terraform-plugin-testing/terraform"

	"github.com/rms-labs/terraform-provider-rms/internal/acctest"
	"github.com/rms-labs/terraform-provider-rms/internal/emulator"
)

// A create the emulator carries out and then answers by dropping the
// connection is adopted on read-back: one project on the server, in state.
func TestAccProjectResource_actThenDropIsAdopted(t *testing.T) {
	acctest.SkipUnlessAcceptance(t)
	env := acctest.NewEnv(t, emulator.Options{Faults: emulator.FaultOptions{ActThenDropRate: 1}})
	resource.ParallelTest(t, resource.TestCase{
		ProtoV6ProviderFactories: acctest.ProviderFactories(),
		Steps: []resource.TestStep{{
			Config: env.Config(projectConfig("Adopted", "")),
			Check: func(s *terraform.State) error {
				var all []map[string]any
				env.MustDo(t, "GET", "projects", nil, &all)
				if len(all) != 1 {
					return fmt.Errorf("server holds %d projects, want exactly 1: %v", len(all), all)
				}
				if got, want := projectID(s), fmt.Sprint(all[0]["id"]); got != want {
					return fmt.Errorf("state holds project %s, the server %s", got, want)
				}
				return nil
			},
		}},
	})
}

// POSTs that always fail with a gateway error before the emulator acts are
// read back, found absent, and retried until the budget runs out: the apply
// fails with the cause, and nothing is left on the server.
func TestAccProjectResource_failingCreatesLeaveNothing(t *testing.T) {
	acctest.SkipUnlessAcceptance(t)
	env := acctest.NewEnv(t, emulator.Options{Faults: emulator.FaultOptions{
		Rate: 1, Kinds: []string{emulator.FaultBadGateway}, Methods: []string{"POST"},
	}})
	cfg := fmt.Sprintf(`
provider "rms" {
  base_url    = %q
  customer_id = %d
  username    = %q
  password    = %q
  max_retries = 2
}
`, env.URL, env.CustomerID, env.Username, env.Password)
	resource.ParallelTest(t, resource.TestCase{
		ProtoV6ProviderFactories: acctest.ProviderFactories(),
		Steps: []resource.TestStep{{
			Config:      cfg + projectConfig("Never", ""),
			ExpectError: acctest.ExpectErrorParts("Unable to create project", "outcome is unknown", "502"),
		}},
	})
	var all []map[string]any
	env.MustDo(t, "GET", "projects", nil, &all)
	if len(all) != 0 {
		t.Errorf("failed creates left %d projects: %v", len(all), all)
	}
	if got := env.Emulator.Faults().Injected[emulator.FaultBadGateway]; got != 3 {
		t.Errorf("%d POSTs reached the emulator, want 3 (one try and max_retries = 2)", got)
	}
}

// Lists and contacts adopt what an act-then-drop create made, too: one list
// with one contact on the server, both in state.
func TestAccListAndContact_actThenDropIsAdopted(t *testing.T) {
	acctest.SkipUnlessAcceptance(t)
	env := acctest.NewEnv(t, emulator.Options{Faults: emulator.FaultOptions{ActThenDropRate: 1}})
	resource.ParallelTest(t, resource.TestCase{
		ProtoV6ProviderFactories: acctest.ProviderFactories(),
		Steps: []resource.TestStep{{
			Config: env.Config(`
resource "rms_list" "test" {
  name                = "Adopted list"
  deletion_protection = false
}
resource "rms_contact" "test" {
  list_id     = rms_list.test.id
  original_id = "c-1"
  properties  = { email = "ada@example.com" }
}
`),
			Check: func(s *terraform.State) error {
				var lists []map[string]any
				env.MustDo(t, "GET", "lists", nil, &lists)
				if len(lists) != 1 {
					return fmt.Errorf("server holds %d lists, want 1", len(lists))
				}
				listID := fmt.Sprint(lists[0]["id"])
				if got := s.RootModule().Resources["rms_list.test"].Primary.ID; got != listID {
					return fmt.Errorf("state holds list %s, the server %s", got, listID)
				}
				var contacts []map[string]any
				env.MustDo(t, "GET", "lists/"+listID+"/contacts", nil, &contacts)
				if len(contacts) != 1 {
					return fmt.Errorf("server holds %d contacts, want 1", len(contacts))
				}
				return nil
			},
		}},
	})
}

// Webhooks and generic entities adopt what an act-then-drop create made.
func TestAccWebhookAndEntity_actThenDropIsAdopted(t *testing.T) {
	acctest.SkipUnlessAcceptance(t)
	env := acctest.NewEnv(t, emulator.Options{Faults: emulator.FaultOptions{ActThenDropRate: 1}})
	resource.ParallelTest(t, resource.TestCase{
		ProtoV6ProviderFactories: acctest.ProviderFactories(),
		Steps: []resource.TestStep{{
			Config: env.Config(`
resource "rms_webhook" "test" {
  url    = "https://hooks.example.com/rms"
  events = ["message.sent", "contact.unsubscribed"]
}
resource "rms_resource" "test" {
  collection = "campaigns"
  body       = { name = "Spring", budget = 12.5, tags = ["a", "b"] }
}
`),
			Check: func(s *terraform.State) error {
				for _, coll := range []string{"webhooks", "campaigns"} {
					var all []map[string]any
					env.MustDo(t, "GET", coll, nil, &all)
					if len(all) != 1 {
						return fmt.Errorf("server holds %d %s, want exactly 1: %v", len(all), coll, all)
					}
				}
				return nil
			},
		}},
	})
}
