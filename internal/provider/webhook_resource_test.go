package provider_test

import (
	"crypto/hmac"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"regexp"
	"strconv"
	"sync"
	"testing"
	"time"

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

// hookReceiver is a loopback webhook endpoint recording every delivery.
type hookReceiver struct {
	mu  sync.Mutex
	got []hookDelivery
	// arrived holds a token after a delivery is recorded, so that waitFor
	// wakes on the delivery itself; one token stands for any number.
	arrived chan struct{}
	srv     *httptest.Server
}

type hookDelivery struct {
	header http.Header
	body   []byte
}

func newHookReceiver(t *testing.T) *hookReceiver {
	h := &hookReceiver{arrived: make(chan struct{}, 1)}
	h.srv = httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		b, _ := io.ReadAll(r.Body)
		h.mu.Lock()
		h.got = append(h.got, hookDelivery{r.Header.Clone(), b})
		h.mu.Unlock()
		select {
		case h.arrived <- struct{}{}:
		default: // a token is already waiting
		}
		w.WriteHeader(http.StatusNoContent)
	}))
	t.Cleanup(h.srv.Close)
	return h
}

// waitFor returns the deliveries once there are at least n, waking on each
// arrival, and fails the test if they have not come within 15s.
func (h *hookReceiver) waitFor(t *testing.T, n int) []hookDelivery {
	t.Helper()
	deadline := time.NewTimer(15 * time.Second)
	defer deadline.Stop()
	for {
		h.mu.Lock()
		got := append([]hookDelivery(nil), h.got...)
		h.mu.Unlock()
		if len(got) >= n {
			return got
		}
		select {
		case <-h.arrived:
		case <-deadline.C:
			t.Fatalf("got %d webhook deliveries within 15s, want %d", len(got), n)
		}
	}
}

// verifySignature checks a delivery as a receiver should: the HMAC of
// timestamp "." raw body under the secret, in constant time, and a fresh
// timestamp.
func verifySignature(t *testing.T, d hookDelivery, secret string) {
	t.Helper()
	ts := d.header.Get("X-RMS-Timestamp")
	sec, err := strconv.ParseInt(ts, 10, 64)
	if err != nil || time.Since(time.Unix(sec, 0)) > 5*time.Minute {
		t.Errorf("timestamp %q is not a fresh Unix time", ts)
	}
	want := emulator.WebhookSignature(secret, ts, d.body)
	if !hmac.Equal([]byte(d.header.Get("X-RMS-Signature")), []byte(want)) {
		t.Errorf("signature %q does not verify with the configured secret (want %q)", d.header.Get("X-RMS-Signature"), want)
	}
}

func webhookConfig(url, events, extra string) string {
	return fmt.Sprintf(`
resource "rms_webhook" "test" {
  url    = %q
  events = %s
%s
}
`, url, events, extra)
}

func TestAccWebhookResource_lifecycle(t *testing.T) {
	acctest.SkipUnlessAcceptance(t)
	env := acctest.NewEnv(t, emulator.Options{})
	hook := newHookReceiver(t)
	var id string
	resource.ParallelTest(t, resource.TestCase{
		ProtoV6ProviderFactories: acctest.ProviderFactories(),
		Steps: []resource.TestStep{
			{ // create, and a real signed delivery reaches the receiver
				Config: env.Config(webhookConfig(hook.srv.URL+"/rms", `["message.sent", "import.finished"]`, `  secret = "first-secret"`)),
				ConfigStateChecks: []statecheck.StateCheck{
					statecheck.ExpectKnownValue("rms_webhook.test", tfjsonpath.New("active"), knownvalue.Bool(true)),
					statecheck.ExpectKnownValue("rms_webhook.test", tfjsonpath.New("has_secret"), knownvalue.Bool(true)),
					statecheck.ExpectKnownValue("rms_webhook.test", tfjsonpath.New("secret"), knownvalue.StringExact("first-secret")),
					statecheck.ExpectKnownValue("rms_webhook.test", tfjsonpath.New("events"), knownvalue.SetExact([]knownvalue.Check{
						knownvalue.StringExact("message.sent"), knownvalue.StringExact("import.finished"),
					})),
					statecheck.ExpectKnownValue("rms_webhook.test", tfjsonpath.New("date_created"), knownvalue.NotNull()),
				},
				Check: func(s *terraform.State) error {
					id = stateID("rms_webhook.test")(s)
					var raw map[string]any
					env.MustDo(t, "GET", "webhooks/"+id, nil, &raw)
					if _, leaked := raw["secret"]; leaked {
						t.Error("the service returned the secret")
					}
					env.Emulator.Emit("message.sent", map[string]any{"messageId": 1})
					d := hook.waitFor(t, 1)[0]
					verifySignature(t, d, "first-secret")
					var payload map[string]any
					if err := json.Unmarshal(d.body, &payload); err != nil || payload["event"] != "message.sent" {
						t.Errorf("payload %s: %v", d.body, err)
					}
					return nil
				},
			},
			{ // update in place: events, description, a new secret
				Config: env.Config(webhookConfig(hook.srv.URL+"/rms", `["message.sent"]`, `  secret = "second-secret"
  description = "pipeline notices"
  active = true`)),
				ConfigPlanChecks: resource.ConfigPlanChecks{
					PreApply: []plancheck.PlanCheck{plancheck.ExpectResourceAction("rms_webhook.test", plancheck.ResourceActionUpdate)},
				},
				Check: func(s *terraform.State) error {
					env.Emulator.Emit("message.sent", nil)
					verifySignature(t, hook.waitFor(t, 2)[1], "second-secret")
					return nil
				},
			},
			{ // import by id; the secret cannot be read back
				ResourceName:            "rms_webhook.test",
				ImportState:             true,
				ImportStateVerify:       true,
				ImportStateVerifyIgnore: []string{"secret"},
			},
			{ // drift: url and active changed out of band are planned back
				PreConfig: func() {
					env.MustDo(t, "PUT", "webhooks/"+id, map[string]any{"url": "https://elsewhere.example.com/x", "active": false}, nil)
				},
				Config: env.Config(webhookConfig(hook.srv.URL+"/rms", `["message.sent"]`, `  secret = "second-secret"
  description = "pipeline notices"`)),
				ConfigPlanChecks: resource.ConfigPlanChecks{
					PreApply: []plancheck.PlanCheck{
						plancheck.ExpectResourceAction("rms_webhook.test", plancheck.ResourceActionUpdate),
						plancheck.ExpectKnownValue("rms_webhook.test", tfjsonpath.New("url"), knownvalue.StringExact(hook.srv.URL+"/rms")),
					},
				},
				ConfigStateChecks: []statecheck.StateCheck{
					statecheck.ExpectKnownValue("rms_webhook.test", tfjsonpath.New("active"), knownvalue.Bool(true)),
				},
			},
			{ // drift: the secret removed out of band is set again
				PreConfig: func() {
					env.MustDo(t, "PUT", "webhooks/"+id, map[string]any{"secret": nil}, nil)
				},
				Config: env.Config(webhookConfig(hook.srv.URL+"/rms", `["message.sent"]`, `  secret = "second-secret"
  description = "pipeline notices"`)),
				ConfigPlanChecks: resource.ConfigPlanChecks{
					PreApply: []plancheck.PlanCheck{plancheck.ExpectResourceAction("rms_webhook.test", plancheck.ResourceActionUpdate)},
				},
				ConfigStateChecks: []statecheck.StateCheck{
					statecheck.ExpectKnownValue("rms_webhook.test", tfjsonpath.New("has_secret"), knownvalue.Bool(true)),
				},
			},
			{ // removing secret and description removes them
				Config: env.Config(webhookConfig(hook.srv.URL+"/rms", `["message.sent"]`, ``)),
				ConfigStateChecks: []statecheck.StateCheck{
					statecheck.ExpectKnownValue("rms_webhook.test", tfjsonpath.New("has_secret"), knownvalue.Bool(false)),
					statecheck.ExpectKnownValue("rms_webhook.test", tfjsonpath.New("description"), knownvalue.Null()),
				},
			},
			{ // deleted out of band: planned for creation
				PreConfig: func() { env.MustDo(t, "DELETE", "webhooks/"+id, nil, nil) },
				Config:    env.Config(webhookConfig(hook.srv.URL+"/rms", `["message.sent"]`, ``)),
				ConfigPlanChecks: resource.ConfigPlanChecks{
					PreApply: []plancheck.PlanCheck{plancheck.ExpectResourceAction("rms_webhook.test", plancheck.ResourceActionCreate)},
				},
			},
		},
		CheckDestroy: func(s *terraform.State) error {
			var all []map[string]any
			env.MustDo(t, "GET", "webhooks", nil, &all)
			if len(all) != 0 {
				t.Errorf("%d webhooks remain after destroy", len(all))
			}
			return nil
		},
	})
}

// The write-only secret signs deliveries, never reaches state, and is
// rotated by changing its version.
func TestAccWebhookResource_writeOnlySecret(t *testing.T) {
	acctest.SkipUnlessAcceptance(t)
	env := acctest.NewEnv(t, emulator.Options{})
	hook := newHookReceiver(t)
	config := func(secret string, version int) string {
		return env.Config(webhookConfig(hook.srv.URL, `["export.finished"]`, fmt.Sprintf(`  secret_wo = %q
  secret_wo_version = %d`, secret, version)))
	}
	resource.ParallelTest(t, resource.TestCase{
		TerraformVersionChecks:   []tfversion.TerraformVersionCheck{acctest.SkipWithoutWriteOnly},
		ProtoV6ProviderFactories: acctest.ProviderFactories(),
		Steps: []resource.TestStep{
			{
				Config: config("wo-one", 1),
				ConfigStateChecks: []statecheck.StateCheck{
					statecheck.ExpectKnownValue("rms_webhook.test", tfjsonpath.New("secret_wo"), knownvalue.Null()),
					statecheck.ExpectKnownValue("rms_webhook.test", tfjsonpath.New("secret"), knownvalue.Null()),
					statecheck.ExpectKnownValue("rms_webhook.test", tfjsonpath.New("has_secret"), knownvalue.Bool(true)),
				},
				Check: func(*terraform.State) error {
					env.Emulator.Emit("export.finished", nil)
					verifySignature(t, hook.waitFor(t, 1)[0], "wo-one")
					return nil
				},
			},
			{ // a new value without a new version is not sent (and plans nothing)
				Config: config("wo-two", 1),
				ConfigPlanChecks: resource.ConfigPlanChecks{
					PreApply: []plancheck.PlanCheck{plancheck.ExpectEmptyPlan()},
				},
			},
			{
				Config: config("wo-two", 2),
				ConfigPlanChecks: resource.ConfigPlanChecks{
					PreApply: []plancheck.PlanCheck{plancheck.ExpectResourceAction("rms_webhook.test", plancheck.ResourceActionUpdate)},
				},
				Check: func(*terraform.State) error {
					env.Emulator.Emit("export.finished", nil)
					verifySignature(t, hook.waitFor(t, 2)[1], "wo-two")
					return nil
				},
			},
		},
	})
}

func TestAccWebhookResource_badInput(t *testing.T) {
	acctest.SkipUnlessAcceptance(t)
	env := acctest.NewEnv(t, emulator.Options{})
	cases := map[string]struct {
		config string
		want   *regexp.Regexp
	}{
		"plain http": {
			config: webhookConfig("http://hooks.example.com/x", `["message.sent"]`, ""),
			want:   acctest.ExpectErrorParts("Webhook URL must use https", "loopback"),
		},
		"not a URL": {
			config: webhookConfig("hooks", `["message.sent"]`, ""),
			want:   acctest.ExpectErrorParts("Invalid webhook URL", "not an absolute URL"),
		},
		"a space in the URL": {
			config: webhookConfig("https://hooks.example.com/a b", `["message.sent"]`, ""),
			want:   acctest.ExpectErrorParts("Invalid webhook URL", "contains a space", "%20"),
		},
		"no events": {
			config: webhookConfig("https://h.example.com", `[]`, ""),
			want:   acctest.ExpectErrorParts("events set must contain at least 1 elements"),
		},
		"unknown event": {
			config: webhookConfig("https://h.example.com", `["message.exploded"]`, ""),
			want:   acctest.ExpectErrorParts("value must be one of", "message.sent"),
		},
		"both secrets": {
			config: webhookConfig("https://h.example.com", `["message.sent"]`, `  secret = "a"
  secret_wo = "b"
  secret_wo_version = 1`),
			want: acctest.ExpectErrorParts(`Attribute "secret_wo" cannot be specified when "secret" is specified`),
		},
		"write-only secret without version": {
			config: webhookConfig("https://h.example.com", `["message.sent"]`, `  secret_wo = "b"`),
			want:   acctest.ExpectErrorParts(`Attribute "secret_wo_version" must be specified when "secret_wo" is specified`),
		},
		"empty secret": {
			config: webhookConfig("https://h.example.com", `["message.sent"]`, `  secret = ""`),
			want:   acctest.ExpectErrorParts("secret string length must be at least 1"),
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
