package provider_test

import (
	"fmt"
	"testing"

	"github.com/hashicorp/terraform-plugin-testing/compare"
	"github.com/hashicorp/terraform-plugin-testing/helper/resource"
	"github.com/hashicorp/terraform-plugin-testing/knownvalue"
	"github.com/hashicorp/terraform-plugin-testing/plancheck"
	"github.com/hashicorp/terraform-plugin-testing/statecheck"
	"github.com/hashicorp/terraform-plugin-testing/terraform"
	"github.com/hashicorp/terraform-plugin-testing/tfjsonpath"
	"github.com/hashicorp/terraform-plugin-testing/tfversion"

	"github.com/rms-labs/terraform-provider-rms/internal/acctest"
	"github.com/rms-labs/terraform-provider-rms/internal/emulator"
)

// movedBlock moves rms_resource.test to the typed resource "to".
func movedBlock(to string) string {
	return fmt.Sprintf("moved {\n  from = rms_resource.test\n  to   = %s\n}\n", to)
}

// moveSteps are the steps every move test takes: apply the rms_resource,
// replace it by the typed resource with a moved block (no create, no
// destroy: the planned action is want, the id the same, the emulator holds
// that one object and nothing else), then plan nothing. check looks at the
// object on the emulator after the move.
func moveSteps(t *testing.T, env *acctest.Env, to, collection, before, after string, want plancheck.ResourceActionType, checks []statecheck.StateCheck, check func(obj map[string]any) error) []resource.TestStep {
	// The values are compared in the order they are added: step 1's first.
	sameID := statecheck.CompareValue(compare.ValuesSame())
	created := sameID.AddStateValue("rms_resource.test", tfjsonpath.New("id"))
	moved := []statecheck.StateCheck{sameID.AddStateValue(to, tfjsonpath.New("id"))}
	if acctest.MustDetectCLI(t).Has("1.12.0", "") {
		moved = append(moved, statecheck.ExpectIdentityValueMatchesState(to, tfjsonpath.New("id")))
	}
	return []resource.TestStep{
		{
			Config:            env.Config(before),
			ConfigStateChecks: []statecheck.StateCheck{created},
		},
		{
			Config: env.Config(after, movedBlock(to)),
			ConfigPlanChecks: resource.ConfigPlanChecks{
				PreApply: []plancheck.PlanCheck{plancheck.ExpectResourceAction(to, want)},
			},
			ConfigStateChecks: append(moved, checks...),
			Check: func(s *terraform.State) error {
				var all []map[string]any
				env.MustDo(t, "GET", collection, nil, &all)
				if len(all) != 1 {
					return fmt.Errorf("the emulator holds %d %s after the move, want exactly 1: %v", len(all), collection, all)
				}
				if got, want := fmt.Sprint(all[0]["id"]), resourceID(s, to); got != want {
					return fmt.Errorf("the emulator holds %s %s, the state %s", collection, got, want)
				}
				if check != nil {
					return check(all[0])
				}
				return nil
			},
		},
		{
			Config: env.Config(after, movedBlock(to)),
			ConfigPlanChecks: resource.ConfigPlanChecks{
				PreApply: []plancheck.PlanCheck{plancheck.ExpectEmptyPlan()},
			},
		},
	}
}

// A project managed as rms_resource moves to rms_project with nothing to
// change. A key rms_project has no attribute for stays on the service (the
// move warns about it; see the unit tests).
func TestAccMoveGenericToProject(t *testing.T) {
	acctest.SkipUnlessAcceptance(t)
	env := acctest.NewEnv(t, emulator.Options{})
	resource.ParallelTest(t, resource.TestCase{
		TerraformVersionChecks:   []tfversion.TerraformVersionCheck{acctest.SkipWithoutCrossTypeMoved},
		ProtoV6ProviderFactories: acctest.ProviderFactories(),
		Steps: moveSteps(t, env, "rms_project.test", "projects",
			genericConfig("projects", `{ name = "Newsletter", description = "monthly", owner = "marketing" }`),
			projectConfig("Newsletter", "monthly"),
			plancheck.ResourceActionNoop,
			[]statecheck.StateCheck{
				statecheck.ExpectKnownValue("rms_project.test", tfjsonpath.New("description"), knownvalue.StringExact("monthly")),
				statecheck.ExpectKnownValue("rms_project.test", tfjsonpath.New("date_created"), knownvalue.NotNull()),
			},
			func(obj map[string]any) error {
				if obj["owner"] != "marketing" {
					return fmt.Errorf("the key rms_project does not manage was lost: %v", obj)
				}
				return nil
			}),
	})
}

// A list moves to rms_list, its sender fields onto their attributes; a
// description the body never set stays null.
func TestAccMoveGenericToList(t *testing.T) {
	acctest.SkipUnlessAcceptance(t)
	env := acctest.NewEnv(t, emulator.Options{})
	resource.ParallelTest(t, resource.TestCase{
		TerraformVersionChecks:   []tfversion.TerraformVersionCheck{acctest.SkipWithoutCrossTypeMoved},
		ProtoV6ProviderFactories: acctest.ProviderFactories(),
		Steps: moveSteps(t, env, "rms_list.test", "lists",
			genericConfig("lists", `{ name = "Customers", senderName = "Shop", senderEmail = "news@example.com" }`),
			listConfig("Customers", "", "Shop", "news@example.com"),
			plancheck.ResourceActionNoop,
			[]statecheck.StateCheck{
				statecheck.ExpectKnownValue("rms_list.test", tfjsonpath.New("sender_name"), knownvalue.StringExact("Shop")),
				statecheck.ExpectKnownValue("rms_list.test", tfjsonpath.New("sender_email"), knownvalue.StringExact("news@example.com")),
				statecheck.ExpectKnownValue("rms_list.test", tfjsonpath.New("description"), knownvalue.Null()),
			},
			nil),
	})
}

// A webhook without a secret moves to rms_webhook with nothing to change,
// its events (a tuple in body) becoming the set.
func TestAccMoveGenericToWebhook(t *testing.T) {
	acctest.SkipUnlessAcceptance(t)
	env := acctest.NewEnv(t, emulator.Options{})
	const url = "https://hooks.example.com/rms"
	resource.ParallelTest(t, resource.TestCase{
		TerraformVersionChecks:   []tfversion.TerraformVersionCheck{acctest.SkipWithoutCrossTypeMoved},
		ProtoV6ProviderFactories: acctest.ProviderFactories(),
		Steps: moveSteps(t, env, "rms_webhook.test", "webhooks",
			genericConfig("webhooks", `{ url = "`+url+`", events = ["message.sent", "import.finished"], active = false, description = "pipeline" }`),
			webhookConfig(url, `["import.finished", "message.sent"]`, "  active = false\n  description = \"pipeline\""),
			plancheck.ResourceActionNoop,
			[]statecheck.StateCheck{
				statecheck.ExpectKnownValue("rms_webhook.test", tfjsonpath.New("active"), knownvalue.Bool(false)),
				statecheck.ExpectKnownValue("rms_webhook.test", tfjsonpath.New("has_secret"), knownvalue.Bool(false)),
			},
			nil),
	})
}

// A webhook secret sent through rms_resource.sensitive_body never reached
// state, so it cannot move: rms_webhook gives it again with secret_wo, and
// the move plans an update that sends it. Deliveries then verify with it.
func TestAccMoveGenericToWebhook_secret(t *testing.T) {
	acctest.SkipUnlessAcceptance(t)
	env := acctest.NewEnv(t, emulator.Options{})
	hook := newHookReceiver(t)
	url := hook.srv.URL + "/rms"
	resource.ParallelTest(t, resource.TestCase{
		TerraformVersionChecks:   []tfversion.TerraformVersionCheck{acctest.SkipWithoutCrossTypeMoved, acctest.SkipWithoutWriteOnly},
		ProtoV6ProviderFactories: acctest.ProviderFactories(),
		Steps: moveSteps(t, env, "rms_webhook.test", "webhooks",
			fmt.Sprintf(`
resource "rms_resource" "test" {
  collection             = "webhooks"
  body                   = { url = %q, events = ["message.sent"] }
  sensitive_body         = { secret = "moved-secret" }
  sensitive_body_version = 1
}
`, url),
			webhookConfig(url, `["message.sent"]`, "  secret_wo         = \"moved-secret\"\n  secret_wo_version = 1"),
			plancheck.ResourceActionUpdate,
			[]statecheck.StateCheck{
				statecheck.ExpectKnownValue("rms_webhook.test", tfjsonpath.New("has_secret"), knownvalue.Bool(true)),
				statecheck.ExpectKnownValue("rms_webhook.test", tfjsonpath.New("secret_wo_version"), knownvalue.Int64Exact(1)),
			},
			func(map[string]any) error {
				env.Emulator.Emit("message.sent", map[string]any{"messageId": 1})
				verifySignature(t, hook.waitFor(t, 1)[0], "moved-secret")
				return nil
			}),
	})
}

// Moving an rms_resource of another collection fails at plan time, naming
// the collection and what to do, and changes nothing: going back to the
// rms_resource configuration plans nothing.
func TestAccMoveGenericToProject_wrongCollection(t *testing.T) {
	acctest.SkipUnlessAcceptance(t)
	env := acctest.NewEnv(t, emulator.Options{})
	campaign := genericConfig("campaigns", `{ name = "Spring sale" }`)
	resource.ParallelTest(t, resource.TestCase{
		TerraformVersionChecks:   []tfversion.TerraformVersionCheck{acctest.SkipWithoutCrossTypeMoved},
		ProtoV6ProviderFactories: acctest.ProviderFactories(),
		Steps: []resource.TestStep{
			{Config: env.Config(campaign)},
			{
				Config: env.Config(projectConfig("Spring sale", ""), movedBlock("rms_project.test")),
				ExpectError: acctest.ExpectErrorParts(`Cannot move rms_resource of collection "campaigns" to rms_project`,
					`rms_project manages entities of the collection "projects"`, `"campaigns" has no typed resource: keep it as rms_resource and remove the moved block`),
			},
			{
				Config: env.Config(campaign),
				ConfigPlanChecks: resource.ConfigPlanChecks{
					PreApply: []plancheck.PlanCheck{plancheck.ExpectEmptyPlan()},
				},
			},
		},
	})
}

// A resource of another type is not rms_project's to take: the move fails
// with the framework's "not supported" error, and nothing changes.
func TestAccMoveOtherTypeToProject(t *testing.T) {
	acctest.SkipUnlessAcceptance(t)
	env := acctest.NewEnv(t, emulator.Options{})
	data := "resource \"terraform_data\" \"test\" {\n  input = \"Spring\"\n}\n"
	resource.ParallelTest(t, resource.TestCase{
		TerraformVersionChecks:   []tfversion.TerraformVersionCheck{acctest.SkipWithoutCrossTypeMoved},
		ProtoV6ProviderFactories: acctest.ProviderFactories(),
		Steps: []resource.TestStep{
			{Config: env.Config(data)},
			{
				Config:      env.Config(projectConfig("Spring", ""), "moved {\n  from = terraform_data.test\n  to   = rms_project.test\n}\n"),
				ExpectError: acctest.ExpectErrorParts("Unable to Move Resource State", "Source Resource Type: terraform_data"),
			},
			{
				Config: env.Config(data),
				ConfigPlanChecks: resource.ConfigPlanChecks{
					PreApply: []plancheck.PlanCheck{plancheck.ExpectEmptyPlan()},
				},
			},
		},
	})
}

// Terraform reads the moved object with the typed resource before it
// plans: a change made outside Terraform after the last refresh of the
// rms_resource (so not in its state) shows in the move's plan and is set
// back, rather than the move trusting the stale state.
func TestAccMoveGenericToProject_readAfterMove(t *testing.T) {
	acctest.SkipUnlessAcceptance(t)
	env := acctest.NewEnv(t, emulator.Options{})
	var id string
	resource.ParallelTest(t, resource.TestCase{
		TerraformVersionChecks:   []tfversion.TerraformVersionCheck{acctest.SkipWithoutCrossTypeMoved},
		ProtoV6ProviderFactories: acctest.ProviderFactories(),
		Steps: []resource.TestStep{
			{
				Config: env.Config(genericConfig("projects", `{ name = "Newsletter", description = "monthly" }`)),
				Check: func(s *terraform.State) error {
					id = resourceID(s, "rms_resource.test")
					return nil
				},
			},
			{
				PreConfig: func() {
					env.MustDo(t, "PUT", "projects/"+id, map[string]any{"name": "Newsletter", "description": "edited by hand"}, nil)
				},
				Config: env.Config(projectConfig("Newsletter", "monthly"), movedBlock("rms_project.test")),
				ConfigPlanChecks: resource.ConfigPlanChecks{
					PreApply: []plancheck.PlanCheck{
						plancheck.ExpectResourceAction("rms_project.test", plancheck.ResourceActionUpdate),
						plancheck.ExpectKnownValue("rms_project.test", tfjsonpath.New("description"), knownvalue.StringExact("monthly")),
					},
				},
				Check: func(s *terraform.State) error {
					var p map[string]any
					env.MustDo(t, "GET", "projects/"+id, nil, &p)
					if p["description"] != "monthly" || resourceID(s, "rms_project.test") != id {
						return fmt.Errorf("after the move the service holds %v (state id %s, want %s)", p, resourceID(s, "rms_project.test"), id)
					}
					return nil
				},
			},
		},
	})
}
