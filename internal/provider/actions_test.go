package provider_test

import (
	"context"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
	"time"

	"github.com/hashicorp/terraform-plugin-testing/helper/resource"
	"github.com/hashicorp/terraform-plugin-testing/terraform"
	"github.com/hashicorp/terraform-plugin-testing/tfversion"

	"github.com/rms-labs/terraform-provider-rms/internal/acctest"
	"github.com/rms-labs/terraform-provider-rms/internal/emulator"
)

const routeCreateImport = "POST /rest/{customerid}/lists/{listId}/imports"

// actionsConfig declares the three actions against a list and a trigger;
// triggerID lets a test point the message at a trigger that does not exist.
func actionsConfig(triggerID string) string {
	return `
resource "rms_list" "target" {
  name                = "action target"
  deletion_protection = false
}

resource "rms_resource" "trigger" {
  collection = "triggers"
  body = {
    name    = "provisioning finished"
    channel = "EMAIL"
    subject = "Environment {{env}} is ready"
  }
}

action "rms_send_transactional_message" "notify" {
  config {
    trigger_id = ` + triggerID + `
    recipient  = { email = "ops@example.com" }
    properties = { env = "staging" }
  }
}

action "rms_run_list_import" "seed" {
  config {
    list_id         = rms_list.target.id
    type            = "ADD"
    content         = "email,firstname\nada@example.com,Ada\ngrace@example.com,Grace\n"
    identity_column = "email"
  }
}

action "rms_run_statistics_export" "opens" {
  config {
    export_type = "OPENS"
    period      = "LAST_WEEK"
  }
}
`
}

// operationCounts is what the emulator saw: messages sent, imports
// created, exports started.
type operationCounts struct{ messages, imports, exports int64 }

func countOperations(env *acctest.Env) operationCounts {
	byRoute := env.Emulator.Requests().ByRoute
	return operationCounts{
		messages: int64(len(env.Emulator.SentMessages())),
		imports:  byRoute[routeCreateImport],
		exports:  byRoute[routeStartExport],
	}
}

func checkOperations(env *acctest.Env, want operationCounts) resource.TestCheckFunc {
	return func(*terraform.State) error {
		if got := countOperations(env); got != want {
			return fmt.Errorf("the emulator saw %+v (messages, imports, exports), want %+v", got, want)
		}
		return nil
	}
}

// TestAccActionsActionTrigger runs each action from an action_trigger after
// a resource is created: each operation happens exactly once, and again
// only when the resource is created again.
func TestAccActionsActionTrigger(t *testing.T) {
	acctest.SkipUnlessAcceptance(t)
	env := acctest.NewEnv(t, emulator.Options{})
	trigger := func(run string) string {
		return actionsConfig("rms_resource.trigger.id") + `
resource "terraform_data" "pipeline" {
  triggers_replace = "` + run + `"
  lifecycle {
    action_trigger {
      events  = [after_create]
      actions = [
        action.rms_send_transactional_message.notify,
        action.rms_run_list_import.seed,
        action.rms_run_statistics_export.opens,
      ]
    }
  }
}
`
	}
	resource.ParallelTest(t, resource.TestCase{
		TerraformVersionChecks:   []tfversion.TerraformVersionCheck{acctest.SkipWithoutActions},
		ProtoV6ProviderFactories: acctest.ProviderFactories(),
		Steps: []resource.TestStep{
			{
				Config: env.Config(trigger("1")),
				Check: resource.ComposeTestCheckFunc(
					checkOperations(env, operationCounts{messages: 1, imports: 1, exports: 1}),
					func(s *terraform.State) error {
						listID := s.RootModule().Resources["rms_list.target"].Primary.ID
						var contacts []map[string]any
						env.MustDo(t, "GET", "lists/"+listID+"/contacts", nil, &contacts)
						if len(contacts) != 2 {
							return fmt.Errorf("list %s holds %d contacts after the import action, want 2", listID, len(contacts))
						}
						return nil
					},
				),
			},
			{ // nothing created: no action runs
				Config: env.Config(trigger("1")),
				Check:  checkOperations(env, operationCounts{messages: 1, imports: 1, exports: 1}),
			},
			{ // terraform_data replaced: each action runs once more
				Config: env.Config(trigger("2")),
				Check:  checkOperations(env, operationCounts{messages: 2, imports: 2, exports: 2}),
			},
		},
	})
}

// TestAccActionsActionTriggerFailure: an action that fails surfaces as an
// error naming the action; nothing is sent.
func TestAccActionsActionTriggerFailure(t *testing.T) {
	acctest.SkipUnlessAcceptance(t)
	env := acctest.NewEnv(t, emulator.Options{})
	resource.ParallelTest(t, resource.TestCase{
		TerraformVersionChecks:   []tfversion.TerraformVersionCheck{acctest.SkipWithoutActions},
		ProtoV6ProviderFactories: acctest.ProviderFactories(),
		Steps: []resource.TestStep{
			{
				Config: env.Config(actionsConfig(`"999999"`) + `
resource "terraform_data" "pipeline" {
  input = "1"
  lifecycle {
    action_trigger {
      events  = [after_create]
      actions = [action.rms_send_transactional_message.notify]
    }
  }
}
`),
				ExpectError: acctest.ExpectErrorParts("rms_send_transactional_message: Trigger not found", "999999"),
			},
		},
		CheckDestroy: checkOperations(env, operationCounts{}),
	})
}

// TestAccActionsInvokeCLI invokes each action directly with
// `terraform apply -invoke=...` on a provider binary under dev_overrides:
// each invocation runs its operation once, writes nothing to state, reports
// progress, and a failure names the action.
func TestAccActionsInvokeCLI(t *testing.T) {
	acctest.SkipUnlessAcceptance(t)
	tfPath := acctest.RequireCLI(t, "actions", "1.14.0", "").Path
	t.Parallel()
	env := acctest.NewEnv(t, emulator.Options{})
	work := t.TempDir()
	cliConfig, _ := acctest.DevOverrides(t, work)
	run := func(args ...string) (string, error) {
		ctx, cancel := context.WithTimeout(context.Background(), 5*time.Minute)
		defer cancel()
		cmd := exec.CommandContext(ctx, tfPath, args...)
		cmd.Dir = work
		cmd.Env = append(os.Environ(), "TF_CLI_CONFIG_FILE="+cliConfig, "CHECKPOINT_DISABLE=1", "TF_IN_AUTOMATION=1")
		out, err := cmd.CombinedOutput()
		return string(out), err
	}
	providerHeader := "terraform {\n  required_providers {\n    rms = { source = \"rms-labs/rms\" }\n  }\n}\n" + env.ProviderBlock()

	// The list and trigger the actions use, created by a normal apply.
	writeFile(t, filepath.Join(work, "main.tf"), providerHeader+actionsConfig("rms_resource.trigger.id")+`
action "rms_send_transactional_message" "broken" {
  config {
    trigger_id = "999999"
    recipient  = { email = "ops@example.com" }
  }
}
`)
	if out, err := run("apply", "-auto-approve", "-no-color"); err != nil {
		t.Fatalf("terraform apply: %v\n%s", err, out)
	}
	if got := countOperations(env); got != (operationCounts{}) {
		t.Fatalf("a plain apply ran actions: %+v", got)
	}
	stateBefore, err := os.ReadFile(filepath.Join(work, "terraform.tfstate"))
	if err != nil {
		t.Fatal(err)
	}

	want := operationCounts{}
	for _, tc := range []struct {
		action   string
		count    func(*operationCounts)
		progress *regexp.Regexp
	}{
		{"rms_send_transactional_message.notify", func(c *operationCounts) { c.messages++ }, regexp.MustCompile(`sent message [0-9]+ through trigger`)},
		{"rms_run_list_import.seed", func(c *operationCounts) { c.imports++ }, regexp.MustCompile(`batch [0-9]+ finished: 2 rows, 2 affected`)},
		{"rms_run_statistics_export.opens", func(c *operationCounts) { c.exports++ }, regexp.MustCompile(`batch [0-9]+ (IN_PROGRESS|PENDING|FINISHED), [0-9]+/[0-9]+ rows`)},
	} {
		for i := 0; i < 2; i++ { // twice: once per invocation
			out, err := run("apply", "-auto-approve", "-no-color", "-invoke=action."+tc.action)
			if err != nil {
				t.Fatalf("invoking %s: %v\n%s", tc.action, err, out)
			}
			tc.count(&want)
			if got := countOperations(env); got != want {
				t.Fatalf("after invocation %d of %s the emulator saw %+v, want %+v\n%s", i+1, tc.action, got, want, out)
			}
			if !tc.progress.MatchString(out) {
				t.Errorf("invoking %s: no progress message matching %s in:\n%s", tc.action, tc.progress, out)
			}
		}
	}

	out, err := run("apply", "-auto-approve", "-no-color", "-invoke=action.rms_send_transactional_message.broken")
	if err == nil {
		t.Fatalf("invoking the broken action succeeded:\n%s", out)
	}
	if !strings.Contains(out, "rms_send_transactional_message: Trigger not found") {
		t.Errorf("the failure does not name the action:\n%s", out)
	}
	if got := countOperations(env); got != want {
		t.Errorf("the failed invocation changed what the emulator saw: %+v, want %+v", got, want)
	}

	stateAfter, err := os.ReadFile(filepath.Join(work, "terraform.tfstate"))
	if err != nil {
		t.Fatal(err)
	}
	if resources(t, stateAfter) != resources(t, stateBefore) {
		t.Errorf("invoking actions changed the resources in state:\nbefore %s\nafter %s", stateBefore, stateAfter)
	}
}

// resources is the resources part of a state file, for comparing states
// whose serial differs.
func resources(t *testing.T, state []byte) string {
	t.Helper()
	i := strings.Index(string(state), `"resources"`)
	if i < 0 {
		t.Fatalf("no resources in state:\n%s", state)
	}
	return string(state[i:])
}

// TestAccActionsActThenDropIsAdopted: the import and export actions share
// the resources' read-back: every POST is carried out and its answer
// dropped, and the emulator still holds one import, uploaded once, and one
// export.
func TestAccActionsActThenDropIsAdopted(t *testing.T) {
	acctest.SkipUnlessAcceptance(t)
	env := acctest.NewEnv(t, emulator.Options{Faults: emulator.FaultOptions{ActThenDropRate: 1, Methods: []string{"POST"}}})
	resource.ParallelTest(t, resource.TestCase{
		TerraformVersionChecks:   []tfversion.TerraformVersionCheck{acctest.SkipWithoutActions},
		ProtoV6ProviderFactories: acctest.ProviderFactories(),
		Steps: []resource.TestStep{{
			Config: env.Config(`
resource "rms_list" "target" {
  name                = "action target"
  deletion_protection = false
}

action "rms_run_list_import" "seed" {
  config {
    list_id = rms_list.target.id
    type    = "ADD"
    content = "originalId,firstname\na,Ada\ng,Grace\n"
  }
}

action "rms_run_statistics_export" "lists" {
  config {
    export_type = "LISTS"
    period      = "TODAY"
  }
}

resource "terraform_data" "pipeline" {
  input = "1"
  lifecycle {
    action_trigger {
      events  = [after_create]
      actions = [action.rms_run_list_import.seed, action.rms_run_statistics_export.lists]
    }
  }
}
`),
			Check: func(s *terraform.State) error {
				listID := s.RootModule().Resources["rms_list.target"].Primary.ID
				imps := recordedImports(t, env, listID)
				if len(imps) != 1 || imps[0].BatchID == nil {
					return fmt.Errorf("list %s holds imports %+v, want one, uploaded", listID, imps)
				}
				if n, m := len(recordedBatches(t, env, "IMPORT")), len(recordedBatches(t, env, "STAT_EXPORT")); n != 1 || m != 1 {
					return fmt.Errorf("the emulator holds %d IMPORT and %d STAT_EXPORT batches, want 1 and 1", n, m)
				}
				if got := env.Emulator.Faults().ActThenDrop; got != 4 {
					return fmt.Errorf("%d POSTs acted then dropped, want 4 (list, import, upload, export)", got)
				}
				return nil
			},
		}},
	})
}
