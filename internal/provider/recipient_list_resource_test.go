package provider_test

import (
	"fmt"
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

// listConfig renders rms_list.test; empty optional values are left out.
func listConfig(name, description, senderName, senderEmail string) string {
	cfg := fmt.Sprintf("resource \"rms_list\" \"test\" {\n  name = %q\n", name)
	for _, kv := range [][2]string{{"description", description}, {"sender_name", senderName}, {"sender_email", senderEmail}} {
		if kv[1] != "" {
			cfg += fmt.Sprintf("  %s = %q\n", kv[0], kv[1])
		}
	}
	return cfg + "}\n"
}

func resourceID(s *terraform.State, address string) string {
	return s.RootModule().Resources[address].Primary.ID
}

func TestAccRecipientListResource_lifecycle(t *testing.T) {
	acctest.SkipUnlessAcceptance(t)
	env := acctest.NewEnv(t, emulator.Options{})
	var id string
	resource.ParallelTest(t, resource.TestCase{
		ProtoV6ProviderFactories: acctest.ProviderFactories(),
		Steps: []resource.TestStep{
			{ // create and read back
				Config: env.Config(listConfig("Newsletter", "monthly", "News desk", "news@example.com")),
				ConfigStateChecks: []statecheck.StateCheck{
					statecheck.ExpectKnownValue("rms_list.test", tfjsonpath.New("name"), knownvalue.StringExact("Newsletter")),
					statecheck.ExpectKnownValue("rms_list.test", tfjsonpath.New("description"), knownvalue.StringExact("monthly")),
					statecheck.ExpectKnownValue("rms_list.test", tfjsonpath.New("sender_name"), knownvalue.StringExact("News desk")),
					statecheck.ExpectKnownValue("rms_list.test", tfjsonpath.New("sender_email"), knownvalue.StringExact("news@example.com")),
					statecheck.ExpectKnownValue("rms_list.test", tfjsonpath.New("id"), knownvalue.StringRegexp(regexp.MustCompile(`^[0-9]+$`))),
					statecheck.ExpectKnownValue("rms_list.test", tfjsonpath.New("date_created"), knownvalue.NotNull()),
				},
				Check: func(s *terraform.State) error {
					id = resourceID(s, "rms_list.test")
					var got map[string]any
					env.MustDo(t, "GET", "lists/"+id, nil, &got)
					if got["senderEmail"] != "news@example.com" || got["name"] != "Newsletter" {
						t.Errorf("server holds %v", got)
					}
					return nil
				},
			},
			{ // update in place; optional values removed
				Config: env.Config(listConfig("Weekly", "", "", "weekly@example.com")),
				ConfigPlanChecks: resource.ConfigPlanChecks{
					PreApply: []plancheck.PlanCheck{plancheck.ExpectResourceAction("rms_list.test", plancheck.ResourceActionUpdate)},
				},
				ConfigStateChecks: []statecheck.StateCheck{
					statecheck.ExpectKnownValue("rms_list.test", tfjsonpath.New("name"), knownvalue.StringExact("Weekly")),
					statecheck.ExpectKnownValue("rms_list.test", tfjsonpath.New("description"), knownvalue.Null()),
					statecheck.ExpectKnownValue("rms_list.test", tfjsonpath.New("sender_name"), knownvalue.Null()),
				},
				Check: func(s *terraform.State) error {
					if got := resourceID(s, "rms_list.test"); got != id {
						t.Errorf("update replaced the list: id %s, want %s", got, id)
					}
					var got map[string]any
					env.MustDo(t, "GET", "lists/"+id, nil, &got)
					if _, has := got["description"]; has {
						t.Errorf("description still on the server: %v", got)
					}
					return nil
				},
			},
			{ // import by id
				ResourceName:      "rms_list.test",
				ImportState:       true,
				ImportStateVerify: true,
			},
			{ // drift: changed out of band, planned back in place
				PreConfig: func() {
					env.MustDo(t, "PUT", "lists/"+id, map[string]any{"name": "Renamed elsewhere", "senderName": "Someone"}, nil)
				},
				Config: env.Config(listConfig("Weekly", "", "", "weekly@example.com")),
				ConfigPlanChecks: resource.ConfigPlanChecks{
					PreApply: []plancheck.PlanCheck{plancheck.ExpectResourceAction("rms_list.test", plancheck.ResourceActionUpdate)},
				},
				ConfigStateChecks: []statecheck.StateCheck{
					statecheck.ExpectKnownValue("rms_list.test", tfjsonpath.New("name"), knownvalue.StringExact("Weekly")),
					statecheck.ExpectKnownValue("rms_list.test", tfjsonpath.New("sender_name"), knownvalue.Null()),
				},
			},
			{ // drift: deleted out of band, created again
				PreConfig: func() { env.MustDo(t, "DELETE", "lists/"+id, nil, nil) },
				Config:    env.Config(listConfig("Weekly", "", "", "weekly@example.com")),
				ConfigPlanChecks: resource.ConfigPlanChecks{
					PreApply: []plancheck.PlanCheck{plancheck.ExpectResourceAction("rms_list.test", plancheck.ResourceActionCreate)},
				},
				Check: func(s *terraform.State) error {
					if got := resourceID(s, "rms_list.test"); got == id {
						t.Errorf("recreated list kept the deleted id %s", id)
					}
					return nil
				},
			},
		},
		CheckDestroy: func(s *terraform.State) error {
			for _, r := range s.RootModule().Resources {
				if r.Type == "rms_list" {
					if status := env.Do(t, "GET", "lists/"+r.Primary.ID, nil, nil); status != 404 {
						t.Errorf("list %s still exists after destroy (GET answered %d)", r.Primary.ID, status)
					}
				}
			}
			return nil
		},
	})
}

func TestAccRecipientListResource_badInput(t *testing.T) {
	acctest.SkipUnlessAcceptance(t)
	env := acctest.NewEnv(t, emulator.Options{})
	cases := map[string]struct {
		config string
		want   *regexp.Regexp
	}{
		"empty name": {
			config: env.Config(listConfig("", "", "", "")),
			want:   acctest.ExpectErrorParts("Attribute name string length must be at least 1"),
		},
	}
	for name, tc := range cases {
		t.Run(name, func(t *testing.T) {
			resource.ParallelTest(t, resource.TestCase{
				ProtoV6ProviderFactories: acctest.ProviderFactories(),
				Steps:                    []resource.TestStep{{Config: tc.config, ExpectError: tc.want}},
			})
		})
	}
	t.Run("import id not a number", func(t *testing.T) {
		resource.ParallelTest(t, resource.TestCase{
			ProtoV6ProviderFactories: acctest.ProviderFactories(),
			Steps: []resource.TestStep{{
				Config:        env.Config(listConfig("L", "", "", "")),
				ResourceName:  "rms_list.test",
				ImportState:   true,
				ImportStateId: "newsletter",
				ExpectError:   acctest.ExpectErrorParts("Invalid import id", "rms_list by its numeric id"),
			}},
		})
	})
}
