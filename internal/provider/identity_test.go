package provider_test

import (
	"encoding/json"
	"fmt"
	"regexp"
	"strings"
	"testing"

	"github.com/hashicorp/terraform-plugin-testing/helper/resource"
	"github.com/hashicorp/terraform-plugin-testing/knownvalue"
	"github.com/hashicorp/terraform-plugin-testing/plancheck"
	"github.com/hashicorp/terraform-plugin-testing/statecheck"
	"github.com/hashicorp/terraform-plugin-testing/terraform"
	"github.com/hashicorp/terraform-plugin-testing/tfjsonpath"
	"github.com/hashicorp/terraform-plugin-testing/tfversion"

	"github.com/rms-labs/terraform-provider-rms/internal/acctest"
	"github.com/rms-labs/terraform-provider-rms/internal/emulator"
)

// skipBelowIdentity: resource identity exists from Terraform 1.12.
var skipBelowIdentity = []tfversion.TerraformVersionCheck{tfversion.SkipBelow(tfversion.Version1_12_0)}

// identityImportBlock is an import block by identity; attrs are written in
// the order given.
func identityImportBlock(to string, attrs ...[2]string) string {
	var b strings.Builder
	fmt.Fprintf(&b, "import {\n  to = %s\n  identity = {\n", to)
	for _, kv := range attrs {
		fmt.Fprintf(&b, "    %s = %q\n", kv[0], kv[1])
	}
	b.WriteString("  }\n}\n")
	return b.String()
}

// TestAccIdentity_setAndImported: every resource that can be imported has
// an identity after create that matches its state, and an import block with
// that identity, or with the string id, finds the same object with the
// values the configuration gave.
func TestAccIdentity_setAndImported(t *testing.T) {
	acctest.SkipUnlessAcceptance(t)
	cases := []struct {
		name, address string
		config        string
		identity      map[string]knownvalue.Check
		// identity attribute -> state attribute it equals
		matches map[string]string
		planned map[string]knownvalue.Check
		// importID is the string id of the import block; nil: the id attribute
		importID resource.ImportStateIdFunc
	}{
		{
			name: "rms_list", address: "rms_list.test",
			config:   listConfig("Newsletter", "weekly", "", ""),
			identity: map[string]knownvalue.Check{"id": numericID},
			matches:  map[string]string{"id": "id"},
			planned:  map[string]knownvalue.Check{"name": knownvalue.StringExact("Newsletter"), "description": knownvalue.StringExact("weekly")},
		},
		{
			name: "rms_webhook", address: "rms_webhook.test",
			config:   webhookConfig("https://hooks.example.com/rms", `["contact.created"]`, `  description = "crm"`),
			identity: map[string]knownvalue.Check{"id": numericID},
			matches:  map[string]string{"id": "id"},
			planned:  map[string]knownvalue.Check{"url": knownvalue.StringExact("https://hooks.example.com/rms"), "description": knownvalue.StringExact("crm")},
		},
		{
			name: "rms_contact", address: "rms_contact.test",
			config: contactConfig(map[string]string{"email": "ada@example.com"}, "", "UNSUBSCRIBED"),
			identity: map[string]knownvalue.Check{
				"list_id": numericID, "original_id": knownvalue.StringExact("customer-1"),
			},
			matches: map[string]string{"list_id": "list_id", "original_id": "original_id"},
			planned: map[string]knownvalue.Check{
				"properties":    knownvalue.MapExact(map[string]knownvalue.Check{"email": knownvalue.StringExact("ada@example.com")}),
				"mobile_status": knownvalue.StringExact("UNSUBSCRIBED"),
			},
		},
		{
			name: "rms_resource", address: "rms_resource.test",
			config: genericConfig("campaigns", `{ name = "Spring sale", budget = 12 }`),
			identity: map[string]knownvalue.Check{
				"collection": knownvalue.StringExact("campaigns"), "id": numericID,
			},
			matches: map[string]string{"collection": "collection", "id": "id"},
			planned: map[string]knownvalue.Check{
				"body": knownvalue.ObjectExact(map[string]knownvalue.Check{
					"name": knownvalue.StringExact("Spring sale"), "budget": knownvalue.Int64Exact(12),
				}),
			},
			importID: func(s *terraform.State) (string, error) {
				return "campaigns/" + resourceID(s, "rms_resource.test"), nil
			},
		},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			env := acctest.NewEnv(t, emulator.Options{})
			created := []statecheck.StateCheck{statecheck.ExpectIdentity(tc.address, tc.identity)}
			for idAttr, stateAttr := range tc.matches {
				created = append(created, statecheck.ExpectIdentityValueMatchesStateAtPath(tc.address, tfjsonpath.New(idAttr), tfjsonpath.New(stateAttr)))
			}
			var planned []plancheck.PlanCheck
			for attr, want := range tc.planned {
				planned = append(planned, plancheck.ExpectKnownValue(tc.address, tfjsonpath.New(attr), want))
			}
			resource.ParallelTest(t, resource.TestCase{
				TerraformVersionChecks:   skipBelowIdentity,
				ProtoV6ProviderFactories: acctest.ProviderFactories(),
				Steps: []resource.TestStep{
					{Config: env.Config(tc.config), ConfigStateChecks: created},
					{
						ResourceName:     tc.address,
						ImportState:      true,
						ImportStateKind:  resource.ImportBlockWithResourceIdentity,
						ImportPlanChecks: resource.ImportPlanChecks{PreApply: planned},
					},
					{
						ResourceName:      tc.address,
						ImportState:       true,
						ImportStateKind:   resource.ImportBlockWithID,
						ImportStateIdFunc: tc.importID,
						ImportPlanChecks:  resource.ImportPlanChecks{PreApply: planned},
					},
				},
			})
		})
	}
}

// TestAccIdentity_importByIdentityApply brings objects made outside
// Terraform under management with import blocks by identity, through a real
// apply that changes nothing, and keeps their identities in state.
func TestAccIdentity_importByIdentityApply(t *testing.T) {
	acctest.SkipUnlessAcceptance(t)
	env := acctest.NewEnv(t, emulator.Options{})
	var list, hook, campaign struct {
		ID json.Number `json:"id"`
	}
	env.MustDo(t, "POST", "lists", map[string]any{"name": "Made elsewhere"}, &list)
	env.MustDo(t, "POST", "webhooks", map[string]any{"url": "https://hooks.example.com/x", "events": []string{"import.finished"}}, &hook)
	env.MustDo(t, "POST", "campaigns", map[string]any{"name": "Autumn", "tags": []string{"a", "b"}}, &campaign)
	if err := env.Emulator.UpsertContacts(mustParseID(t, list.ID.String()), []emulator.Contact{
		{OriginalID: "c/7", Properties: map[string]string{"email": "c7@example.com", "firstname": "Cee"}, Status: "UNSUBSCRIBED"},
	}); err != nil {
		t.Fatal(err)
	}
	listID := list.ID.String()
	config := env.Config(
		identityImportBlock("rms_list.made", [2]string{"id", listID}),
		identityImportBlock("rms_webhook.made", [2]string{"id", hook.ID.String()}),
		identityImportBlock("rms_contact.made", [2]string{"list_id", listID}, [2]string{"original_id", "c/7"}),
		identityImportBlock("rms_resource.made", [2]string{"collection", "campaigns"}, [2]string{"id", campaign.ID.String()}),
		fmt.Sprintf(`
resource "rms_list" "made" {
  name = "Made elsewhere"
}

resource "rms_webhook" "made" {
  url    = "https://hooks.example.com/x"
  events = ["import.finished"]
}

resource "rms_contact" "made" {
  list_id       = %q
  original_id   = "c/7"
  properties    = { email = "c7@example.com", firstname = "Cee" }
  email_status  = "UNSUBSCRIBED"
  mobile_status = "SUBSCRIBED"
}

resource "rms_resource" "made" {
  collection = "campaigns"
  body       = { name = "Autumn", tags = ["a", "b"] }
}
`, listID),
	)
	noop := []plancheck.PlanCheck{}
	for _, a := range []string{"rms_list.made", "rms_webhook.made", "rms_contact.made", "rms_resource.made"} {
		noop = append(noop, plancheck.ExpectResourceAction(a, plancheck.ResourceActionNoop))
	}
	resource.ParallelTest(t, resource.TestCase{
		TerraformVersionChecks:   skipBelowIdentity,
		ProtoV6ProviderFactories: acctest.ProviderFactories(),
		Steps: []resource.TestStep{{
			Config:           config,
			ConfigPlanChecks: resource.ConfigPlanChecks{PreApply: noop},
			ConfigStateChecks: []statecheck.StateCheck{
				statecheck.ExpectIdentity("rms_list.made", map[string]knownvalue.Check{"id": knownvalue.StringExact(listID)}),
				statecheck.ExpectIdentity("rms_webhook.made", map[string]knownvalue.Check{"id": knownvalue.StringExact(hook.ID.String())}),
				statecheck.ExpectIdentity("rms_contact.made", map[string]knownvalue.Check{
					"list_id": knownvalue.StringExact(listID), "original_id": knownvalue.StringExact("c/7"),
				}),
				statecheck.ExpectKnownValue("rms_contact.made", tfjsonpath.New("id"), knownvalue.StringExact(listID+"/c/7")),
				statecheck.ExpectIdentity("rms_resource.made", map[string]knownvalue.Check{
					"collection": knownvalue.StringExact("campaigns"), "id": knownvalue.StringExact(campaign.ID.String()),
				}),
			},
		}, {
			// The imported list holds a contact: its protection is lifted
			// so that the test's destroy can delete it.
			Config: strings.Replace(config, "name = \"Made elsewhere\"\n", "name = \"Made elsewhere\"\n  deletion_protection = false\n", 1),
		}},
	})
}

// TestAccIdentity_importByIdentityBad: each bad identity a user can write
// gives a diagnostic naming the cause. Each case has its own TestCase, since
// an import that fails leaves nothing to destroy.
func TestAccIdentity_importByIdentityBad(t *testing.T) {
	acctest.SkipUnlessAcceptance(t)
	env := acctest.NewEnv(t, emulator.Options{})
	var list struct {
		ID json.Number `json:"id"`
	}
	env.MustDo(t, "POST", "lists", map[string]any{"name": "L"}, &list)
	listID := list.ID.String()
	// The configuration is valid; only the identity is wrong, so the
	// import, not plan-time validation, has to catch it.
	contact := func(identityListID, originalID string) string {
		return identityImportBlock("rms_contact.test", [2]string{"list_id", identityListID}, [2]string{"original_id", originalID}) +
			fmt.Sprintf("resource \"rms_contact\" \"test\" {\n  list_id = %q\n  original_id = %q\n}\n", listID, originalID)
	}
	generic := func(collection, id string) string {
		return identityImportBlock("rms_resource.test", [2]string{"collection", collection}, [2]string{"id", id}) +
			fmt.Sprintf("resource \"rms_resource\" \"test\" {\n  collection = %q\n  body = { name = \"x\" }\n}\n", "campaigns")
	}
	cases := map[string]struct {
		config string
		want   *regexp.Regexp
	}{
		"list id not a number": {
			config: identityImportBlock("rms_list.test", [2]string{"id", "news"}) + listConfig("L", "", "", ""),
			want:   acctest.ExpectErrorParts("Invalid import id", "rms_list by its numeric id", `identity = { id = "42" }`, `got "news"`),
		},
		"webhook gone": {
			config: identityImportBlock("rms_webhook.test", [2]string{"id", "999999"}) + webhookConfig("https://h.example.com", `["message.sent"]`, ""),
			want:   acctest.ExpectErrorParts("Cannot import non-existent remote object"),
		},
		"contact list id not a number": {
			config: contact("L1", "a"),
			want:   acctest.ExpectErrorParts("Invalid import identity", "numeric id of its list", `got list_id "L1"`),
		},
		"contact unknown": {
			config: contact(listID, "nobody"),
			want:   acctest.ExpectErrorParts("Cannot import non-existent remote object", `no contact with original_id "nobody"`),
		},
		"resource internal collection": {
			config: generic("systemusers", "1"),
			want:   acctest.ExpectErrorParts("Invalid import id", "Systemusers is an internal-only domain"),
		},
		"resource id with a slash": {
			config: generic("campaigns", "1/2"),
			want:   acctest.ExpectErrorParts("Invalid import identity", `got id "1/2"`),
		},
		"resource gone": {
			config: generic("campaigns", "999999"),
			want:   acctest.ExpectErrorParts("Cannot import non-existent remote object"),
		},
	}
	for name, tc := range cases {
		t.Run(name, func(t *testing.T) {
			resource.ParallelTest(t, resource.TestCase{
				TerraformVersionChecks:   skipBelowIdentity,
				ProtoV6ProviderFactories: acctest.ProviderFactories(),
				Steps:                    []resource.TestStep{{Config: env.Config(tc.config), ExpectError: tc.want}},
			})
		})
	}
}
