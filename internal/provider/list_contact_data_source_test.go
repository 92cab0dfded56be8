package provider_test

import (
	"fmt"
	"testing"

	"github.com/hashicorp/terraform-plugin-testing/compare"
	"github.com/hashicorp/terraform-plugin-testing/helper/resource"
	"github.com/hashicorp/terraform-plugin-testing/knownvalue"
	"github.com/hashicorp/terraform-plugin-testing/statecheck"
	"github.com/hashicorp/terraform-plugin-testing/tfjsonpath"

	"github.com/rms-labs/terraform-provider-rms/internal/acctest"
	"github.com/rms-labs/terraform-provider-rms/internal/emulator"
)

func TestAccListDataSources(t *testing.T) {
	env := acctest.NewEnv(t, emulator.Options{})
	config := env.Config(`
resource "rms_list" "a" {
  name         = "Alpha"
  sender_email = "alpha@example.com"
}
resource "rms_list" "b" {
  name = "Beta"
  # Created after Alpha, so the listing's order (ascending id) is known.
  depends_on = [rms_list.a]
}
data "rms_list" "by_id" {
  id = rms_list.a.id
}
data "rms_list" "by_name" {
  name       = "Beta"
  depends_on = [rms_list.b]
}
data "rms_lists" "all" {
  depends_on = [rms_list.a, rms_list.b]
}
`)
	resource.ParallelTest(t, resource.TestCase{
		ProtoV6ProviderFactories: acctest.ProviderFactories(),
		Steps: []resource.TestStep{{
			Config: config,
			ConfigStateChecks: []statecheck.StateCheck{
				statecheck.ExpectKnownValue("data.rms_list.by_id", tfjsonpath.New("name"), knownvalue.StringExact("Alpha")),
				statecheck.ExpectKnownValue("data.rms_list.by_id", tfjsonpath.New("sender_email"), knownvalue.StringExact("alpha@example.com")),
				statecheck.ExpectKnownValue("data.rms_list.by_id", tfjsonpath.New("description"), knownvalue.Null()),
				statecheck.CompareValuePairs("data.rms_list.by_name", tfjsonpath.New("id"), "rms_list.b", tfjsonpath.New("id"), compare.ValuesSame()),
				statecheck.ExpectKnownValue("data.rms_lists.all", tfjsonpath.New("lists"), knownvalue.ListExact([]knownvalue.Check{
					knownvalue.ObjectPartial(map[string]knownvalue.Check{"name": knownvalue.StringExact("Alpha"), "sender_email": knownvalue.StringExact("alpha@example.com")}),
					knownvalue.ObjectPartial(map[string]knownvalue.Check{"name": knownvalue.StringExact("Beta"), "sender_email": knownvalue.Null()}),
				})),
			},
		}},
	})

	for name, tc := range map[string]struct {
		config string
		want   []string
	}{
		"unknown id":          {`data "rms_list" "x" { id = "99999" }`, []string{"List not found", `No list has id "99999"`}},
		"unknown name":        {`data "rms_list" "x" { name = "Nope" }`, []string{"Unable to find list by name", `no list is named "Nope"`}},
		"neither id nor name": {`data "rms_list" "x" {}`, []string{"Missing Attribute Configuration", "Exactly one of these attributes must be configured: [id,name]"}},
	} {
		t.Run(name, func(t *testing.T) {
			resource.ParallelTest(t, resource.TestCase{
				ProtoV6ProviderFactories: acctest.ProviderFactories(),
				Steps:                    []resource.TestStep{{Config: env.Config(tc.config), ExpectError: acctest.ExpectErrorParts(tc.want...)}},
			})
		})
	}
}

func TestAccContactDataSource(t *testing.T) {
	env := acctest.NewEnv(t, emulator.Options{})
	var list map[string]any
	env.MustDo(t, "POST", "lists", map[string]any{"name": "L"}, &list)
	listID := fmt.Sprint(list["id"])
	env.MustDo(t, "POST", "lists/"+listID+"/contacts", map[string]any{
		"originalId": "ada", "properties": map[string]any{"email": "ada@example.com", "3": "Ada"}, "mobileStatus": "UNSUBSCRIBED",
	}, nil)
	resource.ParallelTest(t, resource.TestCase{
		ProtoV6ProviderFactories: acctest.ProviderFactories(),
		Steps: []resource.TestStep{{
			Config: env.Config(fmt.Sprintf(`
data "rms_contact" "present" {
  list_id     = %[1]q
  original_id = "ada"
}
data "rms_contact" "absent" {
  list_id     = %[1]q
  original_id = "bob"
}
`, listID)),
			ConfigStateChecks: []statecheck.StateCheck{
				statecheck.ExpectKnownValue("data.rms_contact.present", tfjsonpath.New("exists"), knownvalue.Bool(true)),
				statecheck.ExpectKnownValue("data.rms_contact.present", tfjsonpath.New("properties"), knownvalue.MapExact(map[string]knownvalue.Check{
					"email": knownvalue.StringExact("ada@example.com"), "firstname": knownvalue.StringExact("Ada"),
				})),
				statecheck.ExpectKnownValue("data.rms_contact.present", tfjsonpath.New("email_status"), knownvalue.StringExact("SUBSCRIBED")),
				statecheck.ExpectKnownValue("data.rms_contact.present", tfjsonpath.New("mobile_status"), knownvalue.StringExact("UNSUBSCRIBED")),
				statecheck.ExpectKnownValue("data.rms_contact.absent", tfjsonpath.New("exists"), knownvalue.Bool(false)),
				statecheck.ExpectKnownValue("data.rms_contact.absent", tfjsonpath.New("properties"), knownvalue.Null()),
				statecheck.ExpectKnownValue("data.rms_contact.absent", tfjsonpath.New("email_status"), knownvalue.Null()),
			},
		}},
	})
	t.Run("list that does not exist", func(t *testing.T) {
		resource.ParallelTest(t, resource.TestCase{
			ProtoV6ProviderFactories: acctest.ProviderFactories(),
			Steps: []resource.TestStep{{
				Config:      env.Config(`data "rms_contact" "x" {` + "\n" + `list_id = "99999"` + "\n" + `original_id = "ada"` + "\n}"),
				ExpectError: acctest.ExpectErrorParts("List not found", "list_id", `No list has id "99999"`),
			}},
		})
	})
}

// The contacts data source pages through a list bigger than one page (the
// client asks for 500 a page) and finds recipients appearing twice.
func TestAccContactsDataSource_paging(t *testing.T) {
	env := acctest.NewEnv(t, emulator.Options{})
	var list map[string]any
	env.MustDo(t, "POST", "lists", map[string]any{"name": "Big"}, &list)
	listID := fmt.Sprint(list["id"])
	const n = 1234
	seed := make([]emulator.Contact, n)
	for i := range seed {
		seed[i] = emulator.Contact{OriginalID: fmt.Sprintf("c%04d", i), Properties: map[string]string{"email": fmt.Sprintf("r%d@example.com", i), "mobile": fmt.Sprint(i % 1000)}}
	}
	seed[700].Properties["email"] = " R3@Example.com" // same address as c0003
	seed[1200].Properties["email"] = "r3@example.com" // and again
	seed[1201].Properties = map[string]string{}       // no address: not compared
	if err := env.Emulator.UpsertContacts(mustParseID(t, listID), seed); err != nil {
		t.Fatal(err)
	}
	resource.ParallelTest(t, resource.TestCase{
		ProtoV6ProviderFactories: acctest.ProviderFactories(),
		Steps: []resource.TestStep{{
			Config: env.Config(fmt.Sprintf(`
data "rms_contacts" "all" {
  list_id = %[1]q
}
data "rms_contacts" "by_mobile" {
  list_id          = %[1]q
  duplicate_key    = "2"
  include_contacts = false
}
`, listID)),
			ConfigStateChecks: []statecheck.StateCheck{
				statecheck.ExpectKnownValue("data.rms_contacts.all", tfjsonpath.New("contact_count"), knownvalue.Int64Exact(n)),
				statecheck.ExpectKnownValue("data.rms_contacts.all", tfjsonpath.New("duplicate_key"), knownvalue.StringExact("email")),
				statecheck.ExpectKnownValue("data.rms_contacts.all", tfjsonpath.New("contacts"), knownvalue.ListSizeExact(n)),
				statecheck.ExpectKnownValue("data.rms_contacts.all", tfjsonpath.New("contacts").AtSliceIndex(1233), knownvalue.ObjectExact(map[string]knownvalue.Check{
					"original_id":   knownvalue.StringExact("c1233"),
					"properties":    knownvalue.MapExact(map[string]knownvalue.Check{"email": knownvalue.StringExact("r1233@example.com"), "mobile": knownvalue.StringExact("233")}),
					"email_status":  knownvalue.StringExact("SUBSCRIBED"),
					"mobile_status": knownvalue.StringExact("SUBSCRIBED"),
					"date_created":  knownvalue.NotNull(),
					"date_modified": knownvalue.NotNull(),
				})),
				statecheck.ExpectKnownValue("data.rms_contacts.all", tfjsonpath.New("duplicates"), knownvalue.MapExact(map[string]knownvalue.Check{
					"r3@example.com": knownvalue.ListExact([]knownvalue.Check{
						knownvalue.StringExact("c0003"), knownvalue.StringExact("c0700"), knownvalue.StringExact("c1200"),
					}),
				})),
				// By attribute id: mobile values 0..233 appear twice.
				statecheck.ExpectKnownValue("data.rms_contacts.by_mobile", tfjsonpath.New("contacts"), knownvalue.Null()),
				statecheck.ExpectKnownValue("data.rms_contacts.by_mobile", tfjsonpath.New("duplicates"), knownvalue.MapSizeExact(233)),
				statecheck.ExpectKnownValue("data.rms_contacts.by_mobile", tfjsonpath.New("duplicates").AtMapKey("5"), knownvalue.ListExact([]knownvalue.Check{
					knownvalue.StringExact("c0005"), knownvalue.StringExact("c1005"),
				})),
			},
		}},
	})
	for name, tc := range map[string]struct {
		config string
		want   []string
	}{
		"list that does not exist": {`data "rms_contacts" "x" { list_id = "99999" }`, []string{"List not found", "list_id", `No list has id "99999"`}},
		"unknown attribute id":     {fmt.Sprintf(`data "rms_contacts" "x" {`+"\n"+`list_id = %q`+"\n"+`duplicate_key = "999"`+"\n}", listID), []string{"Unknown contact attribute", "duplicate_key", "no contact attribute with id 999"}},
	} {
		t.Run(name, func(t *testing.T) {
			resource.ParallelTest(t, resource.TestCase{
				ProtoV6ProviderFactories: acctest.ProviderFactories(),
				Steps:                    []resource.TestStep{{Config: env.Config(tc.config), ExpectError: acctest.ExpectErrorParts(tc.want...)}},
			})
		})
	}
}
