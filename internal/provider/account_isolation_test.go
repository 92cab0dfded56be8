package provider_test

import (
	"fmt"
	"testing"

	"github.com/hashicorp/terraform-plugin-testing/helper/resource"
	"github.com/hashicorp/terraform-plugin-testing/knownvalue"
	"github.com/hashicorp/terraform-plugin-testing/statecheck"
	"github.com/hashicorp/terraform-plugin-testing/terraform"
	"github.com/hashicorp/terraform-plugin-testing/tfjsonpath"

	"github.com/rms-labs/terraform-provider-rms/internal/acctest"
	"github.com/rms-labs/terraform-provider-rms/internal/emulator"
)

// Two customers of one service: alice's provider neither sees nor changes
// bob's list and contact, whether it names bob's list by id under her
// account or names bob's account with her credentials, and each refusal is
// a diagnostic that says what to check. Each step configures one provider:
// the test framework serves every provider block from one in-process
// server, so two aliased blocks in one step would share a configuration,
// which Terraform, starting a plugin process per block, never does.
func TestAccAccountIsolation(t *testing.T) {
	acctest.SkipUnlessAcceptance(t)
	envs := acctest.NewAccountEnvs(t,
		emulator.Options{CustomerID: 1000, Username: "alice", Password: "alice-password"},
		emulator.Options{CustomerID: 2000, Username: "bob", Password: "bob-password"})
	alice, bob := envs[0], envs[1]
	var list map[string]any
	bob.MustDo(t, "POST", "lists", map[string]any{"name": "bob's customers"}, &list)
	listID := fmt.Sprint(list["id"])
	bob.MustDo(t, "POST", "lists/"+listID+"/contacts", map[string]any{"originalId": "c1", "properties": map[string]any{"email": "c1@example.com"}}, nil)

	// untouched checks, with bob's credentials, that his list still holds
	// exactly his one contact, and that alice's account has no list.
	untouched := func(*terraform.State) error {
		var contacts, lists []map[string]any
		bob.MustDo(t, "GET", "lists/"+listID+"/contacts", nil, &contacts)
		if len(contacts) != 1 || contacts[0]["originalId"] != "c1" {
			return fmt.Errorf("bob's list %s holds %v, want only c1", listID, contacts)
		}
		alice.MustDo(t, "GET", "lists", nil, &lists)
		if len(lists) != 0 {
			return fmt.Errorf("alice's account holds lists %v, want none", lists)
		}
		return nil
	}
	readList := fmt.Sprintf(`
data "rms_list" "bobs" {
  id = %q
}
`, listID)
	aliceLists := `
data "rms_lists" "all" {}
`
	resource.ParallelTest(t, resource.TestCase{
		ProtoV6ProviderFactories: acctest.ProviderFactories(),
		Steps: []resource.TestStep{
			{
				// Bob's own provider reads his list: the id is right.
				Config: bob.ProviderBlock() + readList,
				ConfigStateChecks: []statecheck.StateCheck{
					statecheck.ExpectKnownValue("data.rms_list.bobs", tfjsonpath.New("name"), knownvalue.StringExact("bob's customers")),
				},
			},
			{
				// Alice's lists hold none of bob's.
				Config: alice.ProviderBlock() + aliceLists,
				ConfigStateChecks: []statecheck.StateCheck{
					statecheck.ExpectKnownValue("data.rms_lists.all", tfjsonpath.New("lists"), knownvalue.ListSizeExact(0)),
				},
			},
			{
				// Under her account, bob's list id names nothing.
				Config:      alice.ProviderBlock() + readList,
				ExpectError: acctest.ExpectErrorParts("No list has id", listID),
			},
			{
				// Nor can she write into it.
				Config: alice.ProviderBlock() + fmt.Sprintf(`
resource "rms_contact" "planted" {
  list_id     = %q
  original_id = "planted"
}
`, listID),
				ExpectError: acctest.ExpectErrorParts("Unable to create contact", "does not exist", "Check list_id"),
			},
			{
				// Her credentials naming bob's account are refused.
				Config:      alice.ProviderBlockNaming(bob.CustomerID) + readList,
				ExpectError: acctest.ExpectErrorParts("Check customer_id", "the credentials do not belong to that account"),
			},
			{
				Config: alice.ProviderBlock() + aliceLists,
				ConfigStateChecks: []statecheck.StateCheck{
					statecheck.ExpectKnownValue("data.rms_lists.all", tfjsonpath.New("lists"), knownvalue.ListSizeExact(0)),
				},
				Check: untouched,
			},
		},
	})
}
