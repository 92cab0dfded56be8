package provider_test

import (
	"fmt"
	"regexp"
	"sort"
	"strings"
	"testing"

	"github.com/hashicorp/terraform-plugin-testing/helper/resource"
	"github.com/hashicorp/terraform-plugin-testing/terraform"

	"github.com/rms-labs/terraform-provider-rms/internal/acctest"
	"github.com/rms-labs/terraform-provider-rms/internal/emulator"
)

// Resources that share a list. The refresh of each
// keeps its listing for its own plan; plans of one configuration against
// one service say the same thing however Terraform orders them.

// planDiagnostics are the diagnostics a plan printed, each as one block of
// text, sorted: Terraform prints those of resources planned concurrently in
// the order they ended.
func planDiagnostics(out string) []string {
	var blocks []string
	for _, b := range strings.Split(out, "╷")[1:] {
		b, _, _ = strings.Cut(b, "╵")
		blocks = append(blocks, strings.TrimSpace(b))
	}
	sort.Strings(blocks)
	return blocks
}

// planChanges is the part of a plan's output that lists the changes
// ("Terraform will perform..." up to the diagnostics).
var planChanges = regexp.MustCompile(`(?s)(Terraform will perform.*?Plan:[^\n]*|No changes\.)`)

// Two non-exclusive rms_list_contacts on one list (a map and a file), with
// drift on both sides: five plans in a row say the same thing, and each
// names its own drift.
func TestAccListContactsSharedListPlansAgree(t *testing.T) {
	acctest.SkipUnlessAcceptance(t)
	t.Parallel()
	env := acctest.NewEnv(t, emulator.Options{})
	listID := newTestList(t, env)
	w := acctest.NewWorkspace(t)
	csv := "originalId,email,email_status\n"
	for i := 1; i <= 10; i++ {
		csv += fmt.Sprintf("f-%02d,f-%02d@example.com,SUBSCRIBED\n", i, i)
	}
	w.Write("contacts.csv", csv)
	var m strings.Builder
	for i := 1; i <= 10; i++ {
		fmt.Fprintf(&m, "    \"m-%02d\" = { properties = { email = \"m-%02d@example.com\", firstname = \"M%d\" }, email_status = \"SUBSCRIBED\" }\n", i, i, i)
	}
	w.Configure(env, fmt.Sprintf(`
resource "rms_list_contacts" "file" {
  list_id     = %q
  source_file = "contacts.csv"
}

resource "rms_list_contacts" "map" {
  list_id  = %q
  contacts = {
%s  }
}
`, listID, listID, m.String()))
	if out, code := w.Run("apply", "-auto-approve", "-no-color"); code != 0 {
		t.Fatalf("apply failed:\n%s", out)
	}
	// Drift on both sides: a recipient of each opts out, a property of
	// each is changed by hand.
	for _, id := range []string{"f-03", "m-04"} {
		env.MustDo(t, "PUT", "lists/"+listID+"/contacts/"+id+"/subscriptionstatus", map[string]any{"status": "UNSUBSCRIBED"}, nil)
	}
	env.MustDo(t, "PUT", "lists/"+listID+"/contacts/f-05", map[string]any{"properties": map[string]any{"email": "changed@example.com"}}, nil)
	env.MustDo(t, "PUT", "lists/"+listID+"/contacts/m-06", map[string]any{"properties": map[string]any{"firstname": "Changed"}}, nil)

	var first string
	for i := range 5 {
		out, code := w.Run("plan", "-no-color")
		if code != 0 {
			t.Fatalf("plan %d failed:\n%s", i+1, out)
		}
		got := strings.Join(planChanges.FindAllString(out, -1), "\n") + "\n" + strings.Join(planDiagnostics(out), "\n----\n")
		if i == 0 {
			first = got
			// Each resource names its own drift.
			if !acctest.Contains(out, "f-05", "m-06", "f-03", "m-04") {
				t.Fatalf("plan 1 does not name the drift of both resources:\n%s", out)
			}
			continue
		}
		if got != first {
			t.Fatalf("plan %d differs from plan 1:\n--- plan 1:\n%s\n--- plan %d:\n%s", i+1, first, i+1, got)
		}
	}
}

// sharedListConfig renders an exclusive rms_list_contacts "owner" (o-1)
// on list listID beside other (more resources on the same list); keep is
// its keep_ids expression, "" for none.
func sharedListConfig(listID, keep, other string) string {
	keepLine := ""
	if keep != "" {
		keepLine = "  keep_ids        = " + keep + "\n"
	}
	return fmt.Sprintf(`
resource "rms_list_contacts" "owner" {
  list_id         = %q
  exclusive       = true
  max_unsubscribe = 100
%s  contacts = {
    "o-1" = { properties = { email = "o-1@example.com" }, email_status = "SUBSCRIBED" }
  }
}
`, listID, keepLine) + other
}

const sharedOtherListContacts = `
resource "rms_list_contacts" "other" {
  list_id  = %q
  contacts = {
    "x-1" = { properties = { email = "x-1@example.com" }, email_status = "SUBSCRIBED" }
  }
}
`

const sharedOtherContact = `
resource "rms_contact" "c" {
  list_id      = %q
  original_id  = "c-1"
  properties   = { email = "c-1@example.com" }
  email_status = "SUBSCRIBED"
}
`

// sharedListSetup makes a list holding ids (the other resources' and a
// stranger, zed), all subscribed, and watches unsubscriptions.
func sharedListSetup(t *testing.T, ids ...string) (*acctest.Env, string) {
	env := acctest.NewEnv(t, emulator.Options{})
	watchUnsubscriptions(t, env)
	listID := newTestList(t, env)
	for _, id := range ids {
		env.MustDo(t, "POST", "lists/"+listID+"/contacts", map[string]any{"originalId": id, "properties": map[string]any{"email": id + "@example.com"}}, nil)
		env.MustDo(t, "PUT", "lists/"+listID+"/contacts/"+id+"/subscriptionstatus", map[string]any{"status": "SUBSCRIBED"}, nil)
	}
	return env, listID
}

// writeRequests counts the requests env answered that were not reads.
func writeRequests(env *acctest.Env) int64 {
	s := env.Emulator.Requests()
	return s.Total - s.ByMethod["GET"]
}

// An exclusive rms_list_contacts beside another contact resource of the
// same list is refused at plan, naming both, with the same text on every
// plan (whichever of the two Terraform plans second reports it), before
// anything is written.
func TestAccListContactsExclusiveSharedListRefused(t *testing.T) {
	acctest.SkipUnlessAcceptance(t)
	for _, tc := range []struct {
		name, other, named string
	}{
		{"rms_list_contacts", sharedOtherListContacts, `rms_list_contacts with contacts "o-1" (exclusive = true) and rms_list_contacts with contacts "x-1" both manage list %s`},
		{"rms_contact", sharedOtherContact, `rms_list_contacts with contacts "o-1" (exclusive = true) and rms_contact "c-1" both manage list %s`},
		{"two exclusive", strings.Replace(sharedOtherListContacts, "  contacts = {", "  exclusive       = true\n  max_unsubscribe = 100\n  contacts = {", 1),
			`rms_list_contacts with contacts "o-1" and rms_list_contacts with contacts "x-1" both manage list %s with exclusive = true`},
	} {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			env, listID := sharedListSetup(t, "x-1", "zed")
			cfg := env.Config(sharedListConfig(listID, "", fmt.Sprintf(tc.other, listID)))
			refused := acctest.ExpectErrorParts("Two contact resources manage list "+listID,
				fmt.Sprintf(tc.named, listID), "Nothing was written", "keep_ids")
			before, mark := writeRequests(env), unsubscriptions(env)
			steps := []resource.TestStep{{Config: cfg, ExpectError: refused}}
			for range 4 {
				steps = append(steps, resource.TestStep{Config: cfg, PlanOnly: true, ExpectError: refused})
			}
			resource.Test(t, resource.TestCase{ProtoV6ProviderFactories: acctest.ProviderFactories(), Steps: steps})
			if n := writeRequests(env) - before; n != 0 {
				t.Errorf("the refused plans wrote %d requests, want none", n)
			}
			if n := unsubscriptions(env) - mark; n != 0 {
				t.Errorf("%d contacts unsubscribed, want none", n)
			}
		})
	}
}

// With keep_ids fed by references to the other resources of the list, an
// exclusive rms_list_contacts applies beside them: it unsubscribes the
// stranger only, never a contact they name, and the next plan is empty.
func TestAccListContactsExclusiveKeepIDs(t *testing.T) {
	acctest.SkipUnlessAcceptance(t)
	env, listID := sharedListSetup(t, "x-1", "zed")
	cfg := env.Config(sharedListConfig(listID, "concat(keys(rms_list_contacts.other.contacts), [rms_contact.c.original_id])",
		fmt.Sprintf(sharedOtherListContacts, listID)+fmt.Sprintf(sharedOtherContact, listID)))
	resource.ParallelTest(t, resource.TestCase{
		ProtoV6ProviderFactories: acctest.ProviderFactories(),
		Steps: []resource.TestStep{
			{
				Config: cfg,
				Check: resource.ComposeTestCheckFunc(
					expectEmailStatuses(t, env, listID, map[string]string{"o-1": "SUBSCRIBED", "x-1": "SUBSCRIBED", "c-1": "SUBSCRIBED", "zed": "UNSUBSCRIBED"}),
					func(*terraform.State) error {
						for _, d := range env.Emulator.Deliveries() {
							if d.Event == "contact.unsubscribed" && !strings.Contains(string(d.Body), `"zed"`) {
								return fmt.Errorf("a contact other than zed was unsubscribed: %s", d.Body)
							}
						}
						if unsubscriptions(env) == 0 {
							return fmt.Errorf("zed was not unsubscribed (no contact.unsubscribed event)")
						}
						return nil
					},
					resource.TestCheckResourceAttr("rms_list_contacts.owner", "unmanaged_subscribed", "0"),
				),
			},
			{Config: cfg, PlanOnly: true},
		},
	})
}
