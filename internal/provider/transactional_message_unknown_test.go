package provider_test

import (
	"testing"

	"github.com/hashicorp/terraform-plugin-testing/helper/resource"
	"github.com/hashicorp/terraform-plugin-testing/tfversion"

	"github.com/rms-labs/terraform-provider-rms/internal/acctest"
	"github.com/rms-labs/terraform-provider-rms/internal/emulator"
)

// unknownOutcomeConfig is a message through a trigger made in the same
// configuration (its create is not faulted: "triggers/" matches only the
// sends).
const unknownOutcomeConfig = `
resource "rms_resource" "trigger" {
  collection = "triggers"
  body       = { name = "provisioning finished", channel = "EMAIL" }
}

resource "rms_transactional_message" "test" {
  trigger_id = rms_resource.trigger.id
  recipient  = { email = "ops@example.com" }
}
`

// A message the service sent but whose answer never came is kept in the
// state as outcome "unknown" with a warning, not tainted: the next plan
// warns again and plans nothing, the next apply sends nothing, and only
// -replace sends it again.
func TestAccTransactionalMessageActThenDropKeptUnknown(t *testing.T) {
	acctest.SkipUnlessAcceptance(t)
	t.Parallel()
	env := acctest.NewEnv(t, emulator.Options{Faults: emulator.FaultOptions{ActThenDropRate: 1, Methods: []string{"POST"}, PathPrefix: "triggers/"}})
	ws := acctest.NewWorkspace(t)
	ws.Configure(env, unknownOutcomeConfig)
	sent := func(when string, want int) {
		t.Helper()
		if n := len(env.Emulator.SentMessages()); n != want {
			t.Fatalf("%s: the service sent %d messages, want %d", when, n, want)
		}
	}
	warning := []string{"Warning: Transactional message outcome unknown", "may have sent", "statistics export of type SENT or MESSAGES", "ops@example.com", "-replace"}

	out, code := ws.Run("apply", "-auto-approve", "-no-color")
	if code != 0 {
		t.Fatalf("a send whose answer was lost failed the apply (a retry would send it again):\n%s", out)
	}
	if !acctest.Contains(out, warning...) {
		t.Errorf("the apply does not warn %q:\n%s", warning, out)
	}
	if got := env.Emulator.Faults().ActThenDrop; got != 1 {
		t.Fatalf("the emulator dropped %d answers, want 1", got)
	}
	sent("after the first apply", 1)
	inst, ok := ws.Instance("rms_transactional_message", "test")
	if !ok || inst.Status != "" || inst.Attributes["outcome"] != "unknown" {
		t.Fatalf("in the state: present %v, status %q, outcome %v; want an untainted message with outcome unknown", ok, inst.Status, inst.Attributes["outcome"])
	}

	out, code = ws.Run("plan", "-detailed-exitcode", "-no-color")
	if code != 0 {
		t.Errorf("the plan after an unknown outcome is not empty (exit %d):\n%s", code, out)
	}
	if !acctest.Contains(out, warning...) {
		t.Errorf("the plan does not repeat the warning %q:\n%s", warning, out)
	}
	if out, code := ws.Run("apply", "-auto-approve", "-no-color"); code != 0 {
		t.Fatalf("the retried apply failed:\n%s", out)
	}
	sent("after a retried apply", 1)

	if out, code := ws.Run("apply", "-auto-approve", "-no-color", "-replace=rms_transactional_message.test"); code != 0 {
		t.Fatalf("apply -replace failed:\n%s", out)
	}
	sent("after apply -replace", 2)
}

// The action has no state: a send with an unknown outcome is an error that
// says the message may be out and what to check before invoking it again.
func TestAccSendTransactionalMessageActionActThenDrop(t *testing.T) {
	acctest.SkipUnlessAcceptance(t)
	env := acctest.NewEnv(t, emulator.Options{Faults: emulator.FaultOptions{ActThenDropRate: 1, Methods: []string{"POST"}, PathPrefix: "triggers/"}})
	resource.ParallelTest(t, resource.TestCase{
		TerraformVersionChecks:   []tfversion.TerraformVersionCheck{acctest.SkipWithoutActions},
		ProtoV6ProviderFactories: acctest.ProviderFactories(),
		Steps: []resource.TestStep{{
			Config: env.Config(`
resource "rms_resource" "trigger" {
  collection = "triggers"
  body       = { name = "provisioning finished", channel = "EMAIL" }
}

action "rms_send_transactional_message" "notice" {
  config {
    trigger_id = rms_resource.trigger.id
    recipient  = { email = "ops@example.com" }
  }
}

resource "terraform_data" "pipeline" {
  input = rms_resource.trigger.id
  lifecycle {
    action_trigger {
      events  = [after_create]
      actions = [action.rms_send_transactional_message.notice]
    }
  }
}
`),
			ExpectError: acctest.ExpectErrorParts("Transactional message outcome unknown", "may have sent the message", "Do not invoke the action again before checking", "statistics export of type SENT or MESSAGES"),
		}},
	})
	if n := len(env.Emulator.SentMessages()); n != 1 {
		t.Errorf("the service sent %d messages, want 1", n)
	}
}
