package provider_test

import (
	"fmt"
	"path/filepath"
	"strings"
	"testing"

	"github.com/hashicorp/terraform-plugin-testing/helper/resource"
	"github.com/hashicorp/terraform-plugin-testing/plancheck"
	"github.com/hashicorp/terraform-plugin-testing/terraform"

	"github.com/rms-labs/terraform-provider-rms/internal/acctest"
	"github.com/rms-labs/terraform-provider-rms/internal/emulator"
)

// A property key that names no attribute of the account today is a
// warning at plan and an error at apply, before the first write, only if
// it is still absent then: the first apply of a new account creates its
// attributes (rms_resource of "properties") and uses them in the same
// configuration. rms_contact's properties, rms_list_contacts' contacts
// map and a source file's columns follow the one rule.

// contactProperties reads a contact of a list through the service's REST
// interface: its properties, and whether the list has it at all.
func contactProperties(t *testing.T, env *acctest.Env, listID, originalID string) (map[string]any, bool) {
	t.Helper()
	var c struct {
		Properties map[string]any `json:"properties"`
	}
	status := env.Do(t, "GET", "lists/"+listID+"/contacts/"+originalID, nil, &c)
	switch {
	case status == 404:
		return nil, false
	case status < 200 || status > 299:
		t.Fatalf("GET contact %s of list %s: status %d", originalID, listID, status)
	}
	return c.Properties, true
}

// listContactIDs lists the originalIds of a list's contacts through REST.
func listContactIDs(t *testing.T, env *acctest.Env, listID string) []string {
	t.Helper()
	var contacts []struct {
		OriginalID string `json:"originalId"`
	}
	env.MustDo(t, "GET", "lists/"+listID+"/contacts", nil, &contacts)
	ids := make([]string, 0, len(contacts))
	for _, c := range contacts {
		ids = append(ids, c.OriginalID)
	}
	return ids
}

// TestAccPropertyKeysOfAttributeMadeInSameApply: one configuration creates
// the attribute shoe_size and uses it (with depends_on) in rms_contact, in
// rms_list_contacts' map and in a source file's column; one apply makes
// all of it, the service holds the values, and the next plan is empty.
func TestAccPropertyKeysOfAttributeMadeInSameApply(t *testing.T) {
	acctest.SkipUnlessAcceptance(t)
	env := acctest.NewEnv(t, emulator.Options{})
	file := filepath.Join(t.TempDir(), "members.csv")
	mustWrite(t, file, "originalId,firstname,shoe_size\nf-1,Fay,40\nf-2,Finn,41\n")
	resource.ParallelTest(t, resource.TestCase{
		ProtoV6ProviderFactories: acctest.ProviderFactories(),
		Steps: []resource.TestStep{{
			Config: env.Config(fmt.Sprintf(`
resource "rms_resource" "shoe_size" {
  collection = "properties"
  body       = { name = "shoe_size" }
}

resource "rms_list" "l" {
  count               = 3
  name                = "Members ${count.index}"
  deletion_protection = false
}

resource "rms_contact" "c" {
  list_id     = rms_list.l[0].id
  original_id = "c-1"
  properties  = { firstname = "Ada", shoe_size = "42" }
  depends_on  = [rms_resource.shoe_size]
}

resource "rms_list_contacts" "m" {
  list_id    = rms_list.l[1].id
  contacts   = { m-1 = { properties = { shoe_size = "44" } } }
  depends_on = [rms_resource.shoe_size]
}

resource "rms_list_contacts" "f" {
  list_id     = rms_list.l[2].id
  source_file = %q
  depends_on  = [rms_resource.shoe_size]
}
`, file)),
			ConfigPlanChecks: resource.ConfigPlanChecks{PostApplyPostRefresh: []plancheck.PlanCheck{plancheck.ExpectEmptyPlan()}},
			Check: func(s *terraform.State) error {
				var lists [3]string
				for i := range lists {
					lists[i] = s.RootModule().Resources[fmt.Sprintf("rms_list.l.%d", i)].Primary.ID
				}
				want := []struct {
					list, id, size string
				}{{lists[0], "c-1", "42"}, {lists[1], "m-1", "44"}, {lists[2], "f-1", "40"}, {lists[2], "f-2", "41"}}
				for _, w := range want {
					props, ok := contactProperties(t, env, w.list, w.id)
					if !ok || props["shoe_size"] != w.size {
						return fmt.Errorf("contact %s of list %s: the service holds %v (exists: %v), want shoe_size %q", w.id, w.list, props, ok, w.size)
					}
				}
				return nil
			},
		}},
	})
}

// TestAccPropertyKeysNeverMadeWarnAtPlanRefusedAtApply: keys that name no
// attribute, by name, by id and in another letter case, and a file's
// column likewise: the plan warns (naming the key and the right spelling
// where only letter case differs), the apply refuses each resource before
// its first write, naming the key's path and what to do, and nothing was
// written: no contact on the service, the lists as they were, no
// resource in state.
func TestAccPropertyKeysNeverMadeWarnAtPlanRefusedAtApply(t *testing.T) {
	acctest.SkipUnlessAcceptance(t)
	t.Parallel()
	env := acctest.NewEnv(t, emulator.Options{})
	lists := [3]string{newTestList(t, env), newTestList(t, env), newTestList(t, env)}
	for _, l := range lists {
		env.MustDo(t, "POST", "lists/"+l+"/contacts", map[string]any{"originalId": "kept", "properties": map[string]any{"firstname": "Kim"}}, nil)
	}
	ws := acctest.NewWorkspace(t)
	ws.Write("members.csv", "originalId,firstname,hat_size\nf-1,Fay,56\n")
	ws.Configure(env, fmt.Sprintf(`
resource "rms_contact" "c" {
  list_id     = %q
  original_id = "c-1"
  properties  = { FirstName = "Ada", "999" = "x" }
}

resource "rms_list_contacts" "m" {
  list_id  = %q
  contacts = {
    kept = { properties = { firstname = "Kim" } }
    m-1  = { properties = { shoe_size = "44" } }
    m-2  = { properties = { shoe_size = "45" } }
  }
}

resource "rms_list_contacts" "f" {
  list_id     = %q
  source_file = "${path.module}/members.csv"
}
`, lists[0], lists[1], lists[2]))

	out, code := ws.Run("plan", "-no-color")
	if code != 0 {
		t.Fatalf("the plan exited %d:\n%s", code, out)
	}
	yet := "is not an attribute of the account yet: the apply fails before any write unless it exists by then"
	for _, parts := range [][]string{
		{`Warning: Contact attribute "FirstName" not in the account yet`, `properties["FirstName"]: key "FirstName" ` + yet, `its attribute "firstname" differs only in letter case`, `write "firstname"`},
		{`properties["999"]: key "999" (an attribute id) ` + yet},
		{`contacts["m-1"].properties["shoe_size"]: key "shoe_size" ` + yet, "The key is also in 1 more contact"},
		{`source_file: column "hat_size" ` + yet},
		{"3 to add"},
	} {
		if !acctest.Contains(out, parts...) {
			t.Errorf("the plan does not say %q:\n%s", parts, out)
		}
	}

	out, code = ws.Run("apply", "-auto-approve", "-no-color")
	if code == 0 {
		t.Fatalf("the apply succeeded:\n%s", out)
	}
	for _, parts := range [][]string{
		{"Error: Unknown contact attribute", `properties["FirstName"]: key "FirstName" names no contact attribute of the account`, `write "firstname"`, "Nothing was written"},
		{`properties["999"]: key "999" names an attribute id the account does not have`},
		{`contacts["m-1"].properties["shoe_size"]: key "shoe_size" names no contact attribute of the account (its attributes: email, mobile, firstname, lastname)`, "The key is also in 1 more contact"},
		{`source_file: column "hat_size" names no contact attribute of the account`},
		{`collection = "properties"`, "depends_on"},
	} {
		if !acctest.Contains(out, parts...) {
			t.Errorf("the apply does not say %q:\n%s", parts, out)
		}
	}
	if _, ok := contactProperties(t, env, lists[0], "c-1"); ok {
		t.Errorf("the refused rms_contact created contact c-1 on the service")
	}
	for _, l := range lists {
		if ids := listContactIDs(t, env, l); strings.Join(ids, ",") != "kept" {
			t.Errorf("list %s holds %v after the refused apply, want only the contact it had (kept)", l, ids)
		}
	}
	if n := contactWrites(env); n != 3 { // the three seeded contacts
		t.Errorf("the refused apply sent %d contact writes beyond the 3 of the test's own set-up", n-3)
	}
	for _, r := range [][2]string{{"rms_contact", "c"}, {"rms_list_contacts", "m"}, {"rms_list_contacts", "f"}} {
		if _, ok := ws.Instance(r[0], r[1]); ok {
			t.Errorf("%s.%s is in the state after its apply was refused", r[0], r[1])
		}
	}
}
