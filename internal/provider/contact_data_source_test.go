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

func TestAccContactDataSource(t *testing.T) {
	acctest.SkipUnlessAcceptance(t)
	env := acctest.NewEnv(t, emulator.Options{})
	var list map[string]any
	env.MustDo(t, "POST", "lists", map[string]any{"name": "L"}, &list)
	listID := fmt.Sprint(list["id"])
	env.MustDo(t, "POST", "lists/"+listID+"/contacts", map[string]any{
		"originalId": "ada", "properties": map[string]any{"email": "ada@example.com", "3": "Ada"}, "mobileStatus": "UNSUBSCRIBED",
	}, nil)
	resource.ParallelTest(t, resource.TestCase{
		ProtoV6ProviderFactories: acctest.ProviderFactories(),
		Steps: []resource.TestStep{{
			Config: env.Config(fmt.Sprintf(`
data "rms_contact" "present" {
  list_id     = %[1]q
  original_id = "ada"
}
data "rms_contact" "absent" {
  list_id     = %[1]q
  original_id = "bob"
}
`, listID)),
			ConfigStateChecks: []statecheck.StateCheck{
				statecheck.ExpectKnownValue("data.rms_contact.present", tfjsonpath.New("exists"), knownvalue.Bool(true)),
				statecheck.ExpectKnownValue("data.rms_contact.present", tfjsonpath.New("properties"), knownvalue.MapExact(map[string]knownvalue.Check{
					"email": knownvalue.StringExact("ada@example.com"), "firstname": knownvalue.StringExact("Ada"),
				})),
				statecheck.ExpectKnownValue("data.rms_contact.present", tfjsonpath.New("email_status"), knownvalue.StringExact("SUBSCRIBED")),
				statecheck.ExpectKnownValue("data.rms_contact.present", tfjsonpath.New("mobile_status"), knownvalue.StringExact("UNSUBSCRIBED")),
				statecheck.ExpectKnownValue("data.rms_contact.absent", tfjsonpath.New("exists"), knownvalue.Bool(false)),
				statecheck.ExpectKnownValue("data.rms_contact.absent", tfjsonpath.New("properties"), knownvalue.Null()),
				statecheck.ExpectKnownValue("data.rms_contact.absent", tfjsonpath.New("email_status"), knownvalue.Null()),
			},
		}},
	})
	t.Run("list that does not exist", func(t *testing.T) {
		resource.ParallelTest(t, resource.TestCase{
			ProtoV6ProviderFactories: acctest.ProviderFactories(),
			Steps: []resource.TestStep{{
				Config:      env.Config(`data "rms_contact" "x" {` + "\n" + `list_id = "99999"` + "\n" + `original_id = "ada"` + "\n}"),
				ExpectError: acctest.ExpectErrorParts("List not found", "list_id", `No list has id "99999"`),
			}},
		})
	})
}
