package provider_test

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/hashicorp/terraform-plugin-testing/helper/resource"
	"github.com/hashicorp/terraform-plugin-testing/plancheck"
	"github.com/hashicorp/terraform-plugin-testing/terraform"
	"github.com/hashicorp/terraform-plugin-testing/tfversion"

	"github.com/rms-labs/terraform-provider-rms/internal/acctest"
	"github.com/rms-labs/terraform-provider-rms/internal/emulator"
)

// The lifecycle events Terraform 1.16 added to action_trigger
// (before_destroy, after_destroy) and its on_failure modes, with the
// provider's actions. Below 1.16 these configurations do not parse, so
// the tests skip by version (acctest.SkipWithoutDestroyActions).

// TestAccActionsDestroyEvents is the guide's recipe: a statistics export
// of the lists written to a file before a list is destroyed, and another
// after; the first holds the list, the second no longer does, and neither
// runs before the destroy.
func TestAccActionsDestroyEvents(t *testing.T) {
	acctest.SkipUnlessAcceptance(t)
	env := acctest.NewEnv(t, emulator.Options{})
	dir := t.TempDir()
	before, after := filepath.Join(dir, "exports", "before.csv"), filepath.Join(dir, "exports", "after.csv")
	config := env.Config(fmt.Sprintf(`
resource "rms_list" "newsletter" {
  name = "Spring newsletter"
  lifecycle {
    action_trigger {
      events  = [before_destroy]
      actions = [action.rms_run_statistics_export.final]
    }
    action_trigger {
      events  = [after_destroy]
      actions = [action.rms_run_statistics_export.gone]
    }
  }
}

action "rms_run_statistics_export" "final" {
  config {
    export_type = "LISTS"
    period      = "LAST_2_WEEKS"
    output_path = %q
  }
}

action "rms_run_statistics_export" "gone" {
  config {
    export_type = "LISTS"
    period      = "TODAY"
    output_path = %q
  }
}
`, before, after))
	resource.ParallelTest(t, resource.TestCase{
		TerraformVersionChecks:   []tfversion.TerraformVersionCheck{acctest.SkipWithoutDestroyActions},
		ProtoV6ProviderFactories: acctest.ProviderFactories(),
		Steps: []resource.TestStep{{
			Config: config,
			Check: func(*terraform.State) error {
				if n := env.Emulator.Requests().ByRoute[routeStartExport]; n != 0 {
					return fmt.Errorf("%d exports started by creating the list, want none", n)
				}
				if _, err := os.Stat(before); !errors.Is(err, os.ErrNotExist) {
					return fmt.Errorf("the export file exists before the destroy (stat: %w)", err)
				}
				return nil
			},
		}},
		// The test's own destroy, of this configuration, runs both.
		CheckDestroy: func(*terraform.State) error {
			if n := env.Emulator.Requests().ByRoute[routeStartExport]; n != 2 {
				return fmt.Errorf("%d exports started by the destroy, want 2 (before and after)", n)
			}
			var lists []map[string]any
			env.MustDo(t, "GET", "lists", nil, &lists)
			if len(lists) != 0 {
				return fmt.Errorf("the list survived the destroy: %v", lists)
			}
			if got := readText(t, before); !strings.Contains(got, "Spring newsletter") {
				return fmt.Errorf("the export before the destroy does not hold the list:\n%s", got)
			}
			if got := readText(t, after); strings.Contains(got, "Spring newsletter") || !strings.HasPrefix(got, "listId,") {
				return fmt.Errorf("the export after the destroy still holds the list, or is no export:\n%s", got)
			}
			return nil
		},
	})
}

func readText(t *testing.T, name string) string {
	t.Helper()
	b, err := os.ReadFile(name)
	if err != nil {
		return fmt.Sprintf("(unreadable: %v)", err)
	}
	return string(b)
}

// failingTrigger is a list whose action_trigger runs an action that fails
// (a message through a trigger that does not exist) on event, with
// on_failure mode; the list is replaced when generation changes.
func failingTrigger(env *acctest.Env, event, mode, generation string) string {
	return env.Config(fmt.Sprintf(`
resource "terraform_data" "generation" {
  input = %q
}

resource "rms_list" "l" {
  name = "on_failure %s"
  lifecycle {
    replace_triggered_by = [terraform_data.generation]
    action_trigger {
      events     = [%s]
      actions    = [action.rms_send_transactional_message.broken]
      on_failure = %s
    }
  }
}

action "rms_send_transactional_message" "broken" {
  config {
    trigger_id = "999999"
    recipient  = { email = "ops@example.com" }
  }
}
`, generation, mode, event, mode))
}

// listIDs are the ids of the lists the emulator holds.
func listIDs(t *testing.T, env *acctest.Env) []string {
	var lists []map[string]any
	env.MustDo(t, "GET", "lists", nil, &lists)
	ids := make([]string, len(lists))
	for i, l := range lists {
		ids[i] = fmt.Sprint(l["id"])
	}
	return ids
}

// TestAccActionsOnFailure pins what each on_failure mode does with a
// failing action of this provider, on Terraform 1.16.4:
//
//   - taint, after_create: the apply fails, the list is kept in state
//     tainted, and the next plan replaces it;
//   - halt, before_destroy of a replacement: the apply fails before the
//     old list is destroyed, which the service still holds;
//   - continue, before_destroy of a replacement: a warning, and the
//     replacement goes on;
//   - halt, before_destroy of `terraform destroy`: Terraform reports the
//     failure as a warning and destroys anyway (the guide says so: an
//     export that must succeed before the destroy is invoked first).
func TestAccActionsOnFailure(t *testing.T) {
	acctest.SkipUnlessAcceptance(t)
	t.Run("taint after_create", func(t *testing.T) {
		env := acctest.NewEnv(t, emulator.Options{})
		resource.ParallelTest(t, resource.TestCase{
			TerraformVersionChecks:   []tfversion.TerraformVersionCheck{acctest.SkipWithoutDestroyActions},
			ProtoV6ProviderFactories: acctest.ProviderFactories(),
			Steps: []resource.TestStep{
				{
					Config:      failingTrigger(env, "after_create", "taint", "1"),
					ExpectError: acctest.ExpectErrorParts("rms_send_transactional_message: Trigger not found"),
				},
				{ // the tainted list is replaced, its trigger now harmless
					Config: failingTrigger(env, "before_create", "continue", "1"),
					ConfigPlanChecks: resource.ConfigPlanChecks{PreApply: []plancheck.PlanCheck{
						plancheck.ExpectResourceAction("rms_list.l", plancheck.ResourceActionReplace),
					}},
				},
			},
		})
	})
	t.Run("halt and continue before_destroy", func(t *testing.T) {
		env := acctest.NewEnv(t, emulator.Options{})
		var first []string
		resource.ParallelTest(t, resource.TestCase{
			TerraformVersionChecks:   []tfversion.TerraformVersionCheck{acctest.SkipWithoutDestroyActions},
			ProtoV6ProviderFactories: acctest.ProviderFactories(),
			Steps: []resource.TestStep{
				{
					Config: failingTrigger(env, "before_destroy", "halt", "1"),
					Check: func(*terraform.State) error {
						first = listIDs(t, env)
						if len(first) != 1 {
							return fmt.Errorf("lists %v, want one", first)
						}
						return nil
					},
				},
				{ // halt: the replacement stops before the destroy
					Config:      failingTrigger(env, "before_destroy", "halt", "2"),
					ExpectError: acctest.ExpectErrorParts("rms_send_transactional_message: Trigger not found"),
				},
				{ // continue: a warning, and the replacement goes on
					PreConfig: func() {
						if got := listIDs(t, env); len(got) != 1 || got[0] != first[0] {
							t.Errorf("after the halted replacement: lists %v, want the first one (%v) kept", got, first)
						}
					},
					Config: failingTrigger(env, "before_destroy", "continue", "3"),
					Check: func(*terraform.State) error {
						if got := listIDs(t, env); len(got) != 1 || got[0] == first[0] {
							return fmt.Errorf("lists %v, want one other than %v", got, first)
						}
						return nil
					},
				},
				{ // halt again, for the destroy below
					Config: failingTrigger(env, "before_destroy", "halt", "3"),
				},
			},
			// terraform destroy with a failing before_destroy action and
			// on_failure = halt: a warning, and the list is destroyed.
			CheckDestroy: func(*terraform.State) error {
				if got := listIDs(t, env); len(got) != 0 {
					return fmt.Errorf("lists %v left by terraform destroy, want none", got)
				}
				if n := env.Emulator.Requests().ByRoute["POST /rest/{customerid}/triggers/{id}/messages"]; n < 3 {
					return fmt.Errorf("the failing action ran %d times, want at least 3", n)
				}
				return nil
			},
		})
	})
}
