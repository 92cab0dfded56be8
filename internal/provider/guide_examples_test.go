package provider_test

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/hashicorp/terraform-plugin-testing/compare"
	"github.com/hashicorp/terraform-plugin-testing/config"
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

// readExampleFolder concatenates the .tf files of an examples/ folder.
func readExampleFolder(t *testing.T, rel string) string {
	t.Helper()
	files, err := filepath.Glob(filepath.Join("..", "..", "examples", rel, "*.tf"))
	if err != nil || len(files) == 0 {
		t.Fatalf("no .tf files in examples/%s: %v", rel, err)
	}
	var b strings.Builder
	for _, f := range files {
		src, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		b.Write(src)
		b.WriteByte('\n')
	}
	return b.String()
}

// The worked examples of the guide "Managing any domain with rms_resource"
// (one per commonly used domain) apply against the emulator as written, and
// plan no changes afterwards.
func TestAccGuideGenericDomainExamplesApply(t *testing.T) {
	acctest.SkipUnlessAcceptance(t)
	env := acctest.NewEnv(t, emulator.Options{})
	resource.ParallelTest(t, resource.TestCase{
		ProtoV6ProviderFactories: acctest.ProviderFactories(),
		Steps: []resource.TestStep{{
			Config: env.Config(readExampleFolder(t, "guides/generic-domains")),
			ConfigStateChecks: []statecheck.StateCheck{
				statecheck.ExpectKnownValue("rms_resource.plan", tfjsonpath.New("output").AtMapKey("name"), knownvalue.StringExact("plan")),
				statecheck.ExpectKnownValue("rms_resource.shop_url", tfjsonpath.New("collection"), knownvalue.StringExact("placeholders")),
				statecheck.ExpectKnownValue("rms_resource.pro_customers", tfjsonpath.New("output").AtMapKey("rules").AtSliceIndex(0).AtMapKey("attribute"), knownvalue.StringExact("plan")),
				statecheck.ExpectKnownValue("rms_resource.signup", tfjsonpath.New("output").AtMapKey("fields"), knownvalue.ListExact([]knownvalue.Check{
					knownvalue.StringExact("email"), knownvalue.StringExact("firstname"), knownvalue.StringExact("city"),
				})),
				statecheck.ExpectKnownValue("rms_resource.delivery_sms", tfjsonpath.New("output").AtMapKey("channel"), knownvalue.StringExact("SMS")),
				statecheck.ExpectKnownValue("rms_resource.spring_sale_review", tfjsonpath.New("output").AtMapKey("text"), knownvalue.StringExact("Approved by marketing")),
				statecheck.ExpectKnownOutputValue("order_confirmation_trigger_id", knownvalue.NotNull()),
			},
		}},
	})
}

// The guide's move example (examples/guides/generic-domains/move): the
// project and list applied as rms_resource in before/ become rms_project
// and rms_list in after/ through moved blocks, with nothing to create,
// destroy or change, and the same ids.
func TestAccGuideGenericDomainMoveExample(t *testing.T) {
	acctest.SkipUnlessAcceptance(t)
	env := acctest.NewEnv(t, emulator.Options{})
	before := readExampleFolder(t, "guides/generic-domains/move/before")
	after := readExampleFolder(t, "guides/generic-domains/move/after")
	projectID := statecheck.CompareValue(compare.ValuesSame())
	listID := statecheck.CompareValue(compare.ValuesSame())
	resource.ParallelTest(t, resource.TestCase{
		TerraformVersionChecks:   []tfversion.TerraformVersionCheck{acctest.SkipWithoutCrossTypeMoved},
		ProtoV6ProviderFactories: acctest.ProviderFactories(),
		Steps: []resource.TestStep{
			{
				Config: env.Config(before),
				ConfigStateChecks: []statecheck.StateCheck{
					projectID.AddStateValue("rms_resource.newsletter", tfjsonpath.New("id")),
					listID.AddStateValue("rms_resource.subscribers", tfjsonpath.New("id")),
				},
			},
			{
				Config: env.Config(after),
				ConfigPlanChecks: resource.ConfigPlanChecks{
					PreApply: []plancheck.PlanCheck{
						plancheck.ExpectResourceAction("rms_project.newsletter", plancheck.ResourceActionNoop),
						plancheck.ExpectResourceAction("rms_list.subscribers", plancheck.ResourceActionNoop),
					},
				},
				ConfigStateChecks: []statecheck.StateCheck{
					projectID.AddStateValue("rms_project.newsletter", tfjsonpath.New("id")),
					listID.AddStateValue("rms_list.subscribers", tfjsonpath.New("id")),
					statecheck.ExpectKnownValue("rms_list.subscribers", tfjsonpath.New("sender_name"), knownvalue.StringExact("Example Shop")),
				},
			},
		},
	})
}

// The resource example of rms_resource (examples/resources/rms_resource/
// resource.tf, shown on its docs page) applies on the minimum CLI, its
// secret reaching the service but not the state, and plans no changes
// afterwards.
func TestAccGenericResourceExampleApplies(t *testing.T) {
	acctest.SkipUnlessAcceptance(t)
	const password = "example-smtp-Jd83"
	env := acctest.NewEnv(t, emulator.Options{})
	// The resource's examples as the docs show them: resource.tf and, beside
	// it, the write-only one (sensitive_body).
	var src []byte
	for _, name := range []string{"resource.tf", "resource-write-only.tf"} {
		b, err := os.ReadFile(filepath.Join("..", "..", "examples", "resources", "rms_resource", name))
		if err != nil {
			t.Fatal(err)
		}
		src = append(append(src, b...), '\n')
	}
	resource.ParallelTest(t, resource.TestCase{
		TerraformVersionChecks:   []tfversion.TerraformVersionCheck{acctest.SkipWithoutEphemeral, acctest.SkipWithoutWriteOnly},
		ProtoV6ProviderFactories: acctest.ProviderFactories(),
		Steps: []resource.TestStep{{
			Config:          env.Config(string(src)),
			ConfigVariables: config.Variables{"smtp_password": config.StringVariable(password)},
			ConfigPlanChecks: resource.ConfigPlanChecks{
				PostApplyPostRefresh: []plancheck.PlanCheck{plancheck.ExpectEmptyPlan()},
			},
			ConfigStateChecks: []statecheck.StateCheck{
				statecheck.ExpectKnownValue("rms_resource.spring_sale_note", tfjsonpath.New("output").AtMapKey("text"), knownvalue.StringExact("Reviewed by marketing")),
				statecheck.ExpectKnownValue("rms_resource.mail_relay", tfjsonpath.New("output").AtMapKey("host"), knownvalue.StringExact("smtp.example.com")),
				noSecretInState{password},
				outputLacks{"rms_resource.mail_relay", []string{"password"}},
			},
			Check: func(s *terraform.State) error {
				relay := s.RootModule().Resources["rms_resource.mail_relay"]
				if relay == nil {
					return fmt.Errorf("the examples made no rms_resource.mail_relay")
				}
				var e map[string]any
				env.MustDo(t, "GET", "integration/"+relay.Primary.ID, nil, &e)
				if e["password"] != password {
					t.Errorf("the service holds password %v, want the variable's value", e["password"])
				}
				return nil
			},
		}},
	})
}
