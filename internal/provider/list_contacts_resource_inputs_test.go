package provider_test

import (
	"fmt"
	"path/filepath"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/hashicorp/terraform-plugin-testing/helper/resource"
	"github.com/hashicorp/terraform-plugin-testing/plancheck"
	"github.com/hashicorp/terraform-plugin-testing/terraform"

	"github.com/rms-labs/terraform-provider-rms/internal/acctest"
	"github.com/rms-labs/terraform-provider-rms/internal/emulator"
)

// Inputs that mean one thing: the same file, the same map value, means the
// same contacts whichever resource reads it.

// TestAccListContactsIdentityIsAttribute: a file whose identity column is
// an account attribute (email) gives the same contacts and values through
// rms_list_import and through rms_list_contacts: the identity is each
// contact's originalId and its e-mail address.
func TestAccListContactsIdentityIsAttribute(t *testing.T) {
	acctest.SkipUnlessAcceptance(t)
	env := acctest.NewEnv(t, emulator.Options{})
	viaImport, viaContacts := importList(t, env), newTestList(t, env)
	file := filepath.Join(t.TempDir(), "contacts.csv")
	mustWrite(t, file, "email;firstname\nada@example.com;Ada\ngrace@example.com;\n")
	config := env.Config(fmt.Sprintf(`
resource "rms_list_import" "test" {
  list_id         = %[1]q
  type            = "ADD"
  file            = %[3]q
  delimiter       = ";"
  identity_column = "email"
}

resource "rms_list_contacts" "c" {
  list_id         = %[2]q
  source_file     = %[3]q
  delimiter       = ";"
  identity_column = "email"
}
`, viaImport, viaContacts, file))
	resource.ParallelTest(t, resource.TestCase{
		ProtoV6ProviderFactories: acctest.ProviderFactories(),
		Steps: []resource.TestStep{
			{ // the framework then checks that the next plan is empty
				Config: config,
				Check: func(*terraform.State) error {
					imported, synced := listContacts(t, env, viaImport), listContacts(t, env, viaContacts)
					if diff := cmp.Diff(imported, synced); diff != "" {
						return fmt.Errorf("rms_list_import (-) and rms_list_contacts (+) disagree on the same file:\n%s", diff)
					}
					if got := getContact(t, env, viaContacts, "grace@example.com").Properties["email"]; got != "grace@example.com" {
						return fmt.Errorf("grace@example.com has e-mail address %q", got)
					}
					return nil
				},
			},
		},
	})
}

// TestAccListContactsEmptyValue: an empty string in the map means "no
// value", as an empty cell of a file does: one apply, then empty plans; a
// value set elsewhere is drift, removed by the next apply.
func TestAccListContactsEmptyValue(t *testing.T) {
	acctest.SkipUnlessAcceptance(t)
	env := acctest.NewEnv(t, emulator.Options{})
	listID := newTestList(t, env)
	contacts := map[string]listContact{
		"ada": {props: map[string]string{"email": "ada@example.com", "lastname": ""}},
		"bob": {props: map[string]string{"email": "bob@example.com", "lastname": "Builder"}},
	}
	emptied := map[string]listContact{
		"ada": contacts["ada"],
		"bob": {props: map[string]string{"email": "bob@example.com", "lastname": ""}},
	}
	lastname := func(id string) string { return getContact(t, env, listID, id).Properties["lastname"] }
	resource.ParallelTest(t, resource.TestCase{
		ProtoV6ProviderFactories: acctest.ProviderFactories(),
		Steps: []resource.TestStep{
			{ // the framework then checks that the next plan is empty
				Config: env.Config(listContactsConfig(listID, contacts, "")),
				Check: func(*terraform.State) error {
					if got := lastname("ada"); got != "" {
						return fmt.Errorf("ada's lastname is %q, want none", got)
					}
					return nil
				},
			},
			{Config: env.Config(listContactsConfig(listID, contacts, "")), PlanOnly: true}, // settled: no change, again
			{ // a value set elsewhere is drift
				PreConfig: func() {
					env.MustDo(t, "PUT", "lists/"+listID+"/contacts/ada", map[string]any{"properties": map[string]any{"lastname": "Elsewhere"}}, nil)
				},
				Config: env.Config(listContactsConfig(listID, contacts, "")),
				ConfigPlanChecks: resource.ConfigPlanChecks{PreApply: []plancheck.PlanCheck{
					plancheck.ExpectResourceAction("rms_list_contacts.c", plancheck.ResourceActionUpdate),
				}},
				Check: func(*terraform.State) error {
					if got := lastname("ada"); got != "" {
						return fmt.Errorf("ada's lastname is %q after the apply, want none", got)
					}
					return nil
				},
			},
			{ // a value emptied in the map is removed, and settles
				Config: env.Config(listContactsConfig(listID, emptied, "")),
				Check: func(*terraform.State) error {
					if got := lastname("bob"); got != "" {
						return fmt.Errorf("bob's lastname is %q, want none", got)
					}
					return nil
				},
			},
		},
	})
}
