package provider_test

import (
	"fmt"
	"testing"

	"github.com/hashicorp/terraform-plugin-testing/helper/resource"
	"github.com/hashicorp/terraform-plugin-testing/terraform"
	"github.com/hashicorp/terraform-plugin-testing/tfversion"

	"github.com/rms-labs/terraform-provider-rms/internal/acctest"
	"github.com/rms-labs/terraform-provider-rms/internal/emulator"
)

// The credentials check runs when Terraform configures the provider: a
// wrong password, token or customer id fails `terraform plan` of a
// configuration that only creates, with the diagnostic an apply gives.
// The configurations manage no project, so every request on "projects"
// is the check (GET /rest/{customerid}/projects?page=0&pageSize=1).

const createOnlyList = `resource "rms_list" "l" { name = "Created only" }`

// onlyChecks fails unless every request the emulator answered was the
// credentials check, and there were want of them (any number when want is
// negative but at least one).
func onlyChecks(env *acctest.Env, want int64) error {
	st := env.Emulator.Requests()
	checks := st.ByCollection["projects"]
	if st.Total != checks || st.ByMethod["GET"] != st.Total {
		return fmt.Errorf("the emulator answered %d requests (%v by collection, %v by method), want only credentials checks", st.Total, st.ByCollection, st.ByMethod)
	}
	if (want < 0 && checks == 0) || (want >= 0 && checks != want) {
		return fmt.Errorf("%d credentials checks, want %d", checks, want)
	}
	return nil
}

func TestAccCredentialsCheck_createOnlyPlanFails(t *testing.T) {
	acctest.SkipUnlessAcceptance(t)
	for name, tc := range map[string]struct {
		opts     emulator.Options
		settings map[string]string
		status   int
		want     []string
	}{
		"wrong password": {
			settings: map[string]string{"password": `"wrong"`},
			status:   401,
			want:     []string{"Credentials refused by the service", "401 UNAUTHORIZED: credentials are wrong", "Check username and password (or RMS_USERNAME and RMS_PASSWORD)", "checks its credentials with one read-only request"},
		},
		"wrong token": {
			opts:     emulator.Options{Token: "right-token", Username: emulator.DefaultUsername},
			settings: map[string]string{"username": "", "password": "", "token": `"wrong-token"`},
			status:   401,
			want:     []string{"Credentials refused by the service", "401 UNAUTHORIZED: the bearer token is wrong", "or token (or RMS_TOKEN)"},
		},
		"customer id of another account": {
			settings: map[string]string{"customer_id": "4242"},
			status:   403,
			want:     []string{"Customer id refused by the service", "403 FORBIDDEN", "Check customer_id (or RMS_CUSTOMER_ID)"},
		},
	} {
		t.Run(name, func(t *testing.T) {
			env := acctest.NewEnv(t, tc.opts)
			resource.ParallelTest(t, resource.TestCase{
				ProtoV6ProviderFactories: acctest.ProviderFactories(),
				Steps: []resource.TestStep{{
					Config:      providerWith(env, tc.settings) + createOnlyList,
					PlanOnly:    true,
					ExpectError: acctest.ExpectErrorParts(tc.want...),
				}},
			})
			st := env.Emulator.Requests()
			if st.ByStatus[tc.status] == 0 || st.ByStatus[tc.status] != st.Total {
				t.Errorf("the emulator answered %v by status, want only %d", st.ByStatus, tc.status)
			}
			if n := st.ByCollection["projects"]; n != st.Total {
				t.Errorf("%d of %d requests were the credentials check", n, st.Total)
			}
		})
	}
}

// With the right credentials the same plan passes, and the check is all
// it sends.
func TestAccCredentialsCheck_createOnlyPlanPasses(t *testing.T) {
	acctest.SkipUnlessAcceptance(t)
	env := acctest.NewEnv(t, emulator.Options{})
	resource.ParallelTest(t, resource.TestCase{
		ProtoV6ProviderFactories: acctest.ProviderFactories(),
		Steps: []resource.TestStep{{
			Config:             env.Config(createOnlyList),
			PlanOnly:           true,
			ExpectNonEmptyPlan: true,
		}},
	})
	if err := onlyChecks(env, -1); err != nil {
		t.Error(err)
	}
}

// A provider block that depends on a resource not yet created is
// configured with unknown values: nothing to check, no request, and the
// plan goes on.
func TestAccCredentialsCheck_unknownConfiguration(t *testing.T) {
	acctest.SkipUnlessAcceptance(t)
	env := acctest.NewEnv(t, emulator.Options{})
	resource.ParallelTest(t, resource.TestCase{
		TerraformVersionChecks:   []tfversion.TerraformVersionCheck{tfversion.SkipBelow(tfversion.Version1_4_0)},
		ProtoV6ProviderFactories: acctest.ProviderFactories(),
		Steps: []resource.TestStep{{
			Config: fmt.Sprintf(`
resource "terraform_data" "password" {
  input = %q
}

provider "rms" {
  base_url    = %q
  customer_id = %d
  username    = %q
  password    = terraform_data.password.output
}
`, env.Password, env.URL, env.CustomerID, env.Username) + createOnlyList,
			PlanOnly:           true,
			ExpectNonEmptyPlan: true,
		}},
	})
	if err := onlyChecks(env, 0); err != nil {
		t.Error(err)
	}
}

// A configuration that only calls provider functions makes no request:
// Terraform calls functions without configuring the provider, even with a
// provider block that names a reachable account. OpenTofu configures a
// provider before it calls its functions, so there the check runs, and is
// all that is sent.
func TestAccCredentialsCheck_functionsOnly(t *testing.T) {
	acctest.SkipUnlessAcceptance(t)
	env := acctest.NewEnv(t, emulator.Options{})
	want := int64(0)
	if acctest.MustDetectCLI(t).Name == "OpenTofu" {
		want = -1
	}
	resource.ParallelTest(t, resource.TestCase{
		TerraformVersionChecks:   []tfversion.TerraformVersionCheck{tfversion.SkipBelow(tfversion.Version1_8_0)},
		ProtoV6ProviderFactories: acctest.ProviderFactories(),
		Steps: []resource.TestStep{{
			Config: env.Config(`
output "delimiter" {
  value = provider::rms::delimiter_code(";")
}
output "import_id" {
  value = provider::rms::contact_import_id("5", "c-1")
}
`),
			Check: func(*terraform.State) error { return onlyChecks(env, want) },
		}},
	})
	if err := onlyChecks(env, want); err != nil {
		t.Error(err)
	}
}
