package provider_test

import (
	"encoding/json"
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

func messageConfig(hookURL, run string) string {
	return `
resource "rms_resource" "trigger" {
  collection = "triggers"
  body = {
    name    = "provisioning finished"
    channel = "EMAIL"
    subject = "Environment {{env}} is ready"
  }
}

resource "rms_webhook" "sent" {
  url    = "` + hookURL + `"
  events = ["message.sent"]
  secret = "hook-secret"
}

resource "rms_transactional_message" "test" {
  trigger_id = rms_resource.trigger.id
  recipient = {
    email = "ops@example.com"
  }
  properties = { env = "staging" }
  order_rows = [
    { sku = "A1", qty = 2, price = 9.5, gift = false },
    { sku = "B2", qty = 12345678901234567890 },
  ]
  triggers = { run = "` + run + `" }

  depends_on = [rms_webhook.sent]
}
`
}

func TestAccTransactionalMessageResource(t *testing.T) {
	acctest.SkipUnlessAcceptance(t)
	env := acctest.NewEnv(t, emulator.Options{})
	hook := newHookReceiver(t)
	var firstID string
	resource.ParallelTest(t, resource.TestCase{
		ProtoV6ProviderFactories: acctest.ProviderFactories(),
		Steps: []resource.TestStep{
			{ // sent once on create; the webhook sees it, signed
				Config: env.Config(messageConfig(hook.srv.URL, "1")),
				ConfigStateChecks: []statecheck.StateCheck{
					statecheck.ExpectKnownValue("rms_transactional_message.test", tfjsonpath.New("status"), knownvalue.StringExact("SENT")),
					statecheck.ExpectKnownValue("rms_transactional_message.test", tfjsonpath.New("channel"), knownvalue.StringExact("EMAIL")),
					statecheck.ExpectKnownValue("rms_transactional_message.test", tfjsonpath.New("sent_at"), knownvalue.NotNull()),
					statecheck.ExpectKnownValue("rms_transactional_message.test", tfjsonpath.New("id"), knownvalue.StringRegexp(regexp.MustCompile(`^[0-9]+$`))),
				},
				Check: func(s *terraform.State) error {
					firstID = stateID("rms_transactional_message.test")(s)
					msgs := env.Emulator.SentMessages()
					if len(msgs) != 1 {
						t.Fatalf("the emulator saw %d messages, want exactly 1", len(msgs))
					}
					m := msgs[0]
					if m.Recipient["email"] != "ops@example.com" || m.Properties["env"] != "staging" || len(m.OrderRows) != 2 {
						t.Errorf("sent message = %+v", m)
					}
					rows, _ := json.Marshal(m.OrderRows)
					if want := `[{"gift":false,"price":9.5,"qty":2,"sku":"A1"},{"qty":12345678901234567890,"sku":"B2"}]`; string(rows) != want {
						t.Errorf("order rows on the wire = %s, want %s", rows, want)
					}
					d := hook.waitFor(t, 1)[0]
					verifySignature(t, d, "hook-secret")
					if d.header.Get("X-RMS-Event") != "message.sent" {
						t.Errorf("delivery event = %q", d.header.Get("X-RMS-Event"))
					}
					return nil
				},
			},
			{ // the same configuration again sends nothing
				Config: env.Config(messageConfig(hook.srv.URL, "1")),
				ConfigPlanChecks: resource.ConfigPlanChecks{
					PreApply: []plancheck.PlanCheck{plancheck.ExpectEmptyPlan()},
				},
				Check: func(*terraform.State) error {
					if n := len(env.Emulator.SentMessages()); n != 1 {
						t.Errorf("the emulator saw %d messages, want still 1", n)
					}
					return nil
				},
			},
			{ // a change of triggers sends a new message
				Config: env.Config(messageConfig(hook.srv.URL, "2")),
				ConfigPlanChecks: resource.ConfigPlanChecks{
					PreApply: []plancheck.PlanCheck{plancheck.ExpectResourceAction("rms_transactional_message.test", plancheck.ResourceActionDestroyBeforeCreate)},
				},
				Check: func(s *terraform.State) error {
					if n := len(env.Emulator.SentMessages()); n != 2 {
						t.Errorf("the emulator saw %d messages, want 2", n)
					}
					if stateID("rms_transactional_message.test")(s) == firstID {
						t.Error("the new send kept the first message's id")
					}
					return nil
				},
			},
		},
		CheckDestroy: func(*terraform.State) error {
			// Destroy forgets; it sends nothing and unsends nothing.
			if n := len(env.Emulator.SentMessages()); n != 2 {
				t.Errorf("after destroy the emulator saw %d messages, want 2", n)
			}
			return nil
		},
	})
}

func TestAccTransactionalMessageResource_badInput(t *testing.T) {
	acctest.SkipUnlessAcceptance(t)
	env := acctest.NewEnv(t, emulator.Options{})
	smsTrigger := `
resource "rms_resource" "trigger" {
  collection = "triggers"
  body       = { name = "code", channel = "SMS" }
}
`
	cases := map[string]struct {
		config string
		want   *regexp.Regexp
	}{
		"trigger does not exist": {
			config: `
resource "rms_transactional_message" "test" {
  trigger_id = "424242"
  recipient  = { email = "a@example.com" }
}`,
			want: acctest.ExpectErrorParts("Trigger not found", "no trigger with id 424242", "Create the trigger first"),
		},
		"sms trigger without mobile": {
			config: smsTrigger + `
resource "rms_transactional_message" "test" {
  trigger_id = rms_resource.trigger.id
  recipient  = { email = "a@example.com" }
}`,
			want: acctest.ExpectErrorParts("Unable to send the transactional message", "recipient.mobile is mandatory for an SMS trigger"),
		},
		"no recipient address": {
			config: `
resource "rms_transactional_message" "test" {
  trigger_id = "1"
  recipient  = { original_id = "c-1" }
}`,
			want: acctest.ExpectErrorParts("At least one attribute out of", "recipient.mobile"),
		},
		"bad mobile": {
			config: `
resource "rms_transactional_message" "test" {
  trigger_id = "1"
  recipient  = { mobile = "call me" }
}`,
			want: acctest.ExpectErrorParts("must be a mobile number"),
		},
		"order rows as a JSON string": {
			config: `
resource "rms_transactional_message" "test" {
  trigger_id = "1"
  recipient  = { email = "a@example.com" }
  order_rows = jsonencode([{ sku = "A1" }])
}`,
			want: acctest.ExpectErrorParts("order_rows must be a list of objects", "not a JSON string"),
		},
		"order row not an object": {
			config: `
resource "rms_transactional_message" "test" {
  trigger_id = "1"
  recipient  = { email = "a@example.com" }
  order_rows = [{ sku = "A1" }, "B2"]
}`,
			want: acctest.ExpectErrorParts("Row 1 is not an object"),
		},
		"trigger id not numeric": {
			config: `
resource "rms_transactional_message" "test" {
  trigger_id = "order-confirmation"
  recipient  = { email = "a@example.com" }
}`,
			want: acctest.ExpectErrorParts("must be the trigger's numeric id"),
		},
	}
	for name, tc := range cases {
		t.Run(name, func(t *testing.T) {
			resource.ParallelTest(t, resource.TestCase{
				ProtoV6ProviderFactories: acctest.ProviderFactories(),
				Steps:                    []resource.TestStep{{Config: env.Config(tc.config), ExpectError: tc.want}},
			})
		})
	}
}
