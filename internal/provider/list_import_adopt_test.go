package provider_test

import (
	"fmt"
	"net/http"
	"net/http/httptest"
	"net/http/httputil"
	"net/url"
	"path/filepath"
	"strings"
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

// withoutImportListing puts a proxy in front of env that answers 405 to
// GET .../lists/{id}/imports, as a service without our listing convention
// would, and returns a copy of env that reaches the emulator through it.
func withoutImportListing(t *testing.T, env *acctest.Env) *acctest.Env {
	t.Helper()
	target, err := url.Parse(env.URL)
	if err != nil {
		t.Fatal(err)
	}
	proxy := httputil.NewSingleHostReverseProxy(target)
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.Method == http.MethodGet && strings.HasSuffix(r.URL.Path, "/imports") {
			http.Error(w, "method not allowed", http.StatusMethodNotAllowed)
			return
		}
		proxy.ServeHTTP(w, r)
	}))
	t.Cleanup(srv.Close)
	proxied := *env
	proxied.URL = srv.URL
	return &proxied
}

// An import made by hand over REST and then imported into Terraform (with
// terraform import or an import block) adopts the configuration's file and
// settings on the next apply: updated in place, never replaced, and the
// file is not uploaded again. Where the service lists a list's imports, the
// refresh after the import fills delimiter, encoding and identity_column
// from it; where it does not, the settings are adopted all the same.
func TestAccListImportResource_importAdoptsWithoutUpload(t *testing.T) {
	acctest.SkipUnlessAcceptance(t)
	tests := []struct {
		name        string
		importBlock bool
		noListing   bool
	}{
		{name: "terraform import, listing"},
		{name: "import block, listing", importBlock: true},
		{name: "terraform import, no listing", noListing: true},
		{name: "import block, no listing", importBlock: true, noListing: true},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			env := acctest.NewEnv(t, emulator.Options{})
			list := importList(t, env)
			csv := "email;firstname\nada@example.com;Ada\ngrace@example.com;Grace\n"
			file := filepath.Join(t.TempDir(), "contacts.csv")
			mustWrite(t, file, csv)
			importID, batchID := env.ImportByHand(t, list,
				map[string]any{"delimiter": "59", "encoding": "UTF8", "type": "ADD", "identityColumn": "email"}, csv)
			id := list + "/ADD/" + importID + "/" + batchID

			tfEnv := env
			if tt.noListing {
				tfEnv = withoutImportListing(t, env)
			}
			// Encoding is left at its default, as in the issue.
			res := importConfig(list, "ADD", fmt.Sprintf("file = %q", file), `delimiter = ";"`,
				`identity_column = "email"`, `triggers = { run = "1" }`)
			config := tfEnv.Config(res)

			sameBatch := statecheck.ExpectKnownValue(importAddr, tfjsonpath.New("batch_id"), knownvalue.StringExact(batchID))
			adopt := resource.TestStep{
				Config: config,
				ConfigPlanChecks: resource.ConfigPlanChecks{
					PreApply: []plancheck.PlanCheck{plancheck.ExpectResourceAction(importAddr, plancheck.ResourceActionUpdate)},
					// After the apply, the same configuration plans nothing.
					PostApplyPostRefresh: []plancheck.PlanCheck{plancheck.ExpectEmptyPlan()},
				},
				ConfigStateChecks: []statecheck.StateCheck{
					sameBatch,
					statecheck.ExpectKnownValue(importAddr, tfjsonpath.New("delimiter"), knownvalue.StringExact(";")),
					statecheck.ExpectKnownValue(importAddr, tfjsonpath.New("encoding"), knownvalue.StringExact("UTF8")),
					statecheck.ExpectKnownValue(importAddr, tfjsonpath.New("identity_column"), knownvalue.StringExact("email")),
					statecheck.ExpectKnownValue(importAddr, tfjsonpath.New("content_sha256"), knownvalue.StringExact(sha256Hex([]byte(csv)))),
				},
				Check: func(*terraform.State) error { wantUploads(t, env, 1); return nil },
			}
			var steps []resource.TestStep
			if tt.importBlock {
				adopt.Config = tfEnv.Config(fmt.Sprintf("import {\n  to = %s\n  id = %q\n}\n", importAddr, id), res)
				steps = []resource.TestStep{adopt}
			} else {
				steps = []resource.TestStep{{
					Config:             config,
					ResourceName:       importAddr,
					ImportState:        true,
					ImportStateId:      id,
					ImportStatePersist: true,
					ImportStateCheck: func(s []*terraform.InstanceState) error {
						if len(s) != 1 || s[0].Attributes["batch_id"] != batchID {
							return fmt.Errorf("imported %v, want batch %s", s, batchID)
						}
						// The listing, where there is one, fills the settings.
						want := map[string]string{"delimiter": ";", "encoding": "UTF8", "identity_column": "email"}
						for attr, v := range want {
							if tt.noListing {
								v = ""
							}
							if got := s[0].Attributes[attr]; got != v {
								return fmt.Errorf("imported %s = %q, want %q", attr, got, v)
							}
						}
						return nil
					},
				}, adopt}
			}
			steps = append(steps, resource.TestStep{ // and nothing more later
				Config: config,
				ConfigPlanChecks: resource.ConfigPlanChecks{
					PreApply: []plancheck.PlanCheck{plancheck.ExpectEmptyPlan()},
				},
				ConfigStateChecks: []statecheck.StateCheck{sameBatch},
				Check:             func(*terraform.State) error { wantUploads(t, env, 1); return nil },
			})
			resource.Test(t, resource.TestCase{
				ProtoV6ProviderFactories: acctest.ProviderFactories(),
				Steps:                    steps,
			})
		})
	}
}
