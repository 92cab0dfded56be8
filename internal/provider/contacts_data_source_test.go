package provider_test

import (
	"fmt"
	"testing"

	"github.com/hashicorp/terraform-plugin-testing/helper/resource"
	"github.com/hashicorp/terraform-plugin-testing/knownvalue"
	"github.com/hashicorp/terraform-plugin-testing/statecheck"
	"github.com/hashicorp/terraform-plugin-testing/tfjsonpath"

	"github.com/rms-labs/terraform-provider-rms/internal/acctest"
	"github.com/rms-labs/terraform-provider-rms/internal/emulator"
)

// The contacts data source pages through a list bigger than one page (the
// client asks for 500 a page) and finds recipients appearing twice.
func TestAccContactsDataSource_paging(t *testing.T) {
	acctest.SkipUnlessAcceptance(t)
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
