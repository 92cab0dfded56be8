package provider_test

import (
	"testing"

	"github.com/hashicorp/terraform-plugin-testing/helper/resource"
	"github.com/hashicorp/terraform-plugin-testing/knownvalue"
	"github.com/hashicorp/terraform-plugin-testing/statecheck"
	"github.com/hashicorp/terraform-plugin-testing/tfjsonpath"

	"github.com/rms-labs/terraform-provider-rms/internal/acctest"
)

// connectionCase is one provider block of a connection test: the settings
// added to it, and whether the provider must fail to connect.
type connectionCase struct {
	extra   string
	wantErr bool
}

// testConnectionCases applies one project through each case's provider
// block (provider(extra) writes it): a case that connects creates the
// project, named after the case; one that must not fails with errParts.
func testConnectionCases(t *testing.T, provider func(extra string) string, cases map[string]connectionCase, errParts ...string) {
	t.Helper()
	for name, tc := range cases {
		t.Run(name, func(t *testing.T) {
			step := resource.TestStep{Config: provider(tc.extra) + projectConfig(name, "")}
			if tc.wantErr {
				step.ExpectError = acctest.ExpectErrorParts(errParts...)
			} else {
				step.ConfigStateChecks = []statecheck.StateCheck{
					statecheck.ExpectKnownValue("rms_project.test", tfjsonpath.New("name"), knownvalue.StringExact(name)),
				}
			}
			resource.ParallelTest(t, resource.TestCase{
				ProtoV6ProviderFactories: acctest.ProviderFactories(),
				Steps:                    []resource.TestStep{step},
			})
		})
	}
}
