package provider_test

import (
	"fmt"
	"regexp"
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

// Never orphan, whatever the answer: a write the service carried
// out (2xx) whose answer cannot be read still leaves what it made in state.
// The garbler (acctest.Garbler) lets the real emulator act and then spoils
// its answer, and the follow-up GET that would read the object back.

// orphanEntityCase is one managed entity resource: its configuration, the
// create and read-back paths the garbler spoils, and how to count what the
// emulator holds of it.
type orphanEntityCase struct {
	name   string
	config string
	addr   string
	// create and readBack match the URL paths of the create's POST and of
	// the GET of the object it made.
	create, readBack string
	garble           acctest.Garble
	// summary and recorded are what the error must say: the failed
	// operation, and the id recorded in state ("" when the emulator picks
	// it).
	summary, recorded string
	// ids lists the ids of the objects of this kind the emulator holds.
	ids func(t *testing.T, env *acctest.Env) []string
}

// idsAt lists the ids of the JSON objects a GET of path answers.
func idsAt(path string) func(t *testing.T, env *acctest.Env) []string {
	return func(t *testing.T, env *acctest.Env) []string {
		var all []map[string]any
		env.MustDo(t, "GET", path, nil, &all)
		ids := make([]string, 0, len(all))
		for _, o := range all {
			ids = append(ids, fmt.Sprint(o["id"]))
		}
		return ids
	}
}

// contactIDs lists "list_id/original_id" of every contact of every list.
func contactIDs(t *testing.T, env *acctest.Env) []string {
	var ids []string
	for _, list := range idsAt("lists")(t, env) {
		var all []map[string]any
		env.MustDo(t, "GET", "lists/"+list+"/contacts", nil, &all)
		for _, c := range all {
			ids = append(ids, list+"/"+fmt.Sprint(c["originalId"]))
		}
	}
	return ids
}

func TestAccOrphans_entityCreateAnswerUnreadable(t *testing.T) {
	acctest.SkipUnlessAcceptance(t)
	for _, tc := range []orphanEntityCase{
		{
			name:   "project",
			config: `resource "rms_project" "test" { name = "Garbled" }`,
			addr:   "rms_project.test", create: `^/rest/\d+/projects$`, readBack: `^/rest/\d+/projects/\d+$`,
			garble: acctest.GarbleTruncate, summary: "Unable to create project", ids: idsAt("projects"),
		},
		{
			name:   "list",
			config: `resource "rms_list" "test" { name = "Garbled" }`,
			addr:   "rms_list.test", create: `^/rest/\d+/lists$`, readBack: `^/rest/\d+/lists/\d+$`,
			garble: acctest.GarbleHTML, summary: "Unable to create list", ids: idsAt("lists"),
		},
		{
			name: "webhook",
			config: `resource "rms_webhook" "test" {
  url    = "https://hooks.example.com/rms"
  events = ["message.sent"]
}`,
			addr: "rms_webhook.test", create: `^/rest/\d+/webhooks$`, readBack: `^/rest/\d+/webhooks/\d+$`,
			garble: acctest.GarbleTruncate, summary: "Unable to create webhook", ids: idsAt("webhooks"),
		},
		{
			name: "resource",
			config: `resource "rms_resource" "test" {
  collection = "placeholders"
  body       = { label = "garbled", weight = 2 }
}`,
			addr: "rms_resource.test", create: `^/rest/\d+/placeholders$`, readBack: `^/rest/\d+/placeholders/\d+$`,
			garble: acctest.GarbleHTML, summary: "Unable to create entity in placeholders", ids: idsAt("placeholders"),
		},
		{
			name: "contact",
			config: `resource "rms_list" "test" {
  name                = "Contacts"
  deletion_protection = false
}

resource "rms_contact" "test" {
  list_id     = rms_list.test.id
  original_id = "customer-1"
}`,
			addr: "rms_contact.test", create: `^/rest/\d+/lists/\d+/contacts$`, readBack: `^/rest/\d+/lists/\d+/contacts/customer-1$`,
			garble: acctest.GarbleTruncate, summary: "Unable to create contact", recorded: "customer-1", ids: contactIDs,
		},
	} {
		t.Run(tc.name, func(t *testing.T) {
			env := acctest.NewEnv(t, emulator.Options{})
			g := acctest.NewGarbler(t, env)
			create := g.Arm(acctest.Rule{Method: "POST", Path: regexp.MustCompile(tc.create), Times: 1, Garble: tc.garble})
			readBack := g.Arm(acctest.Rule{Method: "GET", Path: regexp.MustCompile(tc.readBack), Times: 1, Garble: tc.garble})
			recorded := tc.recorded
			if recorded == "" {
				recorded = `\d+`
			}
			var made []string // what the garbled create made
			resource.ParallelTest(t, resource.TestCase{
				ProtoV6ProviderFactories: acctest.ProviderFactories(),
				CheckDestroy: func(*terraform.State) error {
					if left := tc.ids(t, env); len(left) != 0 {
						return fmt.Errorf("after destroy the emulator still holds %v", left)
					}
					return nil
				},
				Steps: []resource.TestStep{
					{
						// The create acts, its answer and the read-back are
						// unreadable: the error names the object recorded.
						Config: g.Env.Config(tc.config),
						ExpectError: regexp.MustCompile(`(?s)` + regexp.QuoteMeta(tc.summary) + `.*could not be read.*recorded\s+object\s+` + recorded +
							`\s+in\s+state.*saved\s+as\s+tainted.*next\s+apply\s+replaces\s+it`),
					},
					{
						// Garbling is spent. The object is in state, tainted:
						// the plan replaces it rather than create a second.
						PreConfig: func() {
							if c, r := g.Fired(create), g.Fired(readBack); c != 1 || r != 1 {
								t.Fatalf("garbled %d creates and %d read-backs, want 1 and 1", c, r)
							}
							made = tc.ids(t, env)
							if len(made) != 1 {
								t.Fatalf("after the garbled create the emulator holds %v, want exactly one object", made)
							}
						},
						Config: g.Env.Config(tc.config),
						ConfigPlanChecks: resource.ConfigPlanChecks{
							PreApply:             []plancheck.PlanCheck{plancheck.ExpectResourceAction(tc.addr, plancheck.ResourceActionReplace)},
							PostApplyPostRefresh: []plancheck.PlanCheck{plancheck.ExpectEmptyPlan()},
						},
						Check: func(s *terraform.State) error {
							// Exactly the object in state exists: the
							// replacement destroyed the recorded one.
							now := tc.ids(t, env)
							inState := s.RootModule().Resources[tc.addr].Primary.ID
							if len(now) != 1 || now[0] != inState {
								return fmt.Errorf("the emulator holds %v, state %s: want exactly the object in state", now, inState)
							}
							return nil
						},
					},
				},
			})
		})
	}
}

// An upload whose answer names no batch, where the service has no listing
// of imports to find it by: a warning, the import kept in state untainted,
// and no second upload, then or on the next plan.
func TestAccOrphans_listImportUploadNamesNoBatchWithoutListings(t *testing.T) {
	acctest.SkipUnlessAcceptance(t)
	env := acctest.NewEnv(t, emulator.Options{Wire: emulator.MustParseWire("no-listings")})
	g := acctest.NewGarbler(t, env)
	upload := g.Arm(acctest.Rule{Method: "POST", Path: regexp.MustCompile(`^/rest/\d+/lists/\d+/recipients/\d+$`), Times: 1,
		Garble: acctest.GarbleTruncate, StripLocation: true})
	const uploadRoute = "POST /rest/{customerid}/lists/{listId}/recipients/{id}"
	uploads := func() int64 { return env.Emulator.Requests().ByRoute[uploadRoute] }
	config := g.Env.Config(`
resource "rms_list" "test" {
  name                = "Imported"
  deletion_protection = false
}

resource "rms_list_import" "test" {
  list_id   = rms_list.test.id
  type      = "ADD"
  delimiter = ","
  encoding  = "UTF8"
  content   = "originalId,email\na,a@example.com\nb,b@example.com\n"
}
`)
	addr := "rms_list_import.test"
	resource.ParallelTest(t, resource.TestCase{
		ProtoV6ProviderFactories: acctest.ProviderFactories(),
		CheckDestroy: func(*terraform.State) error {
			if left := idsAt("lists")(t, env); len(left) != 0 {
				return fmt.Errorf("after destroy the emulator still holds lists %v", left)
			}
			return nil
		},
		Steps: []resource.TestStep{
			{
				// Applies with a warning only: no error, so not tainted, and
				// the plan after it is empty (nothing to upload again).
				Config: config,
				ConfigStateChecks: []statecheck.StateCheck{
					statecheck.ExpectKnownValue(addr, tfjsonpath.New("import_id"), knownvalue.NotNull()),
					statecheck.ExpectKnownValue(addr, tfjsonpath.New("batch_id"), knownvalue.Null()),
				},
				Check: func(*terraform.State) error {
					if n := g.Fired(upload); n != 1 {
						return fmt.Errorf("garbled %d uploads, want 1", n)
					}
					if n := uploads(); n != 1 {
						return fmt.Errorf("%d uploads reached the emulator, want 1", n)
					}
					return nil
				},
			},
			{
				Config: config,
				ConfigPlanChecks: resource.ConfigPlanChecks{
					PreApply: []plancheck.PlanCheck{plancheck.ExpectResourceAction(addr, plancheck.ResourceActionNoop)},
				},
				Check: func(*terraform.State) error {
					if n := uploads(); n != 1 {
						return fmt.Errorf("%d uploads reached the emulator after the second apply, want still 1", n)
					}
					return nil
				},
			},
		},
	})
}

// statExportBatches lists the ids of the account's STAT_EXPORT batches
// (through the batches listing: call it only where the wire has one).
func statExportBatches(t *testing.T, env *acctest.Env) []string {
	var all []map[string]any
	env.MustDo(t, "GET", "batches", nil, &all)
	var ids []string
	for _, b := range all {
		if b["type"] == "STAT_EXPORT" {
			ids = append(ids, fmt.Sprint(b["id"]))
		}
	}
	return ids
}

const orphanExportConfig = `
resource "rms_statistics_export" "test" {
  export_type = "LISTS"
  period      = "LAST_WEEK"
}
`

// A start answered with success but no batch (no batchId, no Location),
// with the batches listing present: the export is adopted by read-back,
// never started twice.
func TestAccOrphans_statisticsExportStartNamesNoBatchIsAdopted(t *testing.T) {
	acctest.SkipUnlessAcceptance(t)
	env := acctest.NewEnv(t, emulator.Options{})
	g := acctest.NewGarbler(t, env)
	start := g.Arm(acctest.Rule{Method: "POST", Path: regexp.MustCompile(`^/rest/\d+/batches/exports/statistics$`), Times: 1,
		Garble: acctest.GarbleTruncate, StripLocation: true})
	addr := "rms_statistics_export.test"
	resource.ParallelTest(t, resource.TestCase{
		ProtoV6ProviderFactories: acctest.ProviderFactories(),
		Steps: []resource.TestStep{
			{
				Config: g.Env.Config(orphanExportConfig),
				Check: func(s *terraform.State) error {
					if n := g.Fired(start); n != 1 {
						return fmt.Errorf("garbled %d starts, want 1", n)
					}
					if n := exportStarts(env); n != 1 {
						return fmt.Errorf("the emulator accepted %d exports, want 1", n)
					}
					all := statExportBatches(t, env)
					if len(all) != 1 {
						return fmt.Errorf("the emulator holds STAT_EXPORT batches %v, want exactly one", all)
					}
					if got := s.RootModule().Resources[addr].Primary.Attributes["batch_id"]; got != all[0] {
						return fmt.Errorf("state holds batch %q, the emulator %s", got, all[0])
					}
					return nil
				},
			},
			{
				Config: g.Env.Config(orphanExportConfig),
				ConfigPlanChecks: resource.ConfigPlanChecks{
					PreApply: []plancheck.PlanCheck{plancheck.ExpectEmptyPlan()},
				},
			},
		},
	})
}

// The same start where the service has no batches listing: the export may
// exist and cannot be found, so one error says so and how to import it;
// nothing is in state and nothing was started twice.
func TestAccOrphans_statisticsExportStartNamesNoBatchWithoutListings(t *testing.T) {
	acctest.SkipUnlessAcceptance(t)
	env := acctest.NewEnv(t, emulator.Options{Wire: emulator.MustParseWire("no-listings")})
	g := acctest.NewGarbler(t, env)
	g.Arm(acctest.Rule{Method: "POST", Path: regexp.MustCompile(`^/rest/\d+/batches/exports/statistics$`), Times: 1,
		Garble: acctest.GarbleHTML, StripLocation: true})
	resource.ParallelTest(t, resource.TestCase{
		ProtoV6ProviderFactories: acctest.ProviderFactories(),
		Steps: []resource.TestStep{
			{
				Config: g.Env.Config(orphanExportConfig),
				ExpectError: acctest.ExpectErrorParts("Statistics export started, its batch unknown",
					"LISTS export for LAST_WEEK", "named no batch", "not started again",
					"terraform import rms_statistics_export.<name> <batch_id>/LISTS/LAST_WEEK"),
			},
			{
				// Nothing in state, and nothing started twice.
				PreConfig: func() {
					if n := exportStarts(env); n != 1 {
						t.Fatalf("the emulator accepted %d exports, want exactly the one started", n)
					}
				},
				RefreshState:       true,
				ExpectNonEmptyPlan: true, // the config's export is not in state
				Check: func(s *terraform.State) error {
					if r, ok := s.RootModule().Resources["rms_statistics_export.test"]; ok {
						return fmt.Errorf("state holds the export %s, want nothing", r.Primary.ID)
					}
					return nil
				},
			},
		},
	})
}

// A sent message whose answer is unreadable is saved, and never sent again.
func TestAccOrphans_transactionalMessageAnswerUnreadable(t *testing.T) {
	acctest.SkipUnlessAcceptance(t)
	env := acctest.NewEnv(t, emulator.Options{})
	g := acctest.NewGarbler(t, env)
	send := g.Arm(acctest.Rule{Method: "POST", Path: regexp.MustCompile(`^/rest/\d+/triggers/\d+/messages$`), Times: 1,
		Garble: acctest.GarbleHTML, StripLocation: true})
	config := g.Env.Config(`
resource "rms_resource" "trigger" {
  collection = "triggers"
  body       = { name = "welcome", channel = "EMAIL", subject = "Hello" }
}

resource "rms_transactional_message" "test" {
  trigger_id = rms_resource.trigger.id
  recipient  = { email = "ops@example.com" }
}
`)
	addr := "rms_transactional_message.test"
	sent := func() int { return len(env.Emulator.SentMessages()) }
	resource.ParallelTest(t, resource.TestCase{
		ProtoV6ProviderFactories: acctest.ProviderFactories(),
		Steps: []resource.TestStep{
			{
				Config: config,
				ConfigStateChecks: []statecheck.StateCheck{
					statecheck.ExpectKnownValue(addr, tfjsonpath.New("trigger_id"), knownvalue.NotNull()),
				},
				Check: func(*terraform.State) error {
					if n := g.Fired(send); n != 1 {
						return fmt.Errorf("garbled %d sends, want 1", n)
					}
					if n := sent(); n != 1 {
						return fmt.Errorf("the emulator sent %d messages, want 1", n)
					}
					return nil
				},
			},
			{
				Config: config,
				ConfigPlanChecks: resource.ConfigPlanChecks{
					PreApply: []plancheck.PlanCheck{plancheck.ExpectEmptyPlan()},
				},
				Check: func(*terraform.State) error {
					if n := sent(); n != 1 {
						return fmt.Errorf("the emulator sent %d messages after the second apply, want still 1", n)
					}
					return nil
				},
			},
		},
	})
}
