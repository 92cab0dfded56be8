package provider_test

import (
	"bytes"
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

	"github.com/rms-labs/terraform-provider-rms/internal/acctest"
	"github.com/rms-labs/terraform-provider-rms/internal/emulator"
)

// genericConfig is an rms_resource "test" with the given collection and
// body (HCL object text).
func genericConfig(collection, body string) string {
	return fmt.Sprintf(`
resource "rms_resource" "test" {
  collection = %q
  body       = %s
}
`, collection, body)
}

func stateID(name string) func(s *terraform.State) string {
	return func(s *terraform.State) string { return s.RootModule().Resources[name].Primary.ID }
}

// rawEntity reads an entity out of band as raw JSON, to check the wire
// types and exact numbers.
func rawEntity(t *testing.T, env *acctest.Env, path string) map[string]json.RawMessage {
	t.Helper()
	var raw map[string]json.RawMessage
	env.MustDo(t, "GET", path, nil, &raw)
	return raw
}

func wantRaw(t *testing.T, raw map[string]json.RawMessage, key, want string) {
	t.Helper()
	var b bytes.Buffer
	if err := json.Compact(&b, raw[key]); err != nil {
		t.Errorf("server holds %s = %s, not JSON: %v", key, raw[key], err)
	}
	if got := b.String(); got != want {
		t.Errorf("server holds %s = %s, want %s", key, got, want)
	}
}

const campaignBody = `{
    name    = "Spring sale"
    subject = "a"
    budget  = 123456789012345678901234567890
    ratio   = 0.1
    enabled = true
    tags    = ["spring", "sale"]
    rule    = { field = "status", op = "eq", values = [1, "two", { three = 3 }] }
  }`

func TestAccGenericResource_lifecycle(t *testing.T) {
	acctest.SkipUnlessAcceptance(t)
	env := acctest.NewEnv(t, emulator.Options{})
	var id string
	updated := strings.Replace(strings.Replace(campaignBody, `op = "eq"`, `op = "ne"`, 1), `subject = "a"`, ``, 1)
	resource.ParallelTest(t, resource.TestCase{
		ProtoV6ProviderFactories: acctest.ProviderFactories(),
		Steps: []resource.TestStep{
			{ // create: JSON types and exact numbers on the wire
				Config: env.Config(genericConfig("campaigns", campaignBody)),
				ConfigStateChecks: []statecheck.StateCheck{
					statecheck.ExpectKnownValue("rms_resource.test", tfjsonpath.New("id"), knownvalue.StringRegexp(regexp.MustCompile(`^[0-9]+$`))),
					statecheck.ExpectKnownValue("rms_resource.test", tfjsonpath.New("output").AtMapKey("name"), knownvalue.StringExact("Spring sale")),
					statecheck.ExpectKnownValue("rms_resource.test", tfjsonpath.New("output").AtMapKey("dateCreated"), knownvalue.NotNull()),
					statecheck.ExpectKnownValue("rms_resource.test", tfjsonpath.New("output").AtMapKey("rule").AtMapKey("values").AtSliceIndex(2).AtMapKey("three"), knownvalue.Int64Exact(3)),
				},
				Check: func(s *terraform.State) error {
					id = stateID("rms_resource.test")(s)
					raw := rawEntity(t, env, "campaigns/"+id)
					wantRaw(t, raw, "budget", "123456789012345678901234567890")
					wantRaw(t, raw, "ratio", "0.1")
					wantRaw(t, raw, "enabled", "true")
					wantRaw(t, raw, "tags", `["spring","sale"]`)
					wantRaw(t, raw, "rule", `{"field":"status","op":"eq","values":[1,"two",{"three":3}]}`)
					return nil
				},
			},
			{ // a nested key changes in place; a removed key is removed
				Config: env.Config(genericConfig("campaigns", updated)),
				ConfigPlanChecks: resource.ConfigPlanChecks{
					PreApply: []plancheck.PlanCheck{
						plancheck.ExpectResourceAction("rms_resource.test", plancheck.ResourceActionUpdate),
						plancheck.ExpectKnownValue("rms_resource.test", tfjsonpath.New("body").AtMapKey("rule").AtMapKey("op"), knownvalue.StringExact("ne")),
						plancheck.ExpectKnownValue("rms_resource.test", tfjsonpath.New("body").AtMapKey("rule").AtMapKey("field"), knownvalue.StringExact("status")),
					},
				},
				Check: func(s *terraform.State) error {
					if got := stateID("rms_resource.test")(s); got != id {
						t.Errorf("update replaced the entity: id %s, want %s", got, id)
					}
					raw := rawEntity(t, env, "campaigns/"+id)
					wantRaw(t, raw, "rule", `{"field":"status","op":"ne","values":[1,"two",{"three":3}]}`)
					if _, ok := raw["subject"]; ok {
						t.Errorf("subject was removed from body but the server still holds it")
					}
					return nil
				},
			},
			{ // import by collection/id
				ResourceName:      "rms_resource.test",
				ImportState:       true,
				ImportStateVerify: true,
				ImportStateIdFunc: func(s *terraform.State) (string, error) { return "campaigns/" + stateID("rms_resource.test")(s), nil },
			},
			{ // fields the server adds, at the top and nested, cause no diff
				PreConfig: func() {
					env.MustDo(t, "PUT", "campaigns/"+id, map[string]any{
						"serverAdded": "x",
						"rule":        map[string]any{"field": "status", "op": "ne", "values": []any{1, "two", map[string]any{"three": 3, "four": 4}}, "addedNested": true},
					}, nil)
				},
				Config: env.Config(genericConfig("campaigns", updated)),
				ConfigPlanChecks: resource.ConfigPlanChecks{
					PreApply: []plancheck.PlanCheck{plancheck.ExpectEmptyPlan()},
				},
				ConfigStateChecks: []statecheck.StateCheck{
					statecheck.ExpectKnownValue("rms_resource.test", tfjsonpath.New("output").AtMapKey("serverAdded"), knownvalue.StringExact("x")),
					statecheck.ExpectKnownValue("rms_resource.test", tfjsonpath.New("output").AtMapKey("rule").AtMapKey("addedNested"), knownvalue.Bool(true)),
				},
			},
			{ // a key the configuration wrote, changed out of band, is planned back
				PreConfig: func() {
					env.MustDo(t, "PUT", "campaigns/"+id, map[string]any{"name": "Renamed elsewhere"}, nil)
				},
				Config: env.Config(genericConfig("campaigns", updated)),
				ConfigPlanChecks: resource.ConfigPlanChecks{
					PreApply: []plancheck.PlanCheck{
						plancheck.ExpectResourceAction("rms_resource.test", plancheck.ResourceActionUpdate),
						plancheck.ExpectKnownValue("rms_resource.test", tfjsonpath.New("body").AtMapKey("name"), knownvalue.StringExact("Spring sale")),
					},
				},
				Check: func(s *terraform.State) error {
					raw := rawEntity(t, env, "campaigns/"+id)
					wantRaw(t, raw, "name", `"Spring sale"`)
					// The update sent the entity as last read: the server's own keys survive.
					wantRaw(t, raw, "serverAdded", `"x"`)
					wantRaw(t, raw, "rule", `{"addedNested":true,"field":"status","op":"ne","values":[1,"two",{"three":3}]}`)
					return nil
				},
			},
			{ // deleted out of band: planned for creation, no error
				PreConfig: func() { env.MustDo(t, "DELETE", "campaigns/"+id, nil, nil) },
				Config:    env.Config(genericConfig("campaigns", updated)),
				ConfigPlanChecks: resource.ConfigPlanChecks{
					PreApply: []plancheck.PlanCheck{plancheck.ExpectResourceAction("rms_resource.test", plancheck.ResourceActionCreate)},
				},
			},
			{ // changing the collection replaces the entity
				Config: env.Config(genericConfig("filters", updated)),
				ConfigPlanChecks: resource.ConfigPlanChecks{
					PreApply: []plancheck.PlanCheck{plancheck.ExpectResourceAction("rms_resource.test", plancheck.ResourceActionDestroyBeforeCreate)},
				},
				ConfigStateChecks: []statecheck.StateCheck{
					statecheck.ExpectKnownValue("rms_resource.test", tfjsonpath.New("collection"), knownvalue.StringExact("filters")),
				},
			},
		},
		CheckDestroy: func(s *terraform.State) error {
			for _, r := range s.RootModule().Resources {
				if r.Type != "rms_resource" {
					continue
				}
				coll := r.Primary.Attributes["collection"]
				if status := env.Do(t, "GET", coll+"/"+r.Primary.ID, nil, nil); status != 404 {
					t.Errorf("%s/%s still exists after destroy (GET answered %d)", coll, r.Primary.ID, status)
				}
			}
			return nil
		},
	})
}

// Create, update, import and drift in other collections, a nested one
// included.
func TestAccGenericResource_collections(t *testing.T) {
	acctest.SkipUnlessAcceptance(t)
	for _, tc := range []struct {
		name, collection string
	}{
		{"filters", "filters"},
		{"placeholders", "placeholders"},
		{"nested under a trigger", "triggers/${rms_resource.parent.id}/notes"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			env := acctest.NewEnv(t, emulator.Options{})
			config := func(value string) string {
				return env.Config(`
resource "rms_resource" "parent" {
  collection = "triggers"
  body       = { name = "parent" }
}

resource "rms_resource" "test" {
  collection = "` + tc.collection + `"
  body       = { label = "` + value + `", weight = 2.5, flags = { on = true } }
}
`)
			}
			var id, collection string
			resource.ParallelTest(t, resource.TestCase{
				ProtoV6ProviderFactories: acctest.ProviderFactories(),
				Steps: []resource.TestStep{
					{
						Config: config("first"),
						ConfigStateChecks: []statecheck.StateCheck{
							statecheck.ExpectKnownValue("rms_resource.test", tfjsonpath.New("output").AtMapKey("label"), knownvalue.StringExact("first")),
							statecheck.ExpectKnownValue("rms_resource.test", tfjsonpath.New("output").AtMapKey("weight"), knownvalue.Float64Exact(2.5)),
						},
						Check: func(s *terraform.State) error {
							r := s.RootModule().Resources["rms_resource.test"].Primary
							id, collection = r.ID, r.Attributes["collection"]
							wantRaw(t, rawEntity(t, env, collection+"/"+id), "flags", `{"on":true}`)
							return nil
						},
					},
					{
						Config: config("second"),
						ConfigPlanChecks: resource.ConfigPlanChecks{
							PreApply: []plancheck.PlanCheck{plancheck.ExpectResourceAction("rms_resource.test", plancheck.ResourceActionUpdate)},
						},
						Check: func(s *terraform.State) error {
							wantRaw(t, rawEntity(t, env, collection+"/"+id), "label", `"second"`)
							return nil
						},
					},
					{
						ResourceName:      "rms_resource.test",
						ImportState:       true,
						ImportStateVerify: true,
						ImportStateIdFunc: func(s *terraform.State) (string, error) {
							r := s.RootModule().Resources["rms_resource.test"].Primary
							return r.Attributes["collection"] + "/" + r.ID, nil
						},
					},
					{
						PreConfig: func() {
							env.MustDo(t, "PUT", collection+"/"+id, map[string]any{"flags": map[string]any{"on": false}}, nil)
						},
						Config: config("second"),
						ConfigPlanChecks: resource.ConfigPlanChecks{
							PreApply: []plancheck.PlanCheck{
								plancheck.ExpectResourceAction("rms_resource.test", plancheck.ResourceActionUpdate),
								plancheck.ExpectKnownValue("rms_resource.test", tfjsonpath.New("body").AtMapKey("flags").AtMapKey("on"), knownvalue.Bool(true)),
							},
						},
					},
				},
			})
		})
	}
}

// Reordered keys plan nothing, and lists, sets and maps the user wrote
// read back as the same Terraform types (no inconsistent result, no diff).
func TestAccGenericResource_keyOrderAndTypes(t *testing.T) {
	acctest.SkipUnlessAcceptance(t)
	env := acctest.NewEnv(t, emulator.Options{})
	resource.ParallelTest(t, resource.TestCase{
		ProtoV6ProviderFactories: acctest.ProviderFactories(),
		Steps: []resource.TestStep{
			{
				Config: env.Config(genericConfig("forms", `{
    a      = 1
    nested = { x = 1, y = [true, null] }
    list   = tolist(["p", "q"])
    set    = toset(["s"])
    map    = tomap({ k = "v" })
    tuple  = [1, "mixed"]
  }`)),
				ConfigStateChecks: []statecheck.StateCheck{
					statecheck.ExpectKnownValue("rms_resource.test", tfjsonpath.New("body").AtMapKey("list").AtSliceIndex(1), knownvalue.StringExact("q")),
					statecheck.ExpectKnownValue("rms_resource.test", tfjsonpath.New("body").AtMapKey("nested").AtMapKey("y").AtSliceIndex(1), knownvalue.Null()),
				},
			},
			{
				Config: env.Config(genericConfig("forms", `{
    tuple  = [1, "mixed"]
    map    = tomap({ k = "v" })
    set    = toset(["s"])
    list   = tolist(["p", "q"])
    nested = { y = [true, null], x = 1 }
    a      = 1
  }`)),
				ConfigPlanChecks: resource.ConfigPlanChecks{
					PreApply: []plancheck.PlanCheck{plancheck.ExpectEmptyPlan()},
				},
			},
		},
	})
}

// ignore_changes on one key of body is honoured, for a change in the
// configuration and for one made out of band.
func TestAccGenericResource_ignoreChanges(t *testing.T) {
	acctest.SkipUnlessAcceptance(t)
	env := acctest.NewEnv(t, emulator.Options{})
	config := func(subject string) string {
		return env.Config(`
resource "rms_resource" "test" {
  collection = "campaigns"
  body       = { name = "n", subject = "` + subject + `" }
  lifecycle {
    ignore_changes = [body.subject]
  }
}
`)
	}
	var id string
	resource.ParallelTest(t, resource.TestCase{
		ProtoV6ProviderFactories: acctest.ProviderFactories(),
		Steps: []resource.TestStep{
			{
				Config: config("first"),
				Check: func(s *terraform.State) error {
					id = stateID("rms_resource.test")(s)
					return nil
				},
			},
			{
				Config: config("changed in the configuration"),
				ConfigPlanChecks: resource.ConfigPlanChecks{
					PreApply: []plancheck.PlanCheck{plancheck.ExpectEmptyPlan()},
				},
			},
			{
				PreConfig: func() {
					env.MustDo(t, "PUT", "campaigns/"+id, map[string]any{"subject": "changed elsewhere"}, nil)
				},
				Config: config("first"),
				ConfigPlanChecks: resource.ConfigPlanChecks{
					PreApply: []plancheck.PlanCheck{plancheck.ExpectEmptyPlan()},
				},
				Check: func(s *terraform.State) error {
					wantRaw(t, rawEntity(t, env, "campaigns/"+id), "subject", `"changed elsewhere"`)
					return nil
				},
			},
		},
	})
}

// Each bad input a user can hit fails at plan time (or, for the service's
// refusals, at apply) with a diagnostic that says what to do.
func TestAccGenericResource_badInput(t *testing.T) {
	acctest.SkipUnlessAcceptance(t)
	env := acctest.NewEnv(t, emulator.Options{})
	retired := acctest.NewEnv(t, emulator.Options{Retired: map[string]string{
		"campaigns": "Campaigns were replaced by journeys on 2026-10-01",
	}})
	cases := map[string]struct {
		config string
		want   *regexp.Regexp
	}{
		"jsonencode string": {
			config: env.Config(genericConfig("campaigns", `jsonencode({ name = "x" })`)),
			want:   acctest.ExpectErrorParts("body must be an object, not a string", "Pass the object itself", "instead of jsonencode"),
		},
		"number body": {
			config: env.Config(genericConfig("campaigns", `42`)),
			want:   acctest.ExpectErrorParts("body must be an object", "got a value of type"),
		},
		"id in body": {
			config: env.Config(genericConfig("campaigns", `{ id = 5, name = "x" }`)),
			want:   acctest.ExpectErrorParts("Key set by the server", `body must not contain "id"`),
		},
		"dateModified in body": {
			config: env.Config(genericConfig("campaigns", `{ dateModified = "2026-01-01T00:00:00Z" }`)),
			want:   acctest.ExpectErrorParts("Key set by the server", `"dateModified"`),
		},
		"internal-only collection": {
			config: env.Config(genericConfig("systemusers", `{ name = "x" }`)),
			want:   acctest.ExpectErrorParts("Systemusers is an internal-only domain of the service", "cannot be managed"),
		},
		"internal-only collection in another case": {
			config: env.Config(genericConfig("Ping", `{ name = "x" }`)),
			want:   acctest.ExpectErrorParts("Ping is an internal-only domain"),
		},
		"unknown collection": {
			config: env.Config(genericConfig("gadgets", `{ name = "x" }`)),
			want:   acctest.ExpectErrorParts(`collection "gadgets" is not a public domain`, "Public domains: abandonedcart"),
		},
		"upper-case collection": {
			config: env.Config(genericConfig("Campaigns", `{ name = "x" }`)),
			want:   acctest.ExpectErrorParts(`must be written in lower case: "campaigns"`),
		},
		"collection ending with an id": {
			config: env.Config(genericConfig("campaigns/12", `{ name = "x" }`)),
			want:   acctest.ExpectErrorParts("ends with a parent id"),
		},
		"batches": {
			config: env.Config(genericConfig("batches", `{ name = "x" }`)),
			want:   acctest.ExpectErrorParts("does not follow the generic resource pattern", "rms_batch"),
		},
		"retired collection": {
			config: retired.Config(genericConfig("campaigns", `{ name = "x" }`)),
			want:   acctest.ExpectErrorParts("Collection retired by the service", `"campaigns"`, "Campaigns were replaced by journeys on 2026-10-01"),
		},
		"nested under a missing parent": {
			config: env.Config(genericConfig("campaigns/999999/notes", `{ name = "x" }`)),
			want:   acctest.ExpectErrorParts("Unable to create entity in campaigns/999999/notes", "404 NOT_FOUND"),
		},
	}
	for name, tc := range cases {
		t.Run(name, func(t *testing.T) {
			resource.ParallelTest(t, resource.TestCase{
				ProtoV6ProviderFactories: acctest.ProviderFactories(),
				Steps:                    []resource.TestStep{{Config: tc.config, ExpectError: tc.want}},
			})
		})
	}
}

func TestAccGenericResource_importBadID(t *testing.T) {
	acctest.SkipUnlessAcceptance(t)
	env := acctest.NewEnv(t, emulator.Options{})
	for name, tc := range map[string]struct {
		id   string
		want *regexp.Regexp
	}{
		"no collection":     {"42", acctest.ExpectErrorParts("Import an rms_resource as collection/id")},
		"trailing slash":    {"campaigns/", acctest.ExpectErrorParts("Import an rms_resource as collection/id")},
		"internal-only":     {"maintenance/3", acctest.ExpectErrorParts("Maintenance is an internal-only domain")},
		"missing entity":    {"campaigns/999999", acctest.ExpectErrorParts("Cannot import non-existent remote object")},
		"nested, bad shape": {"campaigns/1/2", acctest.ExpectErrorParts("ends with a parent id")},
	} {
		t.Run(name, func(t *testing.T) {
			resource.ParallelTest(t, resource.TestCase{
				ProtoV6ProviderFactories: acctest.ProviderFactories(),
				Steps: []resource.TestStep{{
					Config:        env.Config(genericConfig("campaigns", `{ name = "x" }`)),
					ResourceName:  "rms_resource.test",
					ImportState:   true,
					ImportStateId: tc.id,
					ExpectError:   tc.want,
				}},
			})
		})
	}
}
