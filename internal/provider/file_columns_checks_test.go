package provider_test

import (
	"fmt"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"github.com/hashicorp/terraform-plugin-testing/helper/resource"
	"github.com/hashicorp/terraform-plugin-testing/terraform"

	"github.com/rms-labs/terraform-provider-rms/internal/acctest"
	"github.com/rms-labs/terraform-provider-rms/internal/emulator"
)

// Every check the plan can make, at plan: a column of an import that is
// no attribute of the account, a status column an import cannot take, an
// attribute named twice on a new list. Each is refused at plan, naming
// what is wrong and what exists, and nothing is written to the service;
// where the plan cannot check (the input known only at apply), the apply
// refuses before its first write, and creates no import. A contact
// resource's key or column of no attribute is only a warning at plan (the
// attribute may be made earlier in the same apply): the apply refuses it
// before its first write.

// theAttributes is how the errors name the emulator's standard attributes.
const theAttributes = "its attributes: email, mobile, firstname, lastname"

// serviceWrites counts every POST and PUT the emulator received.
func serviceWrites(env *acctest.Env) int64 {
	var n int64
	for key, c := range env.Emulator.Requests().ByRoute {
		if strings.HasPrefix(key, "POST ") || strings.HasPrefix(key, "PUT ") {
			n += c
		}
	}
	return n
}

// noServiceWrites fails the test when anything was written to the service
// (a list, an import, a contact).
func noServiceWrites(t *testing.T, env *acctest.Env) {
	t.Helper()
	t.Cleanup(func() {
		if n := serviceWrites(env); n != 0 {
			t.Errorf("refused inputs made %d writes on the service (%v)", n, env.Emulator.Requests().ByRoute)
		}
	})
}

// TestAccListContactsUnknownAttributeRefusedAtApply: rms_list_contacts
// refuses a property key (map; by name and by id) and a column (file) that
// name no attribute of the account before the apply's first write, on an
// existing list and on a list made in the same apply, naming the key and
// the attributes that exist (the plan only warns: the attribute could be
// made earlier in the apply); no contact is written.
func TestAccListContactsUnknownAttributeRefusedAtApply(t *testing.T) {
	acctest.SkipUnlessAcceptance(t)
	env := acctest.NewEnv(t, emulator.Options{})
	t.Cleanup(func() {
		if n := contactWrites(env); n != 0 {
			t.Errorf("refused inputs made %d contact writes (%v)", n, env.Emulator.Requests().ByRoute)
		}
	})
	file := filepath.Join(t.TempDir(), "members.csv")
	mustWrite(t, file, "originalId,firstname,shoe_size\na,Ann,\nb,Bob,44\n")
	newList := "resource \"rms_list\" \"l\" {\n  name = \"Members\"\n}\n"
	mapInput := `contacts = { a = { properties = { firstname = "Ann", shoe_size = "42", "999" = "x" } } }`
	fileInput := fmt.Sprintf("source_file = %q", file)
	contacts := func(listID, input string) string {
		return fmt.Sprintf("resource \"rms_list_contacts\" \"c\" {\n  list_id = %s\n  %s\n}\n", listID, input)
	}
	// The two keys' errors come in either order.
	idKey, nameKey := `contacts["a"].properties["999"]: key "999" names an attribute id the account does not have`, `contacts["a"].properties["shoe_size"]: key "shoe_size" names no contact attribute of the account (`+theAttributes+`)`
	mapErr := regexp.MustCompile(acctest.ExpectErrorParts("Unknown contact attribute", idKey, "Nothing was written", nameKey).String() + "|" +
		acctest.ExpectErrorParts("Unknown contact attribute", nameKey, "Nothing was written", idKey).String())
	fileErr := acctest.ExpectErrorParts("Unknown contact attribute", `source_file: column "shoe_size" names no contact attribute of the account (`+theAttributes+`)`, "rename the column", "Nothing was written")
	cases := []struct {
		name, config string
		want         *regexp.Regexp
	}{
		{"map, existing list", contacts(`"1"`, mapInput), mapErr},
		{"file, existing list", contacts(`"1"`, fileInput), fileErr},
		{"map, new list", newList + contacts("rms_list.l.id", mapInput), mapErr},
		{"file, new list", newList + contacts("rms_list.l.id", fileInput), fileErr},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			resource.ParallelTest(t, resource.TestCase{
				ProtoV6ProviderFactories: acctest.ProviderFactories(),
				Steps:                    []resource.TestStep{{Config: env.Config(c.config), ExpectError: c.want}},
			})
		})
	}
}

// TestAccListContactsNamedTwiceNewListRefusedAtPlan: a contact naming one
// attribute by name and by id is refused at plan on a list made in the
// same apply (list_id unknown at plan) too: no list is created.
func TestAccListContactsNamedTwiceNewListRefusedAtPlan(t *testing.T) {
	acctest.SkipUnlessAcceptance(t)
	env := acctest.NewEnv(t, emulator.Options{})
	noServiceWrites(t, env)
	resource.ParallelTest(t, resource.TestCase{
		ProtoV6ProviderFactories: acctest.ProviderFactories(),
		Steps: []resource.TestStep{{
			Config: env.Config(`
resource "rms_list" "l" {
  name = "Members"
}

resource "rms_list_contacts" "c" {
  list_id  = rms_list.l.id
  contacts = { a = { properties = { firstname = "Ann", "3" = "Bob" } } }
}
`),
			ExpectError: acctest.ExpectErrorParts("Contact attribute named twice", `Contact "a" names attribute "firstname" twice: by key "3" and by key "firstname".`),
		}},
	})
}

// TestAccListContactsUnknownAttributeRefusedBeforeWrites: where the plan
// cannot read the input (the file's path is known only at apply), the
// apply refuses a column that is no attribute before its first write. Ten
// rows, below batch_threshold: before this check the five rows with a shoe
// size failed and the five without were written ("5 of 10 contact changes
// ... failed; the others were made").
func TestAccListContactsUnknownAttributeRefusedBeforeWrites(t *testing.T) {
	acctest.SkipUnlessAcceptance(t)
	env := acctest.NewEnv(t, emulator.Options{})
	list := newTestList(t, env)
	file := filepath.Join(t.TempDir(), "members.csv")
	var b strings.Builder
	b.WriteString("originalId,firstname,shoe_size\n")
	for i := range 10 {
		size := ""
		if i%2 == 1 {
			size = fmt.Sprint(40 + i)
		}
		fmt.Fprintf(&b, "m%d,Member %d,%s\n", i, i, size)
	}
	mustWrite(t, file, b.String())
	resource.ParallelTest(t, resource.TestCase{
		ProtoV6ProviderFactories: acctest.ProviderFactories(),
		Steps: []resource.TestStep{{
			Config: env.Config(fmt.Sprintf(`
resource "terraform_data" "path" {
  input = %q
}

resource "rms_list_contacts" "c" {
  list_id     = %q
  source_file = terraform_data.path.output
}
`, file, list)),
			ExpectError: acctest.ExpectErrorParts("Unknown contact attribute", `source_file: column "shoe_size" names no contact attribute of the account (`+theAttributes+`)`, "Nothing was written"),
		}},
		CheckDestroy: func(*terraform.State) error {
			if n := contactWrites(env); n != 0 {
				return fmt.Errorf("the refused apply made %d contact writes, want none", n)
			}
			if got := listContacts(t, env, list); len(got) != 0 {
				return fmt.Errorf("the refused apply left contacts: %v", got)
			}
			return nil
		},
	})
}

// TestAccListImportUnknownColumnNoImportLeft: a file the plan cannot read
// (its path known only at apply) with a column that is no attribute is
// refused by the apply before the import is created: no import object
// without a batch is left on the service.
func TestAccListImportUnknownColumnNoImportLeft(t *testing.T) {
	acctest.SkipUnlessAcceptance(t)
	env := acctest.NewEnv(t, emulator.Options{})
	list := importList(t, env)
	file := filepath.Join(t.TempDir(), "members.csv")
	mustWrite(t, file, "originalId,firstname,shoe_size\na,Ann,42\n")
	resource.ParallelTest(t, resource.TestCase{
		ProtoV6ProviderFactories: acctest.ProviderFactories(),
		Steps: []resource.TestStep{{
			Config: env.Config(fmt.Sprintf(`
resource "terraform_data" "path" {
  input = %q
}
`, file) + importConfig(list, "ADD", "file = terraform_data.path.output")),
			ExpectError: acctest.ExpectErrorParts("Import file refused", `column "shoe_size" names no contact attribute of the account (`+theAttributes+`)`, "no import was created"),
		}},
		CheckDestroy: func(*terraform.State) error {
			if n := env.Emulator.Requests().ByRoute[routeCreateImport]; n != 0 {
				return fmt.Errorf("%d imports created on the service, want none", n)
			}
			return nil
		},
	})
}

// TestAccListImportStatusColumns: the same CSV with status columns means
// its statuses to rms_list_contacts, and is refused by rms_list_import at
// plan, before any import is created, naming the reason (the service's
// import has no status columns) and the alternatives.
func TestAccListImportStatusColumns(t *testing.T) {
	acctest.SkipUnlessAcceptance(t)
	env := acctest.NewEnv(t, emulator.Options{})
	list := importList(t, env)
	other := importList(t, env)
	file := filepath.Join(t.TempDir(), "members.csv")
	mustWrite(t, file, "originalId,firstname,email_status\na,Ann,SUBSCRIBED\nb,Bob,UNSUBSCRIBED\n")
	t.Run("rms_list_import", func(t *testing.T) {
		resource.ParallelTest(t, resource.TestCase{
			ProtoV6ProviderFactories: acctest.ProviderFactories(),
			Steps: []resource.TestStep{{
				Config: env.Config(importConfig(other, "ADD", fmt.Sprintf("file = %q", file))),
				ExpectError: acctest.ExpectErrorParts("Import file refused", `column "email_status" is a subscription status column, which the service's import does not have`,
					"use it as the source_file of rms_list_contacts", `type = "UNSUBSCRIBE"`, "no import was created"),
			}},
			CheckDestroy: func(*terraform.State) error {
				if n := env.Emulator.Requests().ByRoute[routeCreateImport]; n != 0 {
					return fmt.Errorf("%d imports created on the service, want none", n)
				}
				return nil
			},
		})
	})
	t.Run("rms_list_contacts", func(t *testing.T) {
		resource.ParallelTest(t, resource.TestCase{
			ProtoV6ProviderFactories: acctest.ProviderFactories(),
			Steps: []resource.TestStep{{
				Config: env.Config(fmt.Sprintf("resource \"rms_list_contacts\" \"c\" {\n  list_id     = %q\n  source_file = %q\n}\n", list, file)),
				Check: wantContacts(t, env, list, map[string]string{
					"a": "firstname=Ann SUBSCRIBED",
					"b": "firstname=Bob UNSUBSCRIBED",
				}),
			}},
		})
	})
}
