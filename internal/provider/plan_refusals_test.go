package provider_test

import (
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"testing"

	"github.com/hashicorp/terraform-plugin-testing/helper/resource"
	"github.com/hashicorp/terraform-plugin-testing/terraform"

	"github.com/rms-labs/terraform-provider-rms/internal/acctest"
	"github.com/rms-labs/terraform-provider-rms/internal/emulator"
)

// TestAccListContactsExclusive_listUnknownAtPlan: with list_id known only
// during the apply (here the output of a terraform_data made in the same
// run; a data source's computed attribute under depends_on is the same), an exclusive
// plan cannot count what it unsubscribes: it is refused unless a limit is
// set explicitly; with one, the apply counts on its own listing and stops
// above it. Nobody is unsubscribed either way.
func TestAccListContactsExclusive_listUnknownAtPlan(t *testing.T) {
	env := acctest.NewEnv(t, emulator.Options{})
	listID := newTestList(t, env)
	var seeded []emulator.Contact
	for i := range 30 {
		seeded = append(seeded, emulator.Contact{OriginalID: fmt.Sprintf("s-%02d", i), Status: "SUBSCRIBED", MobileStatus: "SUBSCRIBED"})
	}
	seedContacts(t, env, listID, seeded...)
	config := func(limit string) string {
		return env.Config(fmt.Sprintf(`
resource "terraform_data" "gate" {
  input = %q
}

resource "rms_list_contacts" "c" {
  list_id   = terraform_data.gate.output
  exclusive = true
  %s
  contacts = {
    "s-00" = {}
  }
}
`, listID, limit))
	}
	nobodyUnsubscribed := func(*terraform.State) error {
		for id, c := range listContactsOf(t, env, listID) {
			if c.Status != "SUBSCRIBED" {
				return fmt.Errorf("%s is %s", id, c.Status)
			}
		}
		return nil
	}
	resource.ParallelTest(t, resource.TestCase{
		ProtoV6ProviderFactories: acctest.ProviderFactories(),
		Steps: []resource.TestStep{
			{
				Config:      config(""),
				ExpectError: regexp.MustCompile(`(?s)Unsubscriptions\s+cannot\s+be\s+counted.*this\s+plan\s+cannot\s+count\s+them.*known\s+only\s+during\s+the\s+apply.*set\s+max_unsubscribe\s+or\s+max_unsubscribe_percent\s+on\s+this\s+resource\s+or\s+in\s+the\s+provider\s+block`),
			},
			{
				Config:      config("max_unsubscribe = 5"),
				ExpectError: regexp.MustCompile(`Too\s+many\s+contacts\s+to\s+unsubscribe`),
			},
		},
	})
	if err := nobodyUnsubscribed(nil); err != nil {
		t.Error(err)
	}
}

// TestAccSourceHeaderCase: a column that differs only in letter case from a
// status column, an attribute or the identity column is refused at plan,
// naming the right spelling, for rms_list_contacts and rms_list_import
// alike (the service matches column names exactly); nothing is written.
func TestAccSourceHeaderCase(t *testing.T) {
	env := acctest.NewEnv(t, emulator.Options{})
	listID := newTestList(t, env)
	dir := t.TempDir()
	file := func(name, content string) string {
		p := filepath.Join(dir, name)
		if err := os.WriteFile(p, []byte(content), 0o600); err != nil {
			t.Fatal(err)
		}
		return p
	}
	statusCase := file("status.csv", "originalId;firstname;Email_Status\na;Ann;SUBSCRIBED\nb;Bob;SUBSCRIBED\n")
	attrCase := file("attr.csv", "originalId,FirstName\na,Ann\n")
	identityCase := file("identity.csv", "OriginalId,firstname\na,Ann\n")
	before := writes(env)
	resource.ParallelTest(t, resource.TestCase{
		ProtoV6ProviderFactories: acctest.ProviderFactories(),
		Steps: []resource.TestStep{
			{
				Config:      env.Config(listContactsFileConfig(listID, statusCase)),
				PlanOnly:    true,
				ExpectError: regexp.MustCompile(`(?s)column\s+"Email_Status"\s+is\s+not\s+the\s+status\s+column\s+"email_status".*matched\s+exactly.*rename\s+the\s+column\s+to\s+"email_status"`),
			},
			{
				Config:      env.Config(importConfig(listID, "ADD", fmt.Sprintf("file = %q", attrCase))),
				PlanOnly:    true,
				ExpectError: regexp.MustCompile(`(?s)column\s+"FirstName"\s+names\s+no\s+contact\s+attribute\s+of\s+the\s+account;\s+its\s+attribute\s+"firstname"\s+differs\s+only\s+in\s+letter\s+case.*rename\s+the\s+column\s+to\s+"firstname"`),
			},
			{
				Config:      env.Config(importConfig(listID, "REPLACE", fmt.Sprintf("file = %q", identityCase))),
				PlanOnly:    true,
				ExpectError: regexp.MustCompile(`(?s)no\s+identity\s+column\s+"originalId":\s+column\s+"OriginalId"\s+differs\s+only\s+in\s+letter\s+case.*rename\s+the\s+column\s+to\s+"originalId",\s+or\s+set\s+identity_column\s+=\s+"OriginalId"`),
			},
			{
				Config:      env.Config(fmt.Sprintf("resource \"rms_list_contacts\" \"f\" {\n  list_id     = %q\n  source_file = %q\n}\n", listID, attrCase)),
				PlanOnly:    true,
				ExpectError: regexp.MustCompile(`(?s)column\s+"FirstName"\s+names\s+no\s+contact\s+attribute.*rename\s+the\s+column\s+to\s+"firstname"`),
			},
		},
	})
	if n := writes(env) - before; n != 0 {
		t.Errorf("refused plans sent %d writes", n)
	}
}
