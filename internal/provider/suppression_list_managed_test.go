package provider_test

import (
	"fmt"
	"regexp"
	"testing"

	"github.com/hashicorp/terraform-plugin-testing/helper/resource"
	"github.com/hashicorp/terraform-plugin-testing/plancheck"
	"github.com/hashicorp/terraform-plugin-testing/terraform"

	"github.com/rms-labs/terraform-provider-rms/internal/acctest"
	"github.com/rms-labs/terraform-provider-rms/internal/emulator"
)

// suppressionIsManagedList is the refusal of a suppression list that is
// the managed list: it names the attribute and what to do instead.
var suppressionIsManagedList = regexp.MustCompile(`(?s)cannot be the list this resource manages.*suppression_list_id.*another\s+list\s+of\s+the\s+account.*rms_list\s+of\s+its\s+own`)

// suppressionIsManagedListAtApply is that refusal during an apply, which
// also says what the apply left.
var suppressionIsManagedListAtApply = regexp.MustCompile(suppressionIsManagedList.String() + `.*the\s+list\s+stays\s+in\s+state,\s+and\s+nothing\s+was\s+written`)

// contactWriters are the resources that write contacts into list_id and
// answer to suppression_list_id, each as a block whose two ids are the
// given expressions.
var contactWriters = map[string]func(listID, suppressionID string) string{
	"rms_list_contacts": func(listID, suppressionID string) string {
		return fmt.Sprintf(`
resource "rms_list_contacts" "w" {
  list_id             = %s
  suppression_list_id = %s
  contacts = {
    "a-1" = { properties = { email = "a1@example.com" } }
  }
}
`, listID, suppressionID)
	},
	"rms_contact": func(listID, suppressionID string) string {
		return fmt.Sprintf(`
resource "rms_contact" "w" {
  list_id             = %s
  suppression_list_id = %s
  original_id         = "a-1"
  properties          = { email = "a1@example.com" }
}
`, listID, suppressionID)
	},
	"rms_list_import": func(listID, suppressionID string) string {
		return fmt.Sprintf(`
resource "rms_list_import" "w" {
  list_id             = %s
  suppression_list_id = %s
  type                = "ADD"
  content             = "email\na1@example.com\n"
  identity_column     = "email"
}
`, listID, suppressionID)
	},
}

// newsList is an rms_list the contact writers of these tests write into.
const newsList = `
resource "rms_list" "news" {
  name                = "News"
  deletion_protection = false
}
`

// A suppression list that is the managed list, both ids known at plan
// (the list is in state already), is refused by the plan of every
// resource that writes contacts, naming the attribute and what to do;
// nothing is written to the list.
func TestAccSuppressionListIsManagedListKnownAtPlan(t *testing.T) {
	acctest.SkipUnlessAcceptance(t)
	for name, writer := range contactWriters {
		t.Run(name, func(t *testing.T) {
			env := acctest.NewEnv(t, emulator.Options{})
			var listID string
			resource.ParallelTest(t, resource.TestCase{
				ProtoV6ProviderFactories: acctest.ProviderFactories(),
				Steps: []resource.TestStep{
					{
						Config: env.Config(newsList),
						Check: func(s *terraform.State) error {
							listID = s.RootModule().Resources["rms_list.news"].Primary.ID
							return nil
						},
					},
					{
						Config:      env.Config(newsList, writer("rms_list.news.id", "rms_list.news.id")),
						PlanOnly:    true,
						ExpectError: suppressionIsManagedList,
					},
					{
						// Before the destroy at the end takes the list away.
						PreConfig: func() {
							if got := listContactsOf(t, env, listID); len(got) != 0 {
								t.Errorf("the refused plan left %d contacts in the list", len(got))
							}
						},
						Config: env.Config(newsList),
					},
				},
			})
		})
	}
}

// A suppression list that is the managed list, both ids from one rms_list
// made in the same run (unknown at plan), is refused during the apply
// before the contact resource's first write, naming the attribute and what
// to do: the state holds the new list alone, the list holds no contact,
// and once the suppression list has an rms_list of its own the next apply
// keeps the list (no replacement) and creates the resource.
func TestAccSuppressionListIsManagedListUnknownAtPlan(t *testing.T) {
	acctest.SkipUnlessAcceptance(t)
	for name, writer := range contactWriters {
		t.Run(name, func(t *testing.T) {
			env := acctest.NewEnv(t, emulator.Options{})
			var lists []struct {
				ID any `json:"id"`
			}
			resource.ParallelTest(t, resource.TestCase{
				ProtoV6ProviderFactories: acctest.ProviderFactories(),
				Steps: []resource.TestStep{
					{
						Config:      env.Config(newsList, writer("rms_list.news.id", "rms_list.news.id")),
						ExpectError: suppressionIsManagedListAtApply,
					},
					{
						PreConfig: func() {
							env.Inspect(t, "lists", &lists)
							if len(lists) != 1 {
								t.Fatalf("the account holds %d lists after the refused apply, want the new list alone: %+v", len(lists), lists)
							}
							if got := listContactsOf(t, env, fmt.Sprint(lists[0].ID)); len(got) != 0 {
								t.Errorf("the refused apply wrote %d contacts into the list", len(got))
							}
						},
						Config: env.Config(newsList, `
resource "rms_list" "suppression" {
  name                = "Opt-outs"
  deletion_protection = false
}
`, writer("rms_list.news.id", "rms_list.suppression.id")),
						ConfigPlanChecks: resource.ConfigPlanChecks{
							PreApply: []plancheck.PlanCheck{
								plancheck.ExpectResourceAction("rms_list.news", plancheck.ResourceActionNoop),
								plancheck.ExpectResourceAction(name+".w", plancheck.ResourceActionCreate),
								plancheck.ExpectResourceAction("rms_list.suppression", plancheck.ResourceActionCreate),
							},
						},
					},
				},
			})
		})
	}
}
