package provider_test

import (
	"testing"

	"github.com/hashicorp/go-version"
	"github.com/hashicorp/terraform-plugin-testing/helper/resource"
	"github.com/hashicorp/terraform-plugin-testing/knownvalue"
	"github.com/hashicorp/terraform-plugin-testing/statecheck"
	"github.com/hashicorp/terraform-plugin-testing/tfjsonpath"
	"github.com/hashicorp/terraform-plugin-testing/tfversion"

	"github.com/rms-labs/terraform-provider-rms/internal/acctest"
	"github.com/rms-labs/terraform-provider-rms/internal/emulator"
)

// minimumCLI are the oldest CLIs the provider supports, as the README and
// the provider documentation state. Write-only attributes (rms_webhook's
// secret_wo) are what sets the Terraform minimum.
var minimumCLI = map[string]*version.Version{
	"Terraform": version.Must(version.NewVersion("1.11.4")),
	"OpenTofu":  version.Must(version.NewVersion("1.10.0")),
}

// The suite runs only on a supported CLI: with an older one this test fails
// with the minimum in its message, rather than other tests failing in
// obscure ways. (make test runs it on the minimum itself.)
func TestAccSupportedCLIVersion(t *testing.T) {
	acctest.SkipUnlessAcceptance(t)
	cli := acctest.MustDetectCLI(t)
	minimum, ok := minimumCLI[cli.Name]
	if !ok {
		t.Fatalf("no minimum version for %s", cli.Name)
	}
	env := acctest.NewEnv(t, emulator.Options{})
	resource.ParallelTest(t, resource.TestCase{
		TerraformVersionChecks:   []tfversion.TerraformVersionCheck{tfversion.RequireAbove(minimum)},
		ProtoV6ProviderFactories: acctest.ProviderFactories(),
		Steps: []resource.TestStep{{
			Config: env.Config(`
resource "rms_project" "p" {
  name = "minimum CLI"
}
`),
			ConfigStateChecks: []statecheck.StateCheck{
				statecheck.ExpectKnownValue("rms_project.p", tfjsonpath.New("name"), knownvalue.StringExact("minimum CLI")),
			},
		}},
	})
}
