package provider_test

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/hashicorp/terraform-plugin-testing/compare"
	"github.com/hashicorp/terraform-plugin-testing/helper/resource"
	"github.com/hashicorp/terraform-plugin-testing/knownvalue"
	"github.com/hashicorp/terraform-plugin-testing/plancheck"
	"github.com/hashicorp/terraform-plugin-testing/statecheck"
	"github.com/hashicorp/terraform-plugin-testing/terraform"
	"github.com/hashicorp/terraform-plugin-testing/tfjsonpath"

	"github.com/rms-labs/terraform-provider-rms/internal/acctest"
	"github.com/rms-labs/terraform-provider-rms/internal/emulator"
)

// fileRows is the content of a generated source file: n contacts r-0000...,
// each with an e-mail, a first name and an e-mail status; edit changes rows.
func fileRows(n int, edit func(i int, first, status *string)) string { //nolint:unparam // the test names its size where it states what it checks
	var b strings.Builder
	b.WriteString("originalId;email;3;email_status\n")
	for i := range n {
		first, status := fmt.Sprintf("Name %d", i), "SUBSCRIBED"
		if edit != nil {
			edit(i, &first, &status)
		}
		fmt.Fprintf(&b, "r-%04d;r%d@example.com;%s;%s\n", i, i, first, status)
	}
	return b.String()
}

func listContactsFileConfig(listID, file string) string {
	return fmt.Sprintf(`
resource "rms_list_contacts" "f" {
  list_id     = %q
  source_file = %q
  delimiter   = ";"
}
`, listID, file)
}

// TestAccListContactsFile: a file of 1,200 contacts goes in by import
// batches; a 1%% change by single calls; drift is planned back, an opt-out
// made elsewhere is honoured (and is no drift), the file may unsubscribe
// and re-subscribe a contact itself; destroy with on_destroy =
// "unsubscribe" unsubscribes e-mail (the channel the file sets) through an
// UNSUBSCRIBE import, and leaves mobile (which it never sets) alone.
func TestAccListContactsFile(t *testing.T) {
	acctest.SkipUnlessAcceptance(t)
	const n = 1200
	env := acctest.NewEnv(t, emulator.Options{})
	listID := newTestList(t, env)
	file := filepath.Join(t.TempDir(), "contacts.csv")
	write := func(content string) {
		if err := os.WriteFile(file, []byte(content), 0o600); err != nil {
			t.Fatal(err)
		}
	}
	write(fileRows(n, nil))
	onePercent := func(i int, first, _ *string) {
		if i%100 == 7 {
			*first = "Changed " + *first
		}
	}
	importsSoFar := 0
	cfg := env.Config(strings.Replace(listContactsFileConfig(listID, file), `delimiter   = ";"`, `delimiter   = ";"
  on_destroy  = "unsubscribe"
  max_unsubscribe_percent = 100`, 1))
	digestsEqual := statecheck.CompareValuePairs("rms_list_contacts.f", tfjsonpath.New("desired_sha256"), "rms_list_contacts.f", tfjsonpath.New("service_sha256"), compare.ValuesSame())
	resource.ParallelTest(t, resource.TestCase{
		ProtoV6ProviderFactories: acctest.ProviderFactories(),
		Steps: []resource.TestStep{
			{
				Config: cfg,
				ConfigStateChecks: []statecheck.StateCheck{
					statecheck.ExpectKnownValue("rms_list_contacts.f", tfjsonpath.New("contact_count"), knownvalue.Int64Exact(n)),
					digestsEqual,
				},
				Check: func(*terraform.State) error {
					got := listContactsOf(t, env, listID)
					if len(got) != n || got["r-0042"].Properties["firstname"] != "Name 42" || got["r-0042"].Status != "SUBSCRIBED" {
						return fmt.Errorf("the list holds %d contacts, r-0042 = %+v", len(got), got["r-0042"])
					}
					importsSoFar = len(recordedBatches(t, env, "IMPORT"))
					if importsSoFar != 1 {
						return fmt.Errorf("%d import batches, want 1 (ADD)", importsSoFar)
					}
					return nil
				},
			},
			{ // 1% of the rows change: single calls, no batch
				PreConfig: func() { write(fileRows(n, onePercent)) },
				Config:    cfg,
				ConfigPlanChecks: resource.ConfigPlanChecks{PreApply: []plancheck.PlanCheck{
					plancheck.ExpectResourceAction("rms_list_contacts.f", plancheck.ResourceActionUpdate),
				}},
				ConfigStateChecks: []statecheck.StateCheck{digestsEqual},
				Check: func(*terraform.State) error {
					if got := getContact(t, env, listID, "r-0107").Properties["firstname"]; got != "Changed Name 107" {
						return fmt.Errorf("r-0107's firstname is %q", got)
					}
					if got := len(recordedBatches(t, env, "IMPORT")); got != importsSoFar {
						return fmt.Errorf("a 1%% change ran %d import batches, want none", got-importsSoFar)
					}
					return nil
				},
			},
			{ // drift is planned back; an opt-out made elsewhere is honoured and is no drift
				PreConfig: func() {
					env.MustDo(t, "PUT", "lists/"+listID+"/contacts/r-0001", map[string]any{"properties": map[string]any{"firstname": "Elsewhere"}}, nil)
					env.MustDo(t, "PUT", "lists/"+listID+"/contacts/r-0002/subscriptionstatus", map[string]any{"status": "UNSUBSCRIBED"}, nil)
				},
				Config: cfg,
				ConfigPlanChecks: resource.ConfigPlanChecks{PreApply: []plancheck.PlanCheck{
					plancheck.ExpectResourceAction("rms_list_contacts.f", plancheck.ResourceActionUpdate),
					plancheck.ExpectUnknownValue("rms_list_contacts.f", tfjsonpath.New("service_sha256")),
				}},
				ConfigStateChecks: []statecheck.StateCheck{digestsEqual},
				Check: func(*terraform.State) error {
					if got := getContact(t, env, listID, "r-0001").Properties["firstname"]; got != "Name 1" {
						return fmt.Errorf("r-0001's drift was not planned back: %q", got)
					}
					if got := getContact(t, env, listID, "r-0002").Status; got != "UNSUBSCRIBED" {
						return fmt.Errorf("r-0002's own opt-out was undone: %s", got)
					}
					return nil
				},
			},
			{ // the file unsubscribes a contact...
				PreConfig: func() {
					write(fileRows(n, func(i int, first, status *string) {
						onePercent(i, first, status)
						if i == 3 {
							*status = "UNSUBSCRIBED"
						}
					}))
				},
				Config: cfg,
				Check: func(*terraform.State) error {
					if got := getContact(t, env, listID, "r-0003").Status; got != "UNSUBSCRIBED" {
						return fmt.Errorf("r-0003 is %s, want UNSUBSCRIBED", got)
					}
					return nil
				},
			},
			{ // ...and re-subscribes it: the configuration asked, so it is no opt-out
				PreConfig: func() { write(fileRows(n, onePercent)) },
				Config:    cfg,
				Check: func(*terraform.State) error {
					if got := getContact(t, env, listID, "r-0003").Status; got != "SUBSCRIBED" {
						return fmt.Errorf("r-0003 is %s, want SUBSCRIBED again", got)
					}
					if got := getContact(t, env, listID, "r-0002").Status; got != "UNSUBSCRIBED" {
						return fmt.Errorf("r-0002's opt-out was undone: %s", got)
					}
					return nil
				},
			},
		},
		CheckDestroy: func(*terraform.State) error {
			got := listContactsOf(t, env, listID)
			for id, c := range got {
				if c.Status != "UNSUBSCRIBED" || c.MobileStatus != "SUBSCRIBED" {
					return fmt.Errorf("destroy left %s %+v, want unsubscribed from e-mail only", id, c)
				}
			}
			var unsubscribes int
			var imps []struct {
				Type string `json:"type"`
			}
			env.Inspect(t, "lists/"+listID+"/imports?pageSize=1000", &imps)
			for _, imp := range imps {
				if imp.Type == "UNSUBSCRIBE" {
					unsubscribes++
				}
			}
			if unsubscribes != 1 {
				return fmt.Errorf("destroy ran %d UNSUBSCRIBE imports, want 1", unsubscribes)
			}
			return nil
		},
	})
}
