package provider_test

import (
	"bytes"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/hashicorp/terraform-plugin-testing/config"
	"github.com/hashicorp/terraform-plugin-testing/helper/resource"
	"github.com/hashicorp/terraform-plugin-testing/knownvalue"
	"github.com/hashicorp/terraform-plugin-testing/plancheck"
	"github.com/hashicorp/terraform-plugin-testing/statecheck"
	"github.com/hashicorp/terraform-plugin-testing/terraform"
	"github.com/hashicorp/terraform-plugin-testing/tfjsonpath"

	"github.com/rms-labs/terraform-provider-rms/internal/acctest"
	"github.com/rms-labs/terraform-provider-rms/internal/emulator"
)

// A user's CI applies against rms-emulator -data-dir, restarts the emulator
// (a new process, a new port), and plans: nothing has changed. The config
// covers every kind of state the emulator keeps: generic entities (nested
// too), lists, contacts with their statuses and properties, webhooks with a
// secret, triggers and a sent message, and an entity preloaded by fixtures.
func TestAccEmulatorRestartFromDataDirPlansNoChanges(t *testing.T) {
	acctest.SkipUnlessAcceptance(t)
	env := acctest.NewEnv(t, emulator.Options{
		DataDir: t.TempDir(),
		Fixtures: &emulator.Fixtures{
			Properties: []map[string]any{{"name": "plan"}},
			Lists:      []emulator.FixtureList{{Fields: map[string]any{"id": 500, "name": "Preloaded"}}},
		},
	})
	cfg := env.ProviderBlockFromVariable() + `
resource "rms_project" "p" {
  name        = "Restart"
  description = "kept across restarts"
}

resource "rms_list" "l" {
  name                = "Subscribers"
  sender_email        = "news@example.com"
  deletion_protection = false
}

resource "rms_contact" "ada" {
  list_id     = rms_list.l.id
  original_id = "customer/1815"
  properties = {
    email = "ada@example.com"
    plan  = "pro"
    "3"   = "Ada"
  }
  email_status  = "SUBSCRIBED"
  mobile_status = "UNSUBSCRIBED"
}

resource "rms_contact" "in_preloaded" {
  list_id     = data.rms_list.preloaded.id
  original_id = "c-2"
  properties  = { email = "grace@example.com" }
}

data "rms_list" "preloaded" {
  name = "Preloaded"
}

resource "rms_webhook" "w" {
  url    = "https://hooks.example.com/rms"
  events = ["contact.created", "message.sent"]
  secret = "s3cret"
}

resource "rms_resource" "campaign" {
  collection = "campaigns"
  body = {
    name   = "Spring sale"
    budget = 2500.5
    tags   = ["a", "b"]
  }
}

resource "rms_resource" "note" {
  collection = "campaigns/${rms_resource.campaign.id}/notes"
  body       = { text = "nested" }
}

resource "rms_resource" "trigger" {
  collection = "triggers"
  body       = { name = "Welcome", channel = "EMAIL" }
}

resource "rms_transactional_message" "welcome" {
  trigger_id = rms_resource.trigger.id
  recipient  = { email = "ada@example.com" }
}
`
	vars := config.Variables{"base_url": env.URLVariable()}
	var firstURL string
	resource.ParallelTest(t, resource.TestCase{
		ProtoV6ProviderFactories: acctest.ProviderFactories(),
		Steps: []resource.TestStep{
			{
				Config:          cfg,
				ConfigVariables: vars,
				ConfigStateChecks: []statecheck.StateCheck{
					statecheck.ExpectKnownValue("rms_contact.ada", tfjsonpath.New("mobile_status"), knownvalue.StringExact("UNSUBSCRIBED")),
					statecheck.ExpectKnownValue("rms_contact.in_preloaded", tfjsonpath.New("list_id"), knownvalue.StringExact("500")),
					statecheck.ExpectKnownValue("rms_webhook.w", tfjsonpath.New("has_secret"), knownvalue.Bool(true)),
				},
			},
			{
				// A new emulator on the same data directory, at a new URL.
				PreConfig: func() {
					firstURL = env.URL
					env.Restart(t)
					if env.URL == firstURL {
						t.Fatalf("the restarted emulator has the old URL %s", firstURL)
					}
				},
				Config:          cfg,
				ConfigVariables: vars,
				PlanOnly:        true,
				// The plan with refresh reads every object back from the
				// new emulator: it is empty only if all of them came back
				// as they were.
				ConfigPlanChecks: resource.ConfigPlanChecks{
					PostApplyPostRefresh: []plancheck.PlanCheck{plancheck.ExpectEmptyPlan()},
				},
			},
			{
				// The restored account is live: a change applies and reads
				// back from the new emulator.
				Config:          replaceOnce(t, cfg, `description = "kept across restarts"`, `description = "changed after the restart"`),
				ConfigVariables: vars,
				ConfigPlanChecks: resource.ConfigPlanChecks{
					PreApply: []plancheck.PlanCheck{plancheck.ExpectResourceAction("rms_project.p", plancheck.ResourceActionUpdate)},
				},
				ConfigStateChecks: []statecheck.StateCheck{
					statecheck.ExpectKnownValue("rms_project.p", tfjsonpath.New("description"), knownvalue.StringExact("changed after the restart")),
				},
			},
		},
	})
}

// replaceOnce replaces old, which must occur exactly once, with new.
func replaceOnce(t *testing.T, s, old, new string) string {
	t.Helper()
	if n := strings.Count(s, old); n != 1 {
		t.Fatalf("%q occurs %d times in the config, want once", old, n)
	}
	return strings.Replace(s, old, new, 1)
}

// An import and a statistics export in a user's state survive a restart of
// rms-emulator -data-dir: their batches read back as they were, so the plan
// is empty (before, they read as 404, left the state and were planned
// again). The export's file is served again after the restart: removed
// locally, it downloads with the same bytes.
func TestAccEmulatorRestartKeepsImportsAndExports(t *testing.T) {
	acctest.SkipUnlessAcceptance(t)
	env := acctest.NewEnv(t, emulator.Options{DataDir: t.TempDir(), StatisticsExportExtraRows: 2})
	out := filepath.Join(t.TempDir(), "lists.csv")
	cfg := env.ProviderBlockFromVariable() + fmt.Sprintf(`
resource "rms_list" "l" {
  name                = "Imported"
  deletion_protection = false
}

resource "rms_list_import" "i" {
  list_id         = rms_list.l.id
  type            = "ADD"
  identity_column = "email"
  content         = <<-CSV
    email,firstname
    ada@example.com,Ada
    grace@example.com,Grace
  CSV
}

resource "rms_statistics_export" "e" {
  export_type = "LISTS"
  period      = "TODAY"
  output_path = %q

  depends_on = [rms_list_import.i]
}
`, out)
	vars := config.Variables{"base_url": env.URLVariable()}
	var fileBefore []byte
	resource.ParallelTest(t, resource.TestCase{
		ProtoV6ProviderFactories: acctest.ProviderFactories(),
		Steps: []resource.TestStep{
			{
				Config:          cfg,
				ConfigVariables: vars,
				ConfigStateChecks: []statecheck.StateCheck{
					statecheck.ExpectKnownValue("rms_list_import.i", tfjsonpath.New("affected"), knownvalue.Int64Exact(2)),
					statecheck.ExpectKnownValue("rms_statistics_export.e", tfjsonpath.New("total"), knownvalue.Int64Exact(3)),
				},
				Check: func(*terraform.State) error {
					var err error
					fileBefore, err = os.ReadFile(out)
					if err == nil && !strings.Contains(string(fileBefore), ",Imported,2,0,") {
						err = fmt.Errorf("the export file does not count the imported contacts:\n%s", fileBefore)
					}
					return err
				},
			},
			{
				PreConfig:       func() { env.Restart(t) },
				Config:          cfg,
				ConfigVariables: vars,
				PlanOnly:        true,
				// With refresh: both batches are read back from the new
				// emulator.
				ConfigPlanChecks: resource.ConfigPlanChecks{
					PostApplyPostRefresh: []plancheck.PlanCheck{plancheck.ExpectEmptyPlan()},
				},
			},
			{
				// The export's result is served by the restored emulator.
				PreConfig: func() {
					if err := os.Remove(out); err != nil {
						t.Fatal(err)
					}
				},
				Config:          cfg,
				ConfigVariables: vars,
				ConfigPlanChecks: resource.ConfigPlanChecks{
					PreApply: []plancheck.PlanCheck{
						plancheck.ExpectResourceAction("rms_statistics_export.e", plancheck.ResourceActionUpdate),
						plancheck.ExpectResourceAction("rms_list_import.i", plancheck.ResourceActionNoop),
					},
				},
				Check: func(*terraform.State) error {
					got, err := os.ReadFile(out)
					if err == nil && !bytes.Equal(got, fileBefore) {
						err = fmt.Errorf("the file downloaded after the restart:\n%s\ndiffers from the first:\n%s", got, fileBefore)
					}
					return err
				},
			},
		},
	})
}
