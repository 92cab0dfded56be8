package provider_test

import (
	"testing"

	"github.com/hashicorp/terraform-plugin-testing/compare"
	"github.com/hashicorp/terraform-plugin-testing/helper/resource"
	"github.com/hashicorp/terraform-plugin-testing/knownvalue"
	"github.com/hashicorp/terraform-plugin-testing/statecheck"
	"github.com/hashicorp/terraform-plugin-testing/tfjsonpath"

	"github.com/rms-labs/terraform-provider-rms/internal/acctest"
	"github.com/rms-labs/terraform-provider-rms/internal/emulator"
)

func TestAccListDataSources(t *testing.T) {
	acctest.SkipUnlessAcceptance(t)
	env := acctest.NewEnv(t, emulator.Options{})
	config := env.Config(`
resource "rms_list" "a" {
  name         = "Alpha"
  sender_email = "alpha@example.com"
}
resource "rms_list" "b" {
  name = "Beta"
  # Created after Alpha, so the listing's order (ascending id) is known.
  depends_on = [rms_list.a]
}
data "rms_list" "by_id" {
  id = rms_list.a.id
}
data "rms_list" "by_name" {
  name       = "Beta"
  depends_on = [rms_list.b]
}
data "rms_lists" "all" {
  depends_on = [rms_list.a, rms_list.b]
}
`)
	resource.ParallelTest(t, resource.TestCase{
		ProtoV6ProviderFactories: acctest.ProviderFactories(),
		Steps: []resource.TestStep{{
			Config: config,
			ConfigStateChecks: []statecheck.StateCheck{
				statecheck.ExpectKnownValue("data.rms_list.by_id", tfjsonpath.New("name"), knownvalue.StringExact("Alpha")),
				statecheck.ExpectKnownValue("data.rms_list.by_id", tfjsonpath.New("sender_email"), knownvalue.StringExact("alpha@example.com")),
				statecheck.ExpectKnownValue("data.rms_list.by_id", tfjsonpath.New("description"), knownvalue.Null()),
				statecheck.CompareValuePairs("data.rms_list.by_name", tfjsonpath.New("id"), "rms_list.b", tfjsonpath.New("id"), compare.ValuesSame()),
				statecheck.ExpectKnownValue("data.rms_lists.all", tfjsonpath.New("lists"), knownvalue.ListExact([]knownvalue.Check{
					knownvalue.ObjectPartial(map[string]knownvalue.Check{"name": knownvalue.StringExact("Alpha"), "sender_email": knownvalue.StringExact("alpha@example.com")}),
					knownvalue.ObjectPartial(map[string]knownvalue.Check{"name": knownvalue.StringExact("Beta"), "sender_email": knownvalue.Null()}),
				})),
			},
		}},
	})

	for name, tc := range map[string]struct {
		config string
		want   []string
	}{
		"unknown id":          {`data "rms_list" "x" { id = "99999" }`, []string{"List not found", `No list has id "99999"`}},
		"unknown name":        {`data "rms_list" "x" { name = "Nope" }`, []string{"Unable to find list by name", `no list is named "Nope"`}},
		"neither id nor name": {`data "rms_list" "x" {}`, []string{"Missing Attribute Configuration", "Exactly one of these attributes must be configured: [id,name]"}},
	} {
		t.Run(name, func(t *testing.T) {
			resource.ParallelTest(t, resource.TestCase{
				ProtoV6ProviderFactories: acctest.ProviderFactories(),
				Steps:                    []resource.TestStep{{Config: env.Config(tc.config), ExpectError: acctest.ExpectErrorParts(tc.want...)}},
			})
		})
	}
}
