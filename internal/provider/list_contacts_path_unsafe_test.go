package provider_test

import (
	"fmt"
	"regexp"
	"testing"

	"github.com/hashicorp/terraform-plugin-testing/helper/resource"
	"github.com/hashicorp/terraform-plugin-testing/terraform"

	"github.com/rms-labs/terraform-provider-rms/internal/acctest"
	"github.com/rms-labs/terraform-provider-rms/internal/emulator"
)

// expectContact checks one contact of a list through the listing (a path
// cannot carry "." or "..", so the test reads it as the provider does).
func expectContact(t *testing.T, env *acctest.Env, listID, id string, check func(serverContact) bool) resource.TestCheckFunc {
	return func(*terraform.State) error {
		c, ok := listContactsOf(t, env, listID)[id]
		if !ok || !check(c) {
			return fmt.Errorf("contact %q of list %s is %+v (listed: %v)", id, listID, c, ok)
		}
		return nil
	}
}

// unsubscribeOnDestroy makes a test's rms_list_contacts unsubscribe on destroy.
const unsubscribeOnDestroy = `  on_destroy = "unsubscribe"`

// TestAccListContactsDotIDs: contacts "." and ".." are created, renamed
// and unsubscribed from e-mail (by import rows, below batch_threshold), as
// the listing shows; a mobile status no call can write is refused at plan;
// destroy unsubscribes "." by an import row.
func TestAccListContactsDotIDs(t *testing.T) {
	acctest.SkipUnlessAcceptance(t)
	env := acctest.NewEnv(t, emulator.Options{})
	listID := newTestList(t, env)
	first := map[string]listContact{
		"..": {props: map[string]string{"email": "dots@example.com", "firstname": "Two"}},
		".":  {props: map[string]string{"email": "dot@example.com"}, email: "SUBSCRIBED"},
		"a":  {props: map[string]string{"email": "a@example.com"}},
	}
	second := map[string]listContact{
		"..": {props: map[string]string{"email": "dots@example.com", "firstname": "Renamed"}, email: "UNSUBSCRIBED"},
		".":  {props: map[string]string{"email": "dot@example.com"}, email: "SUBSCRIBED"},
		"a":  {props: map[string]string{"email": "a@example.com", "firstname": "A"}},
	}
	mobile := map[string]listContact{
		"..": {props: map[string]string{"email": "dots@example.com", "firstname": "Renamed"}, email: "UNSUBSCRIBED", mobile: "UNSUBSCRIBED"},
		".":  {props: map[string]string{"email": "dot@example.com"}, email: "SUBSCRIBED"},
		"a":  {props: map[string]string{"email": "a@example.com", "firstname": "A"}},
	}
	resource.ParallelTest(t, resource.TestCase{
		ProtoV6ProviderFactories: acctest.ProviderFactories(),
		Steps: []resource.TestStep{
			{
				Config: env.Config(listContactsConfig(listID, first, unsubscribeOnDestroy)),
				Check: resource.ComposeTestCheckFunc(
					expectContact(t, env, listID, "..", func(c serverContact) bool { return c.Properties["firstname"] == "Two" && c.Status == "SUBSCRIBED" }),
					expectContact(t, env, listID, ".", func(c serverContact) bool { return c.Properties["email"] == "dot@example.com" }),
				),
			},
			{ // ".." renamed and unsubscribed as the input says; later plans are empty
				Config: env.Config(listContactsConfig(listID, second, unsubscribeOnDestroy)),
				Check: resource.ComposeTestCheckFunc(
					expectContact(t, env, listID, "..", func(c serverContact) bool {
						return c.Properties["firstname"] == "Renamed" && c.Status == "UNSUBSCRIBED" && c.MobileStatus == "SUBSCRIBED"
					}),
					expectContact(t, env, listID, "a", func(c serverContact) bool { return c.Properties["firstname"] == "A" }),
				),
			},
			{ // a mobile status of ".." cannot be written: refused at plan (the refresh lists the list), naming it
				Config:      env.Config(listContactsConfig(listID, mobile, unsubscribeOnDestroy)),
				ExpectError: regexp.MustCompile(`(?s)Contact ids a URL path cannot carry.*"\.\.": setting its mobile\s+status\s+UNSUBSCRIBED`),
			},
		},
		// destroy unsubscribes "." from e-mail, the channel its input sets, by an UNSUBSCRIBE row
		CheckDestroy: func(s *terraform.State) error {
			return expectContact(t, env, listID, ".", func(c serverContact) bool { return c.Status == "UNSUBSCRIBED" && c.MobileStatus == "SUBSCRIBED" })(s)
		},
	})
}

// TestAccListContactsExclusiveDotSignUp: a "." sign-up made outside
// Terraform is unsubscribed from e-mail by exclusive (an UNSUBSCRIBE
// import row), without failing; its mobile channel, which no call can
// reach, is left and named, and the next plan is empty.
func TestAccListContactsExclusiveDotSignUp(t *testing.T) {
	acctest.SkipUnlessAcceptance(t)
	env := acctest.NewEnv(t, emulator.Options{})
	listID := newTestList(t, env)
	env.MustDo(t, "POST", "lists/"+listID+"/contacts", map[string]any{"originalId": ".", "properties": map[string]string{"email": "signup@example.com"}}, nil)
	env.MustDo(t, "POST", "lists/"+listID+"/contacts", map[string]any{"originalId": "other", "properties": map[string]string{"email": "other@example.com"}}, nil)
	contacts := map[string]listContact{"a": {props: map[string]string{"email": "a@example.com"}}}
	resource.ParallelTest(t, resource.TestCase{
		ProtoV6ProviderFactories: acctest.ProviderFactories(),
		Steps: []resource.TestStep{
			{
				Config: env.Config(listContactsConfig(listID, contacts, "  exclusive       = true\n  max_unsubscribe = 2")),
				Check: resource.ComposeTestCheckFunc(
					expectContact(t, env, listID, ".", func(c serverContact) bool { return c.Status == "UNSUBSCRIBED" && c.MobileStatus == "SUBSCRIBED" }),
					expectContact(t, env, listID, "other", func(c serverContact) bool { return c.Status == "UNSUBSCRIBED" && c.MobileStatus == "UNSUBSCRIBED" }),
					expectContact(t, env, listID, "a", func(c serverContact) bool { return c.Status == "SUBSCRIBED" }),
				),
			},
		},
	})
}

// TestAccContactDotID: rms_contact "." is created (by POST) and read from
// the listing, so later plans succeed, and another rms_contact of the same
// configuration plans and applies its changes; "." is renamed by an ADD
// import row and unsubscribed from e-mail by an UNSUBSCRIBE row; a mobile
// status, which no call that carries the id in a body sets, is refused at
// plan, naming original_id.
func TestAccContactDotID(t *testing.T) {
	acctest.SkipUnlessAcceptance(t)
	env := acctest.NewEnv(t, emulator.Options{})
	listID := newTestList(t, env)
	config := func(dotName, otherName, dotStatuses string) string {
		return env.Config(fmt.Sprintf(`
resource "rms_contact" "dot" {
  list_id      = %[1]q
  original_id  = "."
  properties   = { email = "dot@example.com", firstname = %[2]q }
  %[4]s
}

resource "rms_contact" "other" {
  list_id     = %[1]q
  original_id = "b"
  properties  = { email = "b@example.com", firstname = %[3]q }
}
`, listID, dotName, otherName, dotStatuses))
	}
	resource.ParallelTest(t, resource.TestCase{
		ProtoV6ProviderFactories: acctest.ProviderFactories(),
		Steps: []resource.TestStep{
			{
				Config: config("Dot", "Bee", `email_status = "SUBSCRIBED"`),
				Check: resource.ComposeTestCheckFunc(
					resource.TestCheckResourceAttr("rms_contact.dot", "service_email_status", "SUBSCRIBED"),
					expectContact(t, env, listID, ".", func(c serverContact) bool { return c.Properties["firstname"] == "Dot" }),
				),
			},
			{ // the other contact changes; "." plans with no change
				Config: config("Dot", "Bea", `email_status = "SUBSCRIBED"`),
				Check:  expectContact(t, env, listID, "b", func(c serverContact) bool { return c.Properties["firstname"] == "Bea" }),
			},
			{ // "." renamed and unsubscribed from e-mail by import rows
				Config: config("Dotty", "Bea", `email_status = "UNSUBSCRIBED"`),
				Check: expectContact(t, env, listID, ".", func(c serverContact) bool {
					return c.Properties["firstname"] == "Dotty" && c.Status == "UNSUBSCRIBED" && c.MobileStatus == "SUBSCRIBED"
				}),
			},
			{
				Config:      config("Dotty", "Bea", "email_status = \"UNSUBSCRIBED\"\n  mobile_status = \"UNSUBSCRIBED\""),
				ExpectError: regexp.MustCompile(`(?s)Contact change no call can write.*Contact "\." of list.*setting its mobile\s+status\s+UNSUBSCRIBED`),
			},
		},
	})
}
