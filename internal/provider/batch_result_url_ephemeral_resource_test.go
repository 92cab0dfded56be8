package provider_test

import (
	"fmt"
	"regexp"
	"testing"
	"time"

	"github.com/hashicorp/terraform-plugin-go/tfprotov6"
	"github.com/hashicorp/terraform-plugin-testing/echoprovider"
	"github.com/hashicorp/terraform-plugin-testing/helper/resource"
	"github.com/hashicorp/terraform-plugin-testing/knownvalue"
	"github.com/hashicorp/terraform-plugin-testing/statecheck"
	"github.com/hashicorp/terraform-plugin-testing/terraform"
	"github.com/hashicorp/terraform-plugin-testing/tfjsonpath"
	"github.com/hashicorp/terraform-plugin-testing/tfversion"

	"github.com/rms-labs/terraform-provider-rms/internal/acctest"
	"github.com/rms-labs/terraform-provider-rms/internal/emulator"
)

func withEcho() map[string]func() (tfprotov6.ProviderServer, error) {
	f := acctest.ProviderFactories()
	f["echo"] = echoprovider.NewProviderServer()
	return f
}

// startExport starts a statistics export out of band and returns its batch
// id, so no managed resource holds the result URL in state.
func startExport(t *testing.T, env *acctest.Env) string {
	var out map[string]any
	env.MustDo(t, "POST", "batches/exports/statistics", map[string]any{"exportType": "LISTS", "period": "TODAY"}, &out)
	return fmt.Sprint(out["batchId"])
}

var objectStoreURL = regexp.MustCompile(`objectstore/[0-9a-f]{32}`)

// The URL is opened and used in the run (echo receives what is derived from
// it) but appears nowhere in state.
func TestAccBatchResultURLEphemeralResource(t *testing.T) {
	acctest.SkipUnlessAcceptance(t)
	env := acctest.NewEnv(t, emulator.Options{})
	batchID := startExport(t, env)
	resource.ParallelTest(t, resource.TestCase{
		TerraformVersionChecks:   []tfversion.TerraformVersionCheck{acctest.SkipWithoutEphemeral},
		ProtoV6ProviderFactories: withEcho(),
		Steps: []resource.TestStep{{
			Config: env.Config(fmt.Sprintf(`
ephemeral "rms_batch_result_url" "u" {
  batch_id = %q
}
provider "echo" {
  data = regex("^http://127\\.0\\.0\\.1:[0-9]+/objectstore/", ephemeral.rms_batch_result_url.u.url)
}
resource "echo" "seen" {}
`, batchID)),
			ConfigStateChecks: []statecheck.StateCheck{
				statecheck.ExpectKnownValue("echo.seen", tfjsonpath.New("data"), knownvalue.StringRegexp(regexp.MustCompile(`^http://127\.0\.0\.1:[0-9]+/objectstore/$`))),
			},
			Check: func(s *terraform.State) error {
				if objectStoreURL.MatchString(s.String()) {
					return fmt.Errorf("the result URL reached state:\n%s", s.String())
				}
				return nil
			},
		}},
	})
}

func TestAccBatchResultURLEphemeralResource_badInput(t *testing.T) {
	acctest.SkipUnlessAcceptance(t)
	env := acctest.NewEnv(t, emulator.Options{BatchPendingFor: time.Hour})
	pending := startExport(t, env)
	cases := map[string]struct {
		batchID string
		want    []string
	}{
		"unknown batch":         {"999999", []string{"Batch not found", "batch_id"}},
		"unfinished batch":      {pending, []string{"Batch has no result", "batch_id"}},
		"batch id not a number": {"abc", []string{"batch_id"}},
	}
	for name, tc := range cases {
		t.Run(name, func(t *testing.T) {
			resource.ParallelTest(t, resource.TestCase{
				TerraformVersionChecks:   []tfversion.TerraformVersionCheck{acctest.SkipWithoutEphemeral},
				ProtoV6ProviderFactories: withEcho(),
				Steps: []resource.TestStep{{
					Config: env.Config(fmt.Sprintf(`
ephemeral "rms_batch_result_url" "u" {
  batch_id = %q
}
provider "echo" {
  data = ephemeral.rms_batch_result_url.u.url
}
resource "echo" "seen" {}
`, tc.batchID)),
					ExpectError: acctest.ExpectErrorParts(tc.want...),
				}},
			})
		})
	}
}
