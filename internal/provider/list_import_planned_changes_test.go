package provider_test

import (
	"testing"

	"github.com/hashicorp/terraform-plugin-testing/helper/resource"
	"github.com/hashicorp/terraform-plugin-testing/knownvalue"
	"github.com/hashicorp/terraform-plugin-testing/plancheck"
	"github.com/hashicorp/terraform-plugin-testing/statecheck"
	"github.com/hashicorp/terraform-plugin-testing/tfjsonpath"

	"github.com/rms-labs/terraform-provider-rms/internal/acctest"
	"github.com/rms-labs/terraform-provider-rms/internal/emulator"
)

// TestAccListImportPlannedChanges: the plan of a new UNSUBSCRIBE import
// carries planned_changes with 0 where the type rules a change out and
// the e-mail unsubscriptions unknown (the service counts them when the
// batch runs); the apply saves those zeros and null where the plan did
// not know.
func TestAccListImportPlannedChanges(t *testing.T) {
	acctest.SkipUnlessAcceptance(t)
	env := acctest.NewEnv(t, emulator.Options{})
	list := importList(t, env)
	seedContacts(t, env, list,
		emulator.Contact{OriginalID: "a@example.com", Properties: map[string]string{"email": "a@example.com"}},
		emulator.Contact{OriginalID: "b@example.com", Properties: map[string]string{"email": "b@example.com"}},
	)
	pc := tfjsonpath.New("planned_changes")
	resource.ParallelTest(t, resource.TestCase{
		ProtoV6ProviderFactories: acctest.ProviderFactories(),
		Steps: []resource.TestStep{{
			Config: env.Config(importConfig(list, "UNSUBSCRIBE", `identity_column = "email"`, heredocContent("email", "a@example.com"))),
			ConfigPlanChecks: resource.ConfigPlanChecks{PreApply: []plancheck.PlanCheck{
				plancheck.ExpectUnknownValue(importAddr, pc.AtMapKey("email").AtMapKey("unsubscribed")),
				plancheck.ExpectUnknownValue(importAddr, pc.AtMapKey("list_size")),
				plancheck.ExpectKnownValue(importAddr, pc.AtMapKey("created"), knownvalue.Int64Exact(0)),
				plancheck.ExpectKnownValue(importAddr, pc.AtMapKey("email").AtMapKey("subscribed"), knownvalue.Int64Exact(0)),
				plancheck.ExpectKnownValue(importAddr, pc.AtMapKey("mobile").AtMapKey("unsubscribed"), knownvalue.Int64Exact(0)),
				plancheck.ExpectKnownValue(importAddr, pc.AtMapKey("email").AtMapKey("unsubscribed_by_exclusive"), knownvalue.Int64Exact(0)),
			}},
			ConfigStateChecks: []statecheck.StateCheck{
				statecheck.ExpectKnownValue(importAddr, pc.AtMapKey("email").AtMapKey("unsubscribed"), knownvalue.Null()),
				statecheck.ExpectKnownValue(importAddr, pc.AtMapKey("created"), knownvalue.Int64Exact(0)),
			},
			Check: wantContacts(t, env, list, map[string]string{
				"a@example.com": "email=a@example.com UNSUBSCRIBED",
				"b@example.com": "email=b@example.com SUBSCRIBED",
			}),
		}},
	})
}
