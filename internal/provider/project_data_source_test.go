package provider_test

import (
	"testing"

	"github.com/hashicorp/terraform-plugin-testing/helper/resource"
	"github.com/hashicorp/terraform-plugin-testing/knownvalue"
	"github.com/hashicorp/terraform-plugin-testing/statecheck"
	"github.com/hashicorp/terraform-plugin-testing/tfjsonpath"

	"github.com/rms-labs/terraform-provider-rms/internal/acctest"
	"github.com/rms-labs/terraform-provider-rms/internal/emulator"
)

func TestAccProjectDataSource(t *testing.T) {
	acctest.SkipUnlessAcceptance(t)
	env := acctest.NewEnv(t, emulator.Options{})
	var existing map[string]any
	env.MustDo(t, "POST", "projects", map[string]any{"name": "Existing", "description": "made elsewhere"}, &existing)
	env.MustDo(t, "POST", "projects", map[string]any{"name": "Twin"}, nil)
	env.MustDo(t, "POST", "projects", map[string]any{"name": "Twin"}, nil)

	resource.ParallelTest(t, resource.TestCase{
		ProtoV6ProviderFactories: acctest.ProviderFactories(),
		Steps: []resource.TestStep{
			{
				Config:      env.Config(`data "rms_project" "x" { name = "Twin" }`),
				ExpectError: acctest.ExpectErrorParts("Unable to find project by name", `2 projects are named "Twin"`, "by id instead"),
			},
			{
				Config:      env.Config(`data "rms_project" "x" { name = "Nobody" }`),
				ExpectError: acctest.ExpectErrorParts(`no project is named "Nobody"`),
			},
			{
				Config:      env.Config(`data "rms_project" "x" { id = "424242" }`),
				ExpectError: acctest.ExpectErrorParts("Project not found", `No project has id "424242"`),
			},
			{
				Config:      env.Config(`data "rms_project" "x" {}`),
				ExpectError: acctest.ExpectErrorParts("Missing Attribute Configuration", "Exactly one of these attributes must be configured: [id,name]"),
			},
			{
				Config: env.Config(`
data "rms_project" "by_name" { name = "Existing" }
data "rms_project" "by_id"   { id = data.rms_project.by_name.id }
`),
				ConfigStateChecks: []statecheck.StateCheck{
					statecheck.ExpectKnownValue("data.rms_project.by_name", tfjsonpath.New("description"), knownvalue.StringExact("made elsewhere")),
					statecheck.ExpectKnownValue("data.rms_project.by_id", tfjsonpath.New("name"), knownvalue.StringExact("Existing")),
					statecheck.ExpectKnownValue("data.rms_project.by_id", tfjsonpath.New("date_created"), knownvalue.NotNull()),
				},
			},
		},
	})
}
