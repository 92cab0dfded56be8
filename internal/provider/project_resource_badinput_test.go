package provider_test

import (
	"fmt"
	"regexp"
	"testing"

	"github.com/hashicorp/terraform-plugin-testing/helper/resource"

	"github.com/rms-labs/terraform-provider-rms/internal/acctest"
	"github.com/rms-labs/terraform-provider-rms/internal/emulator"
)

// TestAccProjectResource_badInput checks that each bad input a user can hit
// gives a diagnostic that names the cause.
func TestAccProjectResource_badInput(t *testing.T) {
	acctest.SkipUnlessAcceptance(t)
	env := acctest.NewEnv(t, emulator.Options{})
	retired := acctest.NewEnv(t, emulator.Options{Retired: map[string]string{
		"projects": "Projects were replaced by workspaces on 2026-10-01",
	}})
	provider := func(baseURL string, customerID int64, password string) string {
		return fmt.Sprintf(`
provider "rms" {
  base_url    = %q
  customer_id = %d
  username    = %q
  password    = %q
}
`, baseURL, customerID, env.Username, password)
	}
	cases := map[string]struct {
		config string
		want   *regexp.Regexp
	}{
		"missing name": {
			config: env.Config(`resource "rms_project" "test" {}`),
			want:   acctest.ExpectErrorParts(`The argument "name" is required`),
		},
		"empty name": {
			config: env.Config(`resource "rms_project" "test" { name = "" }`),
			want:   acctest.ExpectErrorParts("Attribute name string length must be at least 1"),
		},
		"wrong credentials": {
			config: provider(env.URL, env.CustomerID, "not-the-password") + projectConfig("P", ""),
			want:   acctest.ExpectErrorParts("401 UNAUTHORIZED", "Check username and password"),
		},
		"wrong customer id": {
			config: provider(env.URL, env.CustomerID+1, env.Password) + projectConfig("P", ""),
			want:   acctest.ExpectErrorParts("403 FORBIDDEN", "Check customer_id"),
		},
		"retired path": {
			config: retired.Config(projectConfig("P", "")),
			want:   acctest.ExpectErrorParts("410 GONE: Projects were replaced by workspaces on 2026-10-01"),
		},
		"plain http to a remote host": {
			config: provider("http://rms.example.com", env.CustomerID, env.Password) + projectConfig("P", ""),
			want:   acctest.ExpectErrorParts("Invalid base URL", "uses plain http to a host that is not a loopback address; use https"),
		},
		"customer id below one": {
			config: provider(env.URL, 0, env.Password) + projectConfig("P", ""),
			want:   acctest.ExpectErrorParts("customer_id", "must be at least 1"),
		},
	}
	for name, tc := range cases {
		t.Run(name, func(t *testing.T) {
			resource.ParallelTest(t, resource.TestCase{
				ProtoV6ProviderFactories: acctest.ProviderFactories(),
				Steps: []resource.TestStep{{
					Config:      tc.config,
					ExpectError: tc.want,
				}},
			})
		})
	}
	var projects []map[string]any
	env.MustDo(t, "GET", "projects", nil, &projects)
	if len(projects) != 0 {
		t.Errorf("failed applies left %d projects on the server: %v", len(projects), projects)
	}
}

func TestAccProjectResource_importBadID(t *testing.T) {
	acctest.SkipUnlessAcceptance(t)
	env := acctest.NewEnv(t, emulator.Options{})
	resource.ParallelTest(t, resource.TestCase{
		ProtoV6ProviderFactories: acctest.ProviderFactories(),
		Steps: []resource.TestStep{
			{
				Config:        env.Config(projectConfig("P", "")),
				ResourceName:  "rms_project.test",
				ImportState:   true,
				ImportStateId: "not-a-number",
				ExpectError:   acctest.ExpectErrorParts("Invalid import id", "by its numeric id"),
			},
			{
				Config:        env.Config(projectConfig("P", "")),
				ResourceName:  "rms_project.test",
				ImportState:   true,
				ImportStateId: "999999",
				ExpectError:   acctest.ExpectErrorParts("Cannot import non-existent remote object"),
			},
		},
	})
}
