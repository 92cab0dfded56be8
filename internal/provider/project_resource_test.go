package provider_test

import (
	"regexp"
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

func projectConfig(name, description string) string {
	if description == "" {
		return `
resource "rms_project" "test" {
  name = "` + name + `"
}
`
	}
	return `
resource "rms_project" "test" {
  name        = "` + name + `"
  description = "` + description + `"
}
`
}

// projectID reads the id of rms_project.test from state for out-of-band calls.
func projectID(s *terraform.State) string {
	return s.RootModule().Resources["rms_project.test"].Primary.ID
}

func TestAccProjectResource_lifecycle(t *testing.T) {
	acctest.SkipUnlessAcceptance(t)
	env := acctest.NewEnv(t, emulator.Options{})
	var id string
	resource.ParallelTest(t, resource.TestCase{
		ProtoV6ProviderFactories: acctest.ProviderFactories(),
		Steps: []resource.TestStep{
			{ // create and read back
				Config: env.Config(projectConfig("Spring", "seasonal sends")),
				ConfigStateChecks: []statecheck.StateCheck{
					statecheck.ExpectKnownValue("rms_project.test", tfjsonpath.New("name"), knownvalue.StringExact("Spring")),
					statecheck.ExpectKnownValue("rms_project.test", tfjsonpath.New("description"), knownvalue.StringExact("seasonal sends")),
					statecheck.ExpectKnownValue("rms_project.test", tfjsonpath.New("id"), knownvalue.StringRegexp(regexp.MustCompile(`^[0-9]+$`))),
					statecheck.ExpectKnownValue("rms_project.test", tfjsonpath.New("date_created"), knownvalue.NotNull()),
				},
				Check: func(s *terraform.State) error {
					id = projectID(s)
					var got map[string]any
					env.MustDo(t, "GET", "projects/"+id, nil, &got)
					if got["name"] != "Spring" {
						t.Errorf("server holds name %v, want Spring", got["name"])
					}
					return nil
				},
			},
			{ // update in place, and remove the description
				Config: env.Config(projectConfig("Summer", "")),
				ConfigPlanChecks: resource.ConfigPlanChecks{
					PreApply: []plancheck.PlanCheck{plancheck.ExpectResourceAction("rms_project.test", plancheck.ResourceActionUpdate)},
				},
				ConfigStateChecks: []statecheck.StateCheck{
					statecheck.ExpectKnownValue("rms_project.test", tfjsonpath.New("name"), knownvalue.StringExact("Summer")),
					statecheck.ExpectKnownValue("rms_project.test", tfjsonpath.New("description"), knownvalue.Null()),
				},
				Check: func(s *terraform.State) error {
					if got := projectID(s); got != id {
						t.Errorf("update replaced the project: id %s, want %s", got, id)
					}
					return nil
				},
			},
			{ // import by id
				ResourceName:      "rms_project.test",
				ImportState:       true,
				ImportStateVerify: true,
			},
			{ // drift: renamed out of band, planned back as an in-place update
				PreConfig: func() {
					env.MustDo(t, "PUT", "projects/"+id, map[string]any{"name": "Renamed elsewhere"}, nil)
				},
				Config: env.Config(projectConfig("Summer", "")),
				ConfigPlanChecks: resource.ConfigPlanChecks{
					PreApply: []plancheck.PlanCheck{plancheck.ExpectResourceAction("rms_project.test", plancheck.ResourceActionUpdate)},
				},
				ConfigStateChecks: []statecheck.StateCheck{
					statecheck.ExpectKnownValue("rms_project.test", tfjsonpath.New("name"), knownvalue.StringExact("Summer")),
				},
			},
			{ // drift: deleted out of band, planned for creation with no error
				PreConfig: func() {
					env.MustDo(t, "DELETE", "projects/"+id, nil, nil)
				},
				Config: env.Config(projectConfig("Summer", "")),
				ConfigPlanChecks: resource.ConfigPlanChecks{
					PreApply: []plancheck.PlanCheck{plancheck.ExpectResourceAction("rms_project.test", plancheck.ResourceActionCreate)},
				},
				Check: func(s *terraform.State) error {
					if got := projectID(s); got == id {
						t.Errorf("recreated project kept the deleted id %s", id)
					}
					return nil
				},
			},
		},
		CheckDestroy: func(s *terraform.State) error {
			for _, r := range s.RootModule().Resources {
				if r.Type != "rms_project" {
					continue
				}
				if status := env.Do(t, "GET", "projects/"+r.Primary.ID, nil, nil); status != 404 {
					t.Errorf("project %s still exists after destroy (GET answered %d)", r.Primary.ID, status)
				}
			}
			return nil
		},
	})
}
