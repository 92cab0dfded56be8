package provider_test

import (
	"fmt"
	"testing"

	"github.com/hashicorp/terraform-plugin-testing/helper/resource"
	"github.com/hashicorp/terraform-plugin-testing/terraform"

	"github.com/rms-labs/terraform-provider-rms/internal/acctest"
	"github.com/rms-labs/terraform-provider-rms/internal/emulator"
)

// wireDotIDsConfig manages ".." and "a" in a list; renamed changes ".."'s
// firstname, unsubscribes its e-mail, and makes the resource exclusive.
func wireDotIDsConfig(renamed bool) string {
	name, extra := "Two", ""
	if renamed {
		name, extra = "Renamed", `email_status = "UNSUBSCRIBED"`
	}
	exclusive := fmt.Sprint(renamed)
	return fmt.Sprintf(`
resource "rms_list" "l" {
  name                = "Dot ids"
  deletion_protection = false
}

resource "rms_list_contacts" "c" {
  list_id   = rms_list.l.id
  exclusive = %s
  contacts = {
    ".." = {
      properties = { email = "dots@example.com", firstname = %q }
      %s
    }
    "a" = { properties = { email = "a@example.com" } }
  }
}
`, exclusive, name, extra)
}

// wireDotIDsScenario: contacts whose ids a path cannot carry are written by
// import rows and read from the listing whatever shape the answers take (a
// listing that ignores paging, creates answered with an id or a Location,
// properties keyed by id, statuses absent or started unsubscribed).
func wireDotIDsScenario(t *testing.T, opts emulator.Options) {
	env := acctest.NewEnv(t, opts)
	var listID string
	contact := func(id string) (serverContact, error) {
		for _, c := range listContactsOf(t, env, listID) {
			if c.OriginalID == id {
				return c, nil
			}
		}
		return serverContact{}, fmt.Errorf("list %s has no contact %q", listID, id)
	}
	// A status the profile does not show ("") cannot be checked.
	unsubscribed := func(s string) bool { return s == "" || s == "UNSUBSCRIBED" }
	resource.ParallelTest(t, resource.TestCase{
		ProtoV6ProviderFactories: acctest.ProviderFactories(),
		Steps: []resource.TestStep{
			{
				Config: env.Config(wireDotIDsConfig(false)),
				Check: func(s *terraform.State) error {
					listID = s.RootModule().Resources["rms_list.l"].Primary.ID
					c, err := contact("..")
					if err != nil {
						return err
					}
					if !hasValue(c.Properties, "Two") {
						return fmt.Errorf("contact \"..\": %+v", c)
					}
					return nil
				},
			},
			{ // a "." sign-up made meanwhile is unsubscribed by exclusive; ".." renamed and unsubscribed
				PreConfig: func() {
					env.MustDo(t, "POST", "lists/"+listID+"/contacts", map[string]any{"originalId": ".", "properties": map[string]string{"email": "signup@example.com"}}, nil)
				},
				Config: env.Config(wireDotIDsConfig(true)),
				Check: func(*terraform.State) error {
					dots, err := contact("..")
					if err != nil {
						return err
					}
					if !hasValue(dots.Properties, "Renamed") || !unsubscribed(dots.Status) {
						return fmt.Errorf("contact \"..\": %+v", dots)
					}
					dot, err := contact(".")
					if err != nil {
						return err
					}
					if !unsubscribed(dot.Status) {
						return fmt.Errorf("contact \".\": %+v", dot)
					}
					return nil
				},
			},
		},
		CheckDestroy: func(*terraform.State) error { return wireGone(t, env, "lists/"+listID) },
	})
}

// hasValue reports whether props holds v under any key (a profile may key
// properties by attribute id).
func hasValue(props map[string]string, v string) bool {
	for _, got := range props {
		if got == v {
			return true
		}
	}
	return false
}
