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
// run; a data source's computed attribute under depends_on is the same), an
// exclusive plan cannot count what it unsubscribes: it promises to
// unsubscribe nobody it could not count (no longer refused), and
// the apply, finding 29 subscribed contacts the input does not name, stops
// before its first write: no status changed, no contact made, no import,
// no request but reads. With a limit set explicitly, the apply counts on
// its own listing and stops above it.
func TestAccListContactsExclusive_listUnknownAtPlan(t *testing.T) {
	acctest.SkipUnlessAcceptance(t)
	env := acctest.NewEnv(t, emulator.Options{})
	listID := newTestList(t, env)
	var seeded []emulator.Contact
	for i := range 30 {
		seeded = append(seeded, emulator.Contact{OriginalID: fmt.Sprintf("s-%02d", i), Status: "SUBSCRIBED", MobileStatus: "SUBSCRIBED"})
	}
	seedContacts(t, env, listID, seeded...)
	writes := serviceWrites(env)
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
    "n-01" = {}
  }
}
`, listID, limit))
	}
	nothingWritten := func(*terraform.State) error {
		if n := serviceWrites(env) - writes; n != 0 {
			return fmt.Errorf("the emulator saw %d requests that write, want none", n)
		}
		got := listContactsOf(t, env, listID)
		if _, ok := got["n-01"]; ok || len(got) != 30 {
			return fmt.Errorf("list %s holds %d contacts (n-01 made: %v), want the 30 seeded", listID, len(got), ok)
		}
		for id, c := range got {
			if c.Status != "SUBSCRIBED" || c.MobileStatus != "SUBSCRIBED" {
				return fmt.Errorf("%s is %s/%s", id, c.Status, c.MobileStatus)
			}
		}
		return nil
	}
	resource.ParallelTest(t, resource.TestCase{
		ProtoV6ProviderFactories: acctest.ProviderFactories(),
		Steps: []resource.TestStep{
			{
				Config:   config(""),
				PlanOnly: true, ExpectNonEmptyPlan: true, // the plan goes through: it promises zero
			},
			{
				Config: config(""),
				// Stopped by the plan Terraform makes inside the apply, which
				// now knows the list and counts, before the first write.
				ExpectError: regexp.MustCompile(`(?s)Unsubscriptions\s+on\s+create\s+need\s+a\s+limit\s+set\s+explicitly.*unsubscribes\s+29\s+contacts\s+of\s+list\s+` + listID + `.*"s-01".*max_unsubscribe\s+=\s+29`),
			},
			{
				PreConfig:   func() { mustNot(t, nothingWritten(nil)) },
				Config:      config("max_unsubscribe = 5"),
				ExpectError: regexp.MustCompile(`Too\s+many\s+contacts\s+to\s+unsubscribe`),
			},
		},
	})
	mustNot(t, nothingWritten(nil))
}

// mustNot fails the test on err.
func mustNot(t *testing.T, err error) {
	t.Helper()
	if err != nil {
		t.Fatal(err)
	}
}

// TestAccSourceHeaderCase: a column that differs only in letter case from a
// status column, an attribute or the identity column is refused at plan,
// naming the right spelling, for rms_list_contacts and rms_list_import
// alike (the service matches column names exactly); nothing is written.
// rms_list_contacts takes a column spelled like an attribute as one of no
// attribute (it may be made in the same apply): the apply refuses it
// before its first write, naming the spelling.
func TestAccSourceHeaderCase(t *testing.T) {
	acctest.SkipUnlessAcceptance(t)
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
				ExpectError: regexp.MustCompile(`(?s)Unknown\s+contact\s+attribute.*column\s+"FirstName"\s+names\s+no\s+contact\s+attribute.*rename\s+the\s+column\s+to\s+"firstname".*Nothing\s+was\s+written`),
			},
		},
	})
	if n := writes(env) - before; n != 0 {
		t.Errorf("refused plans and apply sent %d writes", n)
	}
}
