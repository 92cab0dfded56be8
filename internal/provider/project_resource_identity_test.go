package provider_test

import (
	"encoding/json"
	"fmt"
	"regexp"
	"testing"

	"github.com/hashicorp/terraform-plugin-testing/helper/resource"
	"github.com/hashicorp/terraform-plugin-testing/knownvalue"
	"github.com/hashicorp/terraform-plugin-testing/plancheck"
	"github.com/hashicorp/terraform-plugin-testing/statecheck"
	"github.com/hashicorp/terraform-plugin-testing/tfjsonpath"
	"github.com/hashicorp/terraform-plugin-testing/tfversion"

	"github.com/rms-labs/terraform-provider-rms/internal/acctest"
	"github.com/rms-labs/terraform-provider-rms/internal/emulator"
)

var numericID = knownvalue.StringRegexp(regexp.MustCompile(`^[0-9]+$`))

// TestAccProjectResource_identity: the identity is the id, set on create and
// kept on update, and an import block with `identity = { id = ... }` finds
// the same project with nothing to change.
func TestAccProjectResource_identity(t *testing.T) {
	acctest.SkipUnlessAcceptance(t)
	env := acctest.NewEnv(t, emulator.Options{})
	resource.ParallelTest(t, resource.TestCase{
		TerraformVersionChecks:   []tfversion.TerraformVersionCheck{tfversion.SkipBelow(tfversion.Version1_12_0)},
		ProtoV6ProviderFactories: acctest.ProviderFactories(),
		Steps: []resource.TestStep{
			{
				Config: env.Config(projectConfig("Spring", "seasonal sends")),
				ConfigStateChecks: []statecheck.StateCheck{
					statecheck.ExpectIdentity("rms_project.test", map[string]knownvalue.Check{"id": numericID}),
					statecheck.ExpectIdentityValueMatchesState("rms_project.test", tfjsonpath.New("id")),
				},
			},
			{
				ResourceName:    "rms_project.test",
				ImportState:     true,
				ImportStateKind: resource.ImportBlockWithResourceIdentity,
				ImportPlanChecks: resource.ImportPlanChecks{PreApply: []plancheck.PlanCheck{
					plancheck.ExpectKnownValue("rms_project.test", tfjsonpath.New("name"), knownvalue.StringExact("Spring")),
					plancheck.ExpectKnownValue("rms_project.test", tfjsonpath.New("description"), knownvalue.StringExact("seasonal sends")),
				}},
			},
			{ // an update in place keeps the identity
				Config: env.Config(projectConfig("Summer", "")),
				ConfigPlanChecks: resource.ConfigPlanChecks{
					PreApply: []plancheck.PlanCheck{plancheck.ExpectResourceAction("rms_project.test", plancheck.ResourceActionUpdate)},
				},
				ConfigStateChecks: []statecheck.StateCheck{
					statecheck.ExpectKnownValue("rms_project.test", tfjsonpath.New("name"), knownvalue.StringExact("Summer")),
					statecheck.ExpectIdentityValueMatchesState("rms_project.test", tfjsonpath.New("id")),
				},
			},
		},
	})
}

// TestAccProjectResource_importBlockByID: `import { id = "42" }` next to the
// identity form. Import blocks exist since Terraform 1.5, so this runs on the
// minimum version too.
func TestAccProjectResource_importBlockByID(t *testing.T) {
	acctest.SkipUnlessAcceptance(t)
	env := acctest.NewEnv(t, emulator.Options{})
	resource.ParallelTest(t, resource.TestCase{
		TerraformVersionChecks:   []tfversion.TerraformVersionCheck{tfversion.SkipBelow(tfversion.Version1_5_0)},
		ProtoV6ProviderFactories: acctest.ProviderFactories(),
		Steps: []resource.TestStep{
			{Config: env.Config(projectConfig("Autumn", "harvest"))},
			{
				ResourceName:    "rms_project.test",
				ImportState:     true,
				ImportStateKind: resource.ImportBlockWithID,
				ImportPlanChecks: resource.ImportPlanChecks{PreApply: []plancheck.PlanCheck{
					plancheck.ExpectKnownValue("rms_project.test", tfjsonpath.New("name"), knownvalue.StringExact("Autumn")),
					plancheck.ExpectKnownValue("rms_project.test", tfjsonpath.New("description"), knownvalue.StringExact("harvest")),
				}},
			},
		},
	})
}

// TestAccProjectResource_importByIdentityApply brings a project made outside
// Terraform under management with an import block by identity, through a real
// apply, and then finds nothing to change.
func TestAccProjectResource_importByIdentityApply(t *testing.T) {
	acctest.SkipUnlessAcceptance(t)
	env := acctest.NewEnv(t, emulator.Options{})
	var made struct {
		ID json.Number `json:"id"`
	}
	env.MustDo(t, "POST", "projects", map[string]any{"name": "Made elsewhere", "description": "by hand"}, &made)
	id := made.ID.String()
	importBlock := func(id string) string {
		return fmt.Sprintf("import {\n  to       = rms_project.test\n  identity = { id = %q }\n}\n", id)
	}
	resource.ParallelTest(t, resource.TestCase{
		TerraformVersionChecks:   []tfversion.TerraformVersionCheck{tfversion.SkipBelow(tfversion.Version1_12_0)},
		ProtoV6ProviderFactories: acctest.ProviderFactories(),
		Steps: []resource.TestStep{
			{
				Config: env.Config(importBlock(id), projectConfig("Made elsewhere", "by hand")),
				ConfigPlanChecks: resource.ConfigPlanChecks{
					PreApply: []plancheck.PlanCheck{plancheck.ExpectResourceAction("rms_project.test", plancheck.ResourceActionNoop)},
				},
				ConfigStateChecks: []statecheck.StateCheck{
					statecheck.ExpectKnownValue("rms_project.test", tfjsonpath.New("id"), knownvalue.StringExact(id)),
					statecheck.ExpectIdentity("rms_project.test", map[string]knownvalue.Check{"id": knownvalue.StringExact(id)}),
				},
			},
		},
	})
}

// TestAccProjectResource_importByIdentityBad: each bad identity a user can
// write gives a diagnostic naming the cause. Each case has its own TestCase,
// since an import that fails leaves nothing to destroy.
func TestAccProjectResource_importByIdentityBad(t *testing.T) {
	acctest.SkipUnlessAcceptance(t)
	env := acctest.NewEnv(t, emulator.Options{})
	cases := map[string]struct {
		id   string
		want *regexp.Regexp
	}{
		"not a number": {id: "newsletter", want: acctest.ExpectErrorParts("Invalid import id", "by its numeric id", `identity = { id = "42" }`, `got "newsletter"`)},
		"unknown id":   {id: "999999", want: acctest.ExpectErrorParts("Cannot import non-existent remote object")},
	}
	for name, tc := range cases {
		t.Run(name, func(t *testing.T) {
			resource.ParallelTest(t, resource.TestCase{
				TerraformVersionChecks:   []tfversion.TerraformVersionCheck{tfversion.SkipBelow(tfversion.Version1_12_0)},
				ProtoV6ProviderFactories: acctest.ProviderFactories(),
				Steps: []resource.TestStep{{
					Config: env.Config(
						fmt.Sprintf("import {\n  to       = rms_project.test\n  identity = { id = %q }\n}\n", tc.id),
						projectConfig("P", ""),
					),
					ExpectError: tc.want,
				}},
			})
		})
	}
}
