package provider_test

import (
	"testing"

	"github.com/hashicorp/terraform-plugin-testing/helper/resource"

	"github.com/rms-labs/terraform-provider-rms/internal/acctest"
	"github.com/rms-labs/terraform-provider-rms/internal/emulator"
)

// An rms_contact property key that names no attribute of the account
// fails the plan, as rms_list_contacts' does, naming the key, its path and
// the attributes there are (or the right spelling when only letter case
// differs), instead of the service's 400 at apply: the plan writes
// nothing, and the account's attributes are all it reads.
func TestAccContactResource_unknownPropertyKeyRefusedAtPlan(t *testing.T) {
	acctest.SkipUnlessAcceptance(t)
	for name, tc := range map[string]struct {
		props string
		want  []string
	}{
		"no attribute of the account": {
			props: `{ first_name = "Ada" }`,
			want:  []string{"Unknown contact attribute", `properties["first_name"]: key "first_name" names no contact attribute of the account (its attributes:`, "firstname", "add the attribute to the account first"},
		},
		"letter case differs": {
			props: `{ FirstName = "Ada", lastname = "Lovelace" }`,
			want:  []string{"Unknown contact attribute", `properties["FirstName"]`, `its attribute "firstname" differs only in letter case`, `write "firstname"`},
		},
	} {
		t.Run(name, func(t *testing.T) {
			env := acctest.NewEnv(t, emulator.Options{})
			resource.ParallelTest(t, resource.TestCase{
				ProtoV6ProviderFactories: acctest.ProviderFactories(),
				Steps: []resource.TestStep{{
					Config: env.Config(`
resource "rms_list" "l" {
  name = "L"
}
resource "rms_contact" "c" {
  list_id     = rms_list.l.id
  original_id = "c-1"
  properties  = ` + tc.props + `
}`),
					PlanOnly:    true,
					ExpectError: acctest.ExpectErrorParts(tc.want...),
				}},
			})
			st := env.Emulator.Requests()
			if st.ByMethod["GET"] != st.Total {
				t.Errorf("the plan sent %v by method, want only reads", st.ByMethod)
			}
			if st.ByCollection["properties"] == 0 {
				t.Errorf("the plan never read the account's attributes (%v by collection)", st.ByCollection)
			}
		})
	}
}
