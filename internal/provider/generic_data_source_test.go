package provider_test

import (
	"fmt"
	"testing"

	"github.com/hashicorp/terraform-plugin-testing/helper/resource"
	"github.com/hashicorp/terraform-plugin-testing/knownvalue"
	"github.com/hashicorp/terraform-plugin-testing/statecheck"
	"github.com/hashicorp/terraform-plugin-testing/tfjsonpath"

	"github.com/rms-labs/terraform-provider-rms/internal/acctest"
	"github.com/rms-labs/terraform-provider-rms/internal/emulator"
)

// One entity by id, and a whole collection paged through: more entities
// than fit on one page of the client (500).
func TestAccGenericDataSource(t *testing.T) {
	acctest.SkipUnlessAcceptance(t)
	env := acctest.NewEnv(t, emulator.Options{})
	const count = 501
	for i := range count - 1 {
		env.MustDo(t, "POST", "placeholders", map[string]any{"tag": fmt.Sprintf("p%d", i)}, nil)
	}
	resource.ParallelTest(t, resource.TestCase{
		ProtoV6ProviderFactories: acctest.ProviderFactories(),
		Steps: []resource.TestStep{{
			Config: env.Config(`
resource "rms_resource" "last" {
  collection = "placeholders"
  body       = { tag = "last", meta = { n = 1 } }
}

data "rms_resource" "one" {
  collection = "placeholders"
  id         = rms_resource.last.id
}

data "rms_resource" "all" {
  collection = "placeholders"
  depends_on = [rms_resource.last]
}

output "count" {
  value = length(data.rms_resource.all.items)
}

output "last_tag" {
  value = data.rms_resource.all.items[length(data.rms_resource.all.items) - 1].tag
}
`),
			ConfigStateChecks: []statecheck.StateCheck{
				statecheck.ExpectKnownValue("data.rms_resource.one", tfjsonpath.New("output").AtMapKey("tag"), knownvalue.StringExact("last")),
				statecheck.ExpectKnownValue("data.rms_resource.one", tfjsonpath.New("output").AtMapKey("meta").AtMapKey("n"), knownvalue.Int64Exact(1)),
				statecheck.ExpectKnownValue("data.rms_resource.one", tfjsonpath.New("items"), knownvalue.Null()),
				statecheck.ExpectKnownValue("data.rms_resource.all", tfjsonpath.New("output"), knownvalue.Null()),
				statecheck.ExpectKnownOutputValue("count", knownvalue.Int64Exact(count)),
				statecheck.ExpectKnownOutputValue("last_tag", knownvalue.StringExact("last")),
			},
		}},
	})
}

func TestAccGenericDataSource_errors(t *testing.T) {
	acctest.SkipUnlessAcceptance(t)
	env := acctest.NewEnv(t, emulator.Options{})
	retired := acctest.NewEnv(t, emulator.Options{Retired: map[string]string{"forms": "Forms moved to microsites"}})
	for name, tc := range map[string]struct {
		config string
		want   string
	}{
		"missing entity": {env.Config(`
data "rms_resource" "test" {
  collection = "campaigns"
  id         = "999999"
}`), "Entity not found"},
		"internal-only": {env.Config(`
data "rms_resource" "test" {
  collection = "systeminfo"
}`), "Systeminfo is an internal-only domain"},
		"retired": {retired.Config(`
data "rms_resource" "test" {
  collection = "forms"
}`), "Forms moved to microsites"},
	} {
		t.Run(name, func(t *testing.T) {
			resource.ParallelTest(t, resource.TestCase{
				ProtoV6ProviderFactories: acctest.ProviderFactories(),
				Steps:                    []resource.TestStep{{Config: tc.config, ExpectError: acctest.ExpectErrorParts(tc.want)}},
			})
		})
	}
}
