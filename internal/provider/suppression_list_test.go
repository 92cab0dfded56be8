package provider_test

import (
	"fmt"
	"os"
	"path/filepath"
	"regexp"
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

// crmExport writes a CRM export of n people without status columns
// (originalId, email, mobile) and returns its path.
func crmExport(t *testing.T, n int) string {
	t.Helper()
	var b strings.Builder
	b.WriteString("originalId,email,mobile\n")
	for i := range n {
		fmt.Fprintf(&b, "p-%02d,p%d@example.com,+4915%06d\n", i, i, i)
	}
	file := filepath.Join(t.TempDir(), "crm.csv")
	if err := os.WriteFile(file, []byte(b.String()), 0o600); err != nil {
		t.Fatal(err)
	}
	return file
}

// optOutOf makes person i opt out of list listID on the service's own
// call: p-00 ... p-09 on e-mail only, p-10 ... p-19 on both channels.
func optOutOf(t *testing.T, env *acctest.Env, listID string, i int) {
	t.Helper()
	st := map[string]any{"status": "UNSUBSCRIBED"}
	if i >= 10 {
		st["mobileStatus"] = "UNSUBSCRIBED"
	}
	env.MustDo(t, "PUT", fmt.Sprintf("lists/%s/contacts/p-%02d/subscriptionstatus", listID, i), st, nil)
}

// expectOptedOut checks, in list listID, that p-00 ... p-19 are
// unsubscribed on the channels optOutOf made them leave and subscribed on
// the others, and that everyone else of the n people is subscribed.
func expectOptedOut(t *testing.T, env *acctest.Env, listID string, n int) error {
	t.Helper()
	got := listContactsOf(t, env, listID)
	if len(got) != n {
		return fmt.Errorf("list %s holds %d contacts, want %d", listID, len(got), n)
	}
	for i := range n {
		c := got[fmt.Sprintf("p-%02d", i)]
		email, mobile := "SUBSCRIBED", "SUBSCRIBED"
		if i < 20 {
			email = "UNSUBSCRIBED"
		}
		if i >= 10 && i < 20 {
			mobile = "UNSUBSCRIBED"
		}
		if c.Status != email || c.MobileStatus != mobile {
			return fmt.Errorf("%s of list %s is %s/%s, want %s/%s", c.OriginalID, listID, c.Status, c.MobileStatus, email, mobile)
		}
	}
	return nil
}

// TestAccListSuppressionKeepsOptOuts: 20 recipients opt out (ten on e-mail,
// ten on both channels) of a list whose rms_list names a suppression list;
// the list is removed from the configuration, and its delete first copies
// the opt-outs there; a list made later from the same file has each of
// them unsubscribed on the channels they left and everyone else
// subscribed, and the next plan is empty. On main the opt-outs died with
// the list and the new list subscribed all of them.
func TestAccListSuppressionKeepsOptOuts(t *testing.T) {
	acctest.SkipUnlessAcceptance(t)
	const n = 30
	env := acctest.NewEnv(t, emulator.Options{})
	suppression := newTestList(t, env)
	file := crmExport(t, n)
	listWithContacts := func(name string) string {
		return fmt.Sprintf(`
resource "rms_list" %[1]q {
  name                = %[1]q
  suppression_list_id = %[2]q
  deletion_protection = false
}

resource "rms_list_contacts" %[1]q {
  list_id             = rms_list.%[1]s.id
  source_file         = %[3]q
  suppression_list_id = %[2]q
}
`, name, suppression, file)
	}
	var oldList string
	resource.ParallelTest(t, resource.TestCase{
		ProtoV6ProviderFactories: acctest.ProviderFactories(),
		Steps: []resource.TestStep{
			{
				Config: env.Config(listWithContacts("old")),
				Check: func(s *terraform.State) error {
					oldList = s.RootModule().Resources["rms_list.old"].Primary.ID
					for i := range 20 {
						optOutOf(t, env, oldList, i)
					}
					return nil
				},
				// The opt-outs made after the apply are found by the
				// refresh: the next plan records them.
				ExpectNonEmptyPlan: true,
			},
			{ // the list goes, and its opt-outs go into the suppression list first
				Config: env.Config(`# the list is gone from the configuration`),
				Check: func(*terraform.State) error {
					if code := env.Do(t, "GET", "lists/"+oldList, nil, nil); code != 404 {
						return fmt.Errorf("the old list answers %d, want 404 (deleted)", code)
					}
					held := listContactsOf(t, env, suppression)
					if len(held) != 20 {
						return fmt.Errorf("the suppression list holds %d contacts, want the 20 opt-outs", len(held))
					}
					for i := range 20 {
						c := held[fmt.Sprintf("p-%02d", i)]
						if c.Status != "UNSUBSCRIBED" || (i >= 10) != (c.MobileStatus == "UNSUBSCRIBED") || c.Properties["email"] != fmt.Sprintf("p%d@example.com", i) {
							return fmt.Errorf("the suppression list holds p-%02d as %+v", i, c)
						}
					}
					return nil
				},
			},
			{ // a new list from the same file: the opt-outs hold there, and the next plan is empty
				Config: env.Config(listWithContacts("new")),
				ConfigStateChecks: []statecheck.StateCheck{
					statecheck.ExpectKnownValue("rms_list_contacts.new", tfjsonpath.New("unrecorded_opt_outs"), knownvalue.Int64Exact(0)),
				},
				Check: func(s *terraform.State) error {
					return expectOptedOut(t, env, s.RootModule().Resources["rms_list.new"].Primary.ID, n)
				},
			},
		},
	})
}

// TestAccListContactsRecordsOptOuts: an opt-out made outside Terraform
// that the suppression list does not hold makes the plan an update
// (unrecorded_opt_outs planned 0), whose apply copies it there; a contact
// added whose e-mail, in other letter case, the suppression list holds is
// created unsubscribed though the input says SUBSCRIBED; the plan after is
// empty.
func TestAccListContactsRecordsOptOuts(t *testing.T) {
	acctest.SkipUnlessAcceptance(t)
	env := acctest.NewEnv(t, emulator.Options{})
	listID, suppression := newTestList(t, env), newTestList(t, env)
	env.MustDo(t, "POST", "lists/"+suppression+"/contacts", map[string]any{
		"originalId": "crm-77", "properties": map[string]any{"email": "eve@example.com"}, "status": "UNSUBSCRIBED",
	}, nil)
	base := map[string]listContact{
		"ada": {props: map[string]string{"email": "ada@example.com"}, email: "SUBSCRIBED"},
		"bob": {props: map[string]string{"email": "bob@example.com"}, email: "SUBSCRIBED"},
	}
	withEve := map[string]listContact{"eve": {props: map[string]string{"email": " Eve@Example.COM"}, email: "SUBSCRIBED"}}
	for k, v := range base {
		withEve[k] = v
	}
	extra := fmt.Sprintf("  suppression_list_id = %q", suppression)
	resource.ParallelTest(t, resource.TestCase{
		ProtoV6ProviderFactories: acctest.ProviderFactories(),
		Steps: []resource.TestStep{
			{
				Config: env.Config(listContactsConfig(listID, base, extra)),
				ConfigStateChecks: []statecheck.StateCheck{
					statecheck.ExpectKnownValue("rms_list_contacts.c", tfjsonpath.New("unrecorded_opt_outs"), knownvalue.Int64Exact(0)),
				},
			},
			{
				PreConfig: func() {
					env.MustDo(t, "PUT", "lists/"+listID+"/contacts/bob/subscriptionstatus", map[string]any{"status": "UNSUBSCRIBED"}, nil)
				},
				Config: env.Config(listContactsConfig(listID, withEve, extra)),
				ConfigPlanChecks: resource.ConfigPlanChecks{PreApply: []plancheck.PlanCheck{
					plancheck.ExpectResourceAction("rms_list_contacts.c", plancheck.ResourceActionUpdate),
					plancheck.ExpectKnownValue("rms_list_contacts.c", tfjsonpath.New("unrecorded_opt_outs"), knownvalue.Int64Exact(0)),
				}},
				Check: func(*terraform.State) error {
					if c := getContact(t, env, suppression, "bob"); c.Status != "UNSUBSCRIBED" || c.Properties["email"] != "bob@example.com" {
						return fmt.Errorf("the suppression list holds bob as %+v, want UNSUBSCRIBED with his e-mail", c)
					}
					if c := getContact(t, env, listID, "eve"); c.Status != "UNSUBSCRIBED" {
						return fmt.Errorf("eve, suppressed by her e-mail, was created %s", c.Status)
					}
					if c := getContact(t, env, listID, "ada"); c.Status != "SUBSCRIBED" {
						return fmt.Errorf("ada is %s", c.Status)
					}
					if got := len(listContactsOf(t, env, suppression)); got != 2 {
						return fmt.Errorf("the suppression list holds %d contacts, want 2 (crm-77 and bob)", got)
					}
					return nil
				},
			},
			{ // a refresh that finds one more opt-out plans an update again
				PreConfig: func() {
					env.MustDo(t, "PUT", "lists/"+listID+"/contacts/ada/subscriptionstatus", map[string]any{"status": "UNSUBSCRIBED"}, nil)
				},
				Config:             env.Config(listContactsConfig(listID, withEve, extra)),
				PlanOnly:           true,
				ExpectNonEmptyPlan: true,
			},
		},
	})
}

// TestAccSuppressionListIsNotTheManagedList: a suppression list that is
// the list a resource manages is refused at plan, naming the attribute:
// rms_list_contacts (list_id) and rms_list (its own id, here imported).
func TestAccSuppressionListIsNotTheManagedList(t *testing.T) {
	acctest.SkipUnlessAcceptance(t)
	env := acctest.NewEnv(t, emulator.Options{})
	listID := newTestList(t, env)
	want := regexp.MustCompile(`(?s)suppression_list_id.*cannot be the list this resource manages|cannot be the list this resource manages.*suppression_list_id`)
	resource.ParallelTest(t, resource.TestCase{
		ProtoV6ProviderFactories: acctest.ProviderFactories(),
		Steps: []resource.TestStep{
			{
				Config:      env.Config(listContactsConfig(listID, map[string]listContact{"a": {}}, fmt.Sprintf("  suppression_list_id = %q", listID))),
				ExpectError: want,
			},
			{
				Config: env.Config(fmt.Sprintf(`
import {
  to = rms_list.self
  id = %[1]q
}

resource "rms_list" "self" {
  name                = "Members"
  suppression_list_id = %[1]q
}
`, listID)),
				ExpectError: want,
			},
		},
	})
	if got := listContactsOf(t, env, listID); len(got) != 0 {
		t.Errorf("the refused plans wrote %d contacts", len(got))
	}
}

// TestAccListNotDeletedWithoutTheCopy: a list whose opt-outs cannot be
// copied (its suppression list is gone) is not deleted, and keeps its
// contacts; once suppression_list_id is removed, it is.
func TestAccListNotDeletedWithoutTheCopy(t *testing.T) {
	acctest.SkipUnlessAcceptance(t)
	env := acctest.NewEnv(t, emulator.Options{})
	suppression := newTestList(t, env)
	list := func(extra string) string {
		return env.Config(`
resource "rms_list" "l" {
  name                = "Members"
  deletion_protection = false
` + extra + `
}
`)
	}
	var listID string
	resource.ParallelTest(t, resource.TestCase{
		ProtoV6ProviderFactories: acctest.ProviderFactories(),
		Steps: []resource.TestStep{
			{
				Config: list(fmt.Sprintf("  suppression_list_id = %q", suppression)),
				Check: func(s *terraform.State) error {
					listID = s.RootModule().Resources["rms_list.l"].Primary.ID
					env.MustDo(t, "POST", "lists/"+listID+"/contacts", map[string]any{"originalId": "ann", "status": "UNSUBSCRIBED"}, nil)
					env.MustDo(t, "DELETE", "lists/"+suppression, nil, nil)
					return nil
				},
			},
			{
				Config:      env.Config(`# the list is removed`),
				ExpectError: regexp.MustCompile(`List not deleted: its opt-outs could not be copied`),
			},
			{
				PreConfig: func() {
					if c := getContact(t, env, listID, "ann"); c.Status != "UNSUBSCRIBED" {
						t.Errorf("ann is %s after the refused delete", c.Status)
					}
				},
				Config: list(""),
			},
		},
	})
}
