package provider_test

import (
	"fmt"
	"os"
	"path/filepath"
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

// The scenarios of the wire suite (wire_test.go). Out-of-band calls go
// through acctest.Env.Do, which reads whatever shape the profile answers.

// wireEntitiesConfig manages one of each entity family, and reads them
// back through the data sources. ada's properties mix a name and an id
// key; bob leaves his statuses to the service.
const wireEntitiesConfig = `
resource "rms_project" "p" {
  name        = "Wire project"
  description = "answers of another shape"
}

resource "rms_list" "l" {
  name                = "Wire list"
  sender_email        = "news@example.com"
  deletion_protection = false
}

resource "rms_contact" "ada" {
  list_id       = rms_list.l.id
  original_id   = "ada"
  properties    = { email = "ada@example.com", "3" = "Ada" }
  email_status  = "SUBSCRIBED"
  mobile_status = "UNSUBSCRIBED"
}

resource "rms_contact" "bob" {
  list_id     = rms_list.l.id
  original_id = "bob"
  properties  = { email = "bob@example.com", lastname = "Builder" }
}

resource "rms_webhook" "w" {
  url         = "https://hooks.example.com/rms"
  events      = ["export.finished"]
  secret      = "wire-secret"
  description = "wire"
}

resource "rms_resource" "trigger" {
  collection = "triggers"
  body       = { name = "wire", channel = "EMAIL", subject = "Hello {{name}}" }
}

resource "rms_transactional_message" "m" {
  trigger_id = rms_resource.trigger.id
  recipient  = { email = "ops@example.com" }
  properties = { name = "Ops" }
}

data "rms_project" "p" {
  id = rms_project.p.id
}

data "rms_list" "l" {
  id = rms_list.l.id
}

data "rms_lists" "all" {
  depends_on = [rms_list.l]
}

data "rms_contact" "ada" {
  list_id     = rms_list.l.id
  original_id = "ada"
  depends_on  = [rms_contact.ada]
}

data "rms_contacts" "all" {
  list_id          = rms_list.l.id
  include_contacts = true
  depends_on       = [rms_contact.ada, rms_contact.bob]
}

data "rms_resource" "trigger" {
  collection = "triggers"
  id         = rms_resource.trigger.id
}
`

func wireEntitiesScenario(t *testing.T, opts emulator.Options) {
	env := acctest.NewEnv(t, opts)
	ids := map[string]string{}
	remember := func(s *terraform.State) error {
		for _, name := range []string{"rms_project.p", "rms_list.l", "rms_webhook.w", "rms_resource.trigger"} {
			r := s.RootModule().Resources[name]
			if r == nil || r.Primary.ID == "" {
				return fmt.Errorf("%s has no id in state", name)
			}
			ids[name] = r.Primary.ID
		}
		return nil
	}
	resource.ParallelTest(t, resource.TestCase{
		ProtoV6ProviderFactories: acctest.ProviderFactories(),
		Steps: []resource.TestStep{
			{ // apply; the framework then checks the plan is empty
				Config: env.Config(wireEntitiesConfig),
				ConfigStateChecks: []statecheck.StateCheck{
					statecheck.ExpectKnownValue("rms_project.p", tfjsonpath.New("id"), knownvalue.StringRegexp(regexp.MustCompile(`^[0-9]+$`))),
					statecheck.ExpectKnownValue("rms_project.p", tfjsonpath.New("name"), knownvalue.StringExact("Wire project")),
					statecheck.ExpectKnownValue("rms_project.p", tfjsonpath.New("date_created"), knownvalue.NotNull()),
					statecheck.ExpectKnownValue("rms_list.l", tfjsonpath.New("sender_email"), knownvalue.StringExact("news@example.com")),
					statecheck.ExpectKnownValue("rms_contact.ada", tfjsonpath.New("properties"), knownvalue.MapExact(map[string]knownvalue.Check{
						"email": knownvalue.StringExact("ada@example.com"), "3": knownvalue.StringExact("Ada"),
					})),
					statecheck.ExpectKnownValue("rms_contact.ada", tfjsonpath.New("email_status"), knownvalue.StringExact("SUBSCRIBED")),
					statecheck.ExpectKnownValue("rms_contact.ada", tfjsonpath.New("mobile_status"), knownvalue.StringExact("UNSUBSCRIBED")),
					statecheck.ExpectKnownValue("rms_webhook.w", tfjsonpath.New("has_secret"), knownvalue.Bool(true)),
					statecheck.ExpectKnownValue("rms_resource.trigger", tfjsonpath.New("output").AtMapKey("subject"), knownvalue.StringExact("Hello {{name}}")),
					// Data sources read by name, whatever the service keys by.
					statecheck.ExpectKnownValue("data.rms_contact.ada", tfjsonpath.New("properties").AtMapKey("firstname"), knownvalue.StringExact("Ada")),
					statecheck.ExpectKnownValue("data.rms_contacts.all", tfjsonpath.New("contact_count"), knownvalue.Int64Exact(2)),
					statecheck.ExpectKnownValue("data.rms_project.p", tfjsonpath.New("name"), knownvalue.StringExact("Wire project")),
					statecheck.ExpectKnownValue("data.rms_list.l", tfjsonpath.New("name"), knownvalue.StringExact("Wire list")),
					statecheck.ExpectKnownValue("data.rms_lists.all", tfjsonpath.New("lists"), knownvalue.ListSizeExact(1)),
				},
				Check: remember,
			},
			{ // drift: changed out of band, planned back in place
				PreConfig: func() {
					env.MustDo(t, "PUT", "projects/"+ids["rms_project.p"], map[string]any{"name": "Renamed elsewhere"}, nil)
					env.MustDo(t, "PUT", "lists/"+ids["rms_list.l"]+"/contacts/ada", map[string]any{"properties": map[string]any{"firstname": "Eve"}}, nil)
					env.MustDo(t, "PUT", "triggers/"+ids["rms_resource.trigger"], map[string]any{"subject": "Changed elsewhere"}, nil)
				},
				Config: env.Config(wireEntitiesConfig),
				ConfigPlanChecks: resource.ConfigPlanChecks{
					PreApply: []plancheck.PlanCheck{
						plancheck.ExpectResourceAction("rms_project.p", plancheck.ResourceActionUpdate),
						plancheck.ExpectResourceAction("rms_contact.ada", plancheck.ResourceActionUpdate),
						plancheck.ExpectResourceAction("rms_resource.trigger", plancheck.ResourceActionUpdate),
						plancheck.ExpectResourceAction("rms_list.l", plancheck.ResourceActionNoop),
						plancheck.ExpectResourceAction("rms_contact.bob", plancheck.ResourceActionNoop),
						plancheck.ExpectResourceAction("rms_webhook.w", plancheck.ResourceActionNoop),
					},
				},
				ConfigStateChecks: []statecheck.StateCheck{
					statecheck.ExpectKnownValue("rms_project.p", tfjsonpath.New("name"), knownvalue.StringExact("Wire project")),
					statecheck.ExpectKnownValue("rms_contact.ada", tfjsonpath.New("properties").AtMapKey("3"), knownvalue.StringExact("Ada")),
				},
			},
			{ // drift: deleted out of band, planned for creation
				PreConfig: func() {
					env.MustDo(t, "DELETE", "projects/"+ids["rms_project.p"], nil, nil)
				},
				Config: env.Config(wireEntitiesConfig),
				ConfigPlanChecks: resource.ConfigPlanChecks{
					PreApply: []plancheck.PlanCheck{plancheck.ExpectResourceAction("rms_project.p", plancheck.ResourceActionCreate)},
				},
				Check: remember,
			},
		},
		CheckDestroy: func(*terraform.State) error {
			return wireGone(t, env, "projects/"+ids["rms_project.p"], "lists/"+ids["rms_list.l"],
				"webhooks/"+ids["rms_webhook.w"], "triggers/"+ids["rms_resource.trigger"])
		},
	})
}

// wireGone checks that destroy left none of paths behind.
func wireGone(t *testing.T, env *acctest.Env, paths ...string) error {
	t.Helper()
	for _, p := range paths {
		if strings.HasSuffix(p, "/") {
			return fmt.Errorf("no id was recorded for %s", p)
		}
		if status := env.Do(t, "GET", p, nil, nil); status != 404 {
			return fmt.Errorf("%s still exists after destroy (GET answered %d)", p, status)
		}
	}
	return nil
}

func wireBatchesConfig(dir string) string {
	return fmt.Sprintf(`
resource "rms_list" "l" {
  name                = "Wire import list"
  deletion_protection = false
}

resource "rms_list_import" "i" {
  list_id   = rms_list.l.id
  type      = "ADD"
  delimiter = ";"
  content   = "originalId;email\nc-1;c1@example.com\nc-2;c2@example.com\n"
}

resource "rms_statistics_export" "e" {
  export_type = "LISTS"
  period      = "TODAY"
  output_path = %q
  depends_on  = [rms_list_import.i]
}

data "rms_batch" "i" {
  id = rms_list_import.i.batch_id
}
`, filepath.Join(dir, "lists.csv"))
}

func wireBatchesScenario(t *testing.T, opts emulator.Options) {
	env := acctest.NewEnv(t, opts)
	dir := t.TempDir()
	var listID string
	resource.ParallelTest(t, resource.TestCase{
		ProtoV6ProviderFactories: acctest.ProviderFactories(),
		Steps: []resource.TestStep{
			{
				Config: env.Config(wireBatchesConfig(dir)),
				ConfigStateChecks: []statecheck.StateCheck{
					statecheck.ExpectKnownValue("rms_list_import.i", tfjsonpath.New("status"), knownvalue.StringExact("FINISHED")),
					statecheck.ExpectKnownValue("rms_list_import.i", tfjsonpath.New("batch_id"), knownvalue.StringRegexp(regexp.MustCompile(`^[0-9]+$`))),
					statecheck.ExpectKnownValue("rms_statistics_export.e", tfjsonpath.New("status"), knownvalue.StringExact("FINISHED")),
					statecheck.ExpectKnownValue("data.rms_batch.i", tfjsonpath.New("status"), knownvalue.StringExact("FINISHED")),
				},
				Check: func(s *terraform.State) error {
					listID = s.RootModule().Resources["rms_list.l"].Primary.ID
					var contacts []map[string]any
					env.MustDo(t, "GET", "lists/"+listID+"/contacts", nil, &contacts)
					if len(contacts) != 2 {
						return fmt.Errorf("the import made %d contacts, want 2", len(contacts))
					}
					b, err := os.ReadFile(filepath.Join(dir, "lists.csv"))
					if err != nil {
						return fmt.Errorf("the export's file: %w", err)
					}
					if !strings.Contains(string(b), "Wire import list") {
						return fmt.Errorf("the export's file does not name the list:\n%s", b)
					}
					return nil
				},
			},
			{ // drift on the list; the batches stay as they are
				PreConfig: func() {
					env.MustDo(t, "PUT", "lists/"+listID, map[string]any{"name": "Renamed elsewhere"}, nil)
				},
				Config: env.Config(wireBatchesConfig(dir)),
				ConfigPlanChecks: resource.ConfigPlanChecks{
					PreApply: []plancheck.PlanCheck{
						plancheck.ExpectResourceAction("rms_list.l", plancheck.ResourceActionUpdate),
						plancheck.ExpectResourceAction("rms_list_import.i", plancheck.ResourceActionNoop),
						plancheck.ExpectResourceAction("rms_statistics_export.e", plancheck.ResourceActionNoop),
					},
				},
				Check: func(*terraform.State) error {
					var contacts []map[string]any
					env.MustDo(t, "GET", "lists/"+listID+"/contacts", nil, &contacts)
					if len(contacts) != 2 {
						return fmt.Errorf("the list has %d contacts after the second apply, want 2 (imported once)", len(contacts))
					}
					return nil
				},
			},
		},
		CheckDestroy: func(*terraform.State) error { return wireGone(t, env, "lists/"+listID) },
	})
}

// wireErrorsScenario: whatever the shape of an error answer, the
// diagnostic names the status, the call and what to do.
func wireErrorsScenario(t *testing.T, opts emulator.Options) {
	env := acctest.NewEnv(t, opts)
	resource.ParallelTest(t, resource.TestCase{
		ProtoV6ProviderFactories: acctest.ProviderFactories(),
		Steps: []resource.TestStep{
			{
				Config: env.Config(`
resource "rms_contact" "nowhere" {
  list_id     = "424242"
  original_id = "x"
}`),
				ExpectError: acctest.ExpectErrorParts("/lists/424242/contacts", "404", "Check list_id"),
			},
			{
				Config: env.Config(`
data "rms_project" "missing" {
  id = "424242"
}`),
				ExpectError: acctest.ExpectErrorParts("Project not found", `"424242"`, "Check the id"),
			},
			{ // a refusal: an attribute name of digits only
				Config: env.Config(`
resource "rms_resource" "bad" {
  collection = "properties"
  body       = { name = "123" }
}`),
				ExpectError: acctest.ExpectErrorParts("Unable to create entity in properties", "POST /rest/", "/properties", "400"),
			},
		},
	})
}

// wireContactExistsScenario: creating a contact whose originalId the list
// already has fails and names the import, whether the service refuses a
// second create (409 or 400) or would merge it (an upsert); the existing
// contact is left as it was.
func wireContactExistsScenario(t *testing.T, opts emulator.Options) {
	env := acctest.NewEnv(t, opts)
	const list = `
resource "rms_list" "l" {
  name                = "Wire conflict list"
  deletion_protection = false
}
`
	var listID string
	resource.ParallelTest(t, resource.TestCase{
		ProtoV6ProviderFactories: acctest.ProviderFactories(),
		Steps: []resource.TestStep{
			{
				Config: env.Config(list),
				Check: func(s *terraform.State) error {
					listID = s.RootModule().Resources["rms_list.l"].Primary.ID
					return nil
				},
			},
			{
				PreConfig: func() {
					env.MustDo(t, "POST", "lists/"+listID+"/contacts", map[string]any{
						"originalId": "taken", "properties": map[string]any{"firstname": "Original"},
					}, nil)
				},
				Config: env.Config(list + `
resource "rms_contact" "taken" {
  list_id     = rms_list.l.id
  original_id = "taken"
  properties  = { firstname = "Usurper" }
}`),
				ExpectError: acctest.ExpectErrorParts("Contact already exists", "terraform import"),
			},
			{
				Config: env.Config(list),
				Check: func(*terraform.State) error {
					var c struct {
						Properties map[string]any `json:"properties"`
					}
					env.MustDo(t, "GET", "lists/"+listID+"/contacts/taken", nil, &c)
					got := c.Properties["firstname"]
					if got == nil {
						got = c.Properties["3"] // a service that keys by id
					}
					if got != "Original" {
						return fmt.Errorf("the existing contact's firstname is %v, want Original (untouched)", got)
					}
					return nil
				},
			},
		},
	})
}

// wirePagingFixtures: more lists, and more contacts in one list, than the
// client's page size, so that reading them all takes several pages.
func wirePagingFixtures(n int) *emulator.Fixtures {
	f := &emulator.Fixtures{}
	for i := range n {
		f.Lists = append(f.Lists, emulator.FixtureList{Fields: map[string]any{"name": fmt.Sprintf("seeded %04d", i)}})
	}
	contacts := make([]emulator.Contact, n)
	for i := range contacts {
		contacts[i] = emulator.Contact{OriginalID: fmt.Sprintf("c-%04d", i), Properties: map[string]string{"email": fmt.Sprintf("c%d@example.com", i)}}
	}
	f.Lists[0].Contacts = contacts
	return f
}

// wirePagedCount is more than a page of the client (client.DefaultPageSize).
const wirePagedCount = 501

// wirePagingScenario: collections larger than a page are read whole, once
// each, whether the service pages or answers everything at once.
func wirePagingScenario(t *testing.T, opts emulator.Options) {
	opts.Fixtures = wirePagingFixtures(wirePagedCount)
	env := acctest.NewEnv(t, opts)
	resource.ParallelTest(t, resource.TestCase{
		ProtoV6ProviderFactories: acctest.ProviderFactories(),
		Steps: []resource.TestStep{
			{
				Config: env.Config(`
data "rms_lists" "all" {}

data "rms_contacts" "first" {
  list_id = data.rms_lists.all.lists[0].id
}

resource "rms_contact" "managed" {
  list_id     = data.rms_lists.all.lists[0].id
  original_id = "c-new"
  properties  = { email = "new@example.com", "4" = "Newman" }
}`),
				ConfigStateChecks: []statecheck.StateCheck{
					statecheck.ExpectKnownValue("data.rms_lists.all", tfjsonpath.New("lists"), knownvalue.ListSizeExact(wirePagedCount)),
					statecheck.ExpectKnownValue("data.rms_contacts.first", tfjsonpath.New("contact_count"), knownvalue.Int64Exact(wirePagedCount)),
				},
			},
		},
	})
}

// wirePagingRefusedScenario: a service that honours pageSize but ignores
// page cannot be read whole; the provider says so rather than use half.
func wirePagingRefusedScenario(t *testing.T, opts emulator.Options) {
	opts.Fixtures = wirePagingFixtures(wirePagedCount)
	env := acctest.NewEnv(t, opts)
	resource.ParallelTest(t, resource.TestCase{
		ProtoV6ProviderFactories: acctest.ProviderFactories(),
		Steps: []resource.TestStep{
			{
				Config:      env.Config(`data "rms_lists" "all" {}`),
				ExpectError: acctest.ExpectErrorParts("ignores the page parameter", "cannot be read"),
			},
		},
	})
}

// wireListContactsConfig: rms_list_contacts with a map input, properties
// by id and by name, one contact with statuses and one without.
const wireListContactsConfig = `
resource "rms_list" "l" {
  name                = "Wire members"
  deletion_protection = false
}

resource "rms_list_contacts" "c" {
  list_id = rms_list.l.id
  contacts = {
    ada = {
      properties    = { email = "ada@example.com", "3" = "Ada" }
      email_status  = "SUBSCRIBED"
      mobile_status = "UNSUBSCRIBED"
    }
    bob = {
      properties = { email = "bob@example.com", lastname = "Builder" }
    }
    cy = {
      properties = { "1" = "cy@example.com" }
    }
  }
}
`

// wireListContactsScenario: the contacts of a list as one resource read
// back without a diff whatever form the service answers in (properties by
// id, statuses absent, paging ignored, creates answered by id only, updates
// answered 204), and drift on a managed contact is planned back.
func wireListContactsScenario(t *testing.T, opts emulator.Options) {
	env := acctest.NewEnv(t, opts)
	var listID string
	resource.ParallelTest(t, resource.TestCase{
		ProtoV6ProviderFactories: acctest.ProviderFactories(),
		Steps: []resource.TestStep{
			{
				Config: env.Config(wireListContactsConfig),
				ConfigStateChecks: []statecheck.StateCheck{
					statecheck.ExpectKnownValue("rms_list_contacts.c", tfjsonpath.New("contacts").AtMapKey("ada").AtMapKey("properties"), knownvalue.MapExact(map[string]knownvalue.Check{
						"email": knownvalue.StringExact("ada@example.com"), "3": knownvalue.StringExact("Ada"),
					})),
					statecheck.ExpectKnownValue("rms_list_contacts.c", tfjsonpath.New("contacts").AtMapKey("ada").AtMapKey("mobile_status"), knownvalue.StringExact("UNSUBSCRIBED")),
					statecheck.ExpectKnownValue("rms_list_contacts.c", tfjsonpath.New("contact_count"), knownvalue.Int64Exact(3)),
				},
				Check: func(s *terraform.State) error {
					listID = s.RootModule().Resources["rms_list.l"].Primary.ID
					var contacts []map[string]any
					env.MustDo(t, "GET", "lists/"+listID+"/contacts", nil, &contacts)
					if len(contacts) != 3 {
						return fmt.Errorf("the list holds %d contacts, want 3", len(contacts))
					}
					return nil
				},
			},
			{ // drift on a managed contact is planned back in place
				PreConfig: func() {
					env.MustDo(t, "PUT", "lists/"+listID+"/contacts/ada", map[string]any{"properties": map[string]any{"firstname": "Eve"}}, nil)
				},
				Config: env.Config(wireListContactsConfig),
				ConfigPlanChecks: resource.ConfigPlanChecks{PreApply: []plancheck.PlanCheck{
					plancheck.ExpectResourceAction("rms_list_contacts.c", plancheck.ResourceActionUpdate),
					plancheck.ExpectResourceAction("rms_list.l", plancheck.ResourceActionNoop),
				}},
				ConfigStateChecks: []statecheck.StateCheck{
					statecheck.ExpectKnownValue("rms_list_contacts.c", tfjsonpath.New("contacts").AtMapKey("ada").AtMapKey("properties").AtMapKey("3"), knownvalue.StringExact("Ada")),
				},
			},
		},
		CheckDestroy: func(*terraform.State) error { return wireGone(t, env, "lists/"+listID) },
	})
}
