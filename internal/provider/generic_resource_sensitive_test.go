package provider_test

import (
	"context"
	"encoding/json"
	"fmt"
	"regexp"
	"strings"
	"testing"

	"github.com/hashicorp/terraform-plugin-testing/config"
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

// sensitiveConfig is an rms_resource "test" in campaigns whose secrets
// come from an ephemeral variable (never stored in a plan either), so that
// neither configuration, plan nor state holds a secret literally.
func sensitiveConfig(env *acctest.Env, body, sensitiveBody, version string) string {
	return env.Config(fmt.Sprintf(`
variable "secret" {
  type      = string
  sensitive = true
  ephemeral = true
}

resource "rms_resource" "test" {
  collection             = "campaigns"
  body                   = %s
  sensitive_body         = %s
  sensitive_body_version = %s
}
`, body, sensitiveBody, version))
}

func secretVar(v string) config.Variables {
	return config.Variables{"secret": config.StringVariable(v)}
}

// noSecretInPlan fails when the plan JSON (changes, prior state, variables)
// holds any of the secrets anywhere.
type noSecretInPlan []string

func (c noSecretInPlan) CheckPlan(_ context.Context, req plancheck.CheckPlanRequest, resp *plancheck.CheckPlanResponse) {
	raw, err := json.Marshal(req.Plan)
	if err != nil {
		resp.Error = err
		return
	}
	for _, s := range c {
		if strings.Contains(string(raw), s) {
			resp.Error = fmt.Errorf("the plan holds the secret %q...", s[:4])
			return
		}
	}
}

// noSecretInState fails when the state (`terraform show -json`) holds any
// of the secrets anywhere.
type noSecretInState []string

func (c noSecretInState) CheckState(_ context.Context, req statecheck.CheckStateRequest, resp *statecheck.CheckStateResponse) {
	raw, err := json.Marshal(req.State)
	if err != nil {
		resp.Error = err
		return
	}
	for _, s := range c {
		if strings.Contains(string(raw), s) {
			resp.Error = fmt.Errorf("the state holds the secret %q...", s[:4])
			return
		}
	}
}

// outputLacks fails when output holds any of keys: a secret the service
// echoes must stay out of state.
type outputLacks struct {
	resource string
	keys     []string
}

func (c outputLacks) CheckState(_ context.Context, req statecheck.CheckStateRequest, resp *statecheck.CheckStateResponse) {
	for _, r := range req.State.Values.RootModule.Resources {
		if r.Address != c.resource {
			continue
		}
		out, ok := r.AttributeValues["output"].(map[string]any)
		if !ok || len(out) == 0 {
			resp.Error = fmt.Errorf("%s has no output to check", c.resource)
			return
		}
		for _, k := range c.keys {
			if _, has := out[k]; has {
				resp.Error = fmt.Errorf("%s output holds the sensitive key %q", c.resource, k)
				return
			}
		}
		return
	}
	resp.Error = fmt.Errorf("%s not in state", c.resource)
}

// entityHolds checks over REST that the emulator holds want (a missing want
// value: the key is absent), and that every value of state's flat form is
// free of the secrets.
func entityHolds(t *testing.T, env *acctest.Env, id *string, want map[string]any, secrets ...string) func(*terraform.State) error {
	return func(s *terraform.State) error {
		*id = stateID("rms_resource.test")(s)
		var e map[string]any
		env.MustDo(t, "GET", "campaigns/"+*id, nil, &e)
		for k, v := range want {
			got, has := e[k]
			switch {
			case v == nil && has:
				t.Errorf("the service holds %s = %v, want it removed", k, got)
			case v != nil && got != v:
				t.Errorf("the service holds %s = %v, want %v", k, got, v)
			}
		}
		for _, sec := range secrets {
			if strings.Contains(s.String(), sec) {
				t.Errorf("the state holds the secret %q...", sec[:4])
			}
		}
		return nil
	}
}

// sensitive_body reaches the service merged with body and never reaches
// plan or state; the service echoes it (the emulator keeps unknown keys), yet
// output lacks it and nothing drifts; only a version change sends a new
// value alone, and any update of body sends the configured one along.
func TestAccGenericResource_sensitiveBody(t *testing.T) {
	acctest.SkipUnlessAcceptance(t)
	const s1, s2, s3, s4 = "sb-one-Kx81", "sb-two-Qw27", "sb-three-Lm55", "sb-four-Zt90"
	all := []string{s1, s2, s3, s4}
	env := acctest.NewEnv(t, emulator.Options{})
	var id string
	body := func(name string) string { return fmt.Sprintf(`{ name = %q, host = "smtp.example.com" }`, name) }
	both := `{ password = var.secret, apiKey = "k-${var.secret}" }`
	hidden := outputLacks{"rms_resource.test", []string{"password", "apiKey"}}
	resource.ParallelTest(t, resource.TestCase{
		TerraformVersionChecks:   []tfversion.TerraformVersionCheck{acctest.SkipWithoutEphemeral, acctest.SkipWithoutWriteOnly},
		ProtoV6ProviderFactories: acctest.ProviderFactories(),
		Steps: []resource.TestStep{
			{ // create: the service holds body and secrets merged; plan and state hold no secret
				Config:          sensitiveConfig(env, body("Relay"), both, "1"),
				ConfigVariables: secretVar(s1),
				ConfigPlanChecks: resource.ConfigPlanChecks{
					PreApply: []plancheck.PlanCheck{
						plancheck.ExpectResourceAction("rms_resource.test", plancheck.ResourceActionCreate),
						noSecretInPlan(all),
					},
					PostApplyPostRefresh: []plancheck.PlanCheck{plancheck.ExpectEmptyPlan(), noSecretInPlan(all)},
				},
				ConfigStateChecks: []statecheck.StateCheck{
					noSecretInState(all), hidden,
					statecheck.ExpectKnownValue("rms_resource.test", tfjsonpath.New("output").AtMapKey("host"), knownvalue.StringExact("smtp.example.com")),
					statecheck.ExpectKnownValue("rms_resource.test", tfjsonpath.New("sensitive_body"), knownvalue.Null()),
					statecheck.ExpectKnownValue("rms_resource.test", tfjsonpath.New("sensitive_body_version"), knownvalue.StringExact("1")),
				},
				Check: entityHolds(t, env, &id, map[string]any{"name": "Relay", "host": "smtp.example.com", "password": s1, "apiKey": "k-" + s1}, all...),
			},
			{ // a new secret without a new version: nothing planned, nothing sent
				Config:          sensitiveConfig(env, body("Relay"), both, "1"),
				ConfigVariables: secretVar(s2),
				ConfigPlanChecks: resource.ConfigPlanChecks{
					PreApply: []plancheck.PlanCheck{plancheck.ExpectEmptyPlan()},
				},
				Check: entityHolds(t, env, &id, map[string]any{"password": s1}, all...),
			},
			{ // a new version sends the new secret; the version may be a string
				Config:          sensitiveConfig(env, body("Relay"), both, `"2026-05"`),
				ConfigVariables: secretVar(s2),
				ConfigPlanChecks: resource.ConfigPlanChecks{
					PreApply: []plancheck.PlanCheck{
						plancheck.ExpectResourceAction("rms_resource.test", plancheck.ResourceActionUpdate),
						noSecretInPlan(all),
					},
				},
				ConfigStateChecks: []statecheck.StateCheck{noSecretInState(all), hidden},
				Check:             entityHolds(t, env, &id, map[string]any{"name": "Relay", "password": s2, "apiKey": "k-" + s2}, all...),
			},
			{ // an update of body alone sends the configured secret along
				Config:          sensitiveConfig(env, body("Relay 2"), both, `"2026-05"`),
				ConfigVariables: secretVar(s3),
				ConfigPlanChecks: resource.ConfigPlanChecks{
					PreApply: []plancheck.PlanCheck{
						plancheck.ExpectResourceAction("rms_resource.test", plancheck.ResourceActionUpdate),
						plancheck.ExpectKnownValue("rms_resource.test", tfjsonpath.New("body").AtMapKey("name"), knownvalue.StringExact("Relay 2")),
						noSecretInPlan(all),
					},
				},
				ConfigStateChecks: []statecheck.StateCheck{noSecretInState(all), hidden},
				Check:             entityHolds(t, env, &id, map[string]any{"name": "Relay 2", "password": s3}, all...),
			},
			{ // a secret changed on the service is not drift: the plan is empty and the change stays
				PreConfig: func() {
					env.MustDo(t, "PUT", "campaigns/"+id, map[string]any{"password": s4}, nil)
				},
				Config:          sensitiveConfig(env, body("Relay 2"), both, `"2026-05"`),
				ConfigVariables: secretVar(s3),
				ConfigPlanChecks: resource.ConfigPlanChecks{
					PreApply: []plancheck.PlanCheck{plancheck.ExpectEmptyPlan(), noSecretInPlan(all)},
				},
				ConfigStateChecks: []statecheck.StateCheck{noSecretInState(all), hidden},
				Check:             entityHolds(t, env, &id, map[string]any{"password": s4}, all...),
			},
			{ // a key dropped from sensitive_body is removed from the entity by the update
				Config:          sensitiveConfig(env, body("Relay 2"), `{ password = var.secret }`, "3"),
				ConfigVariables: secretVar(s1),
				ConfigPlanChecks: resource.ConfigPlanChecks{
					PreApply: []plancheck.PlanCheck{plancheck.ExpectResourceAction("rms_resource.test", plancheck.ResourceActionUpdate)},
				},
				ConfigStateChecks: []statecheck.StateCheck{noSecretInState(all), hidden},
				Check:             entityHolds(t, env, &id, map[string]any{"password": s1, "apiKey": nil}, all...),
			},
			{ // a key moved from sensitive_body into body becomes plain: in output, compared
				Config: env.Config(`
resource "rms_resource" "test" {
  collection = "campaigns"
  body       = { name = "Relay 2", host = "smtp.example.com", password = "now-public" }
}
`),
				ConfigStateChecks: []statecheck.StateCheck{
					statecheck.ExpectKnownValue("rms_resource.test", tfjsonpath.New("output").AtMapKey("password"), knownvalue.StringExact("now-public")),
				},
				Check: entityHolds(t, env, &id, map[string]any{"password": "now-public"}, all...),
			},
		},
	})
}

// After an import the provider cannot know which keys are secret: output
// (and body) show what the service holds. The first apply with
// sensitive_body sends it without a version change (the imported version
// is unset) and from then on the secret is out of state.
func TestAccGenericResource_sensitiveBodyAfterImport(t *testing.T) {
	acctest.SkipUnlessAcceptance(t)
	const old, fresh = "imported-old-Pp31", "imported-new-Vb64"
	env := acctest.NewEnv(t, emulator.Options{})
	var made map[string]any
	env.MustDo(t, "POST", "campaigns", map[string]any{"name": "Existing", "password": old}, &made)
	id := fmt.Sprint(made["id"])
	cfg := sensitiveConfig(env, `{ name = "Existing" }`, `{ password = var.secret }`, "1")
	resource.ParallelTest(t, resource.TestCase{
		TerraformVersionChecks:   []tfversion.TerraformVersionCheck{acctest.SkipWithoutEphemeral, acctest.SkipWithoutWriteOnly},
		ProtoV6ProviderFactories: acctest.ProviderFactories(),
		Steps: []resource.TestStep{
			{
				Config:             cfg,
				ConfigVariables:    secretVar(fresh),
				ResourceName:       "rms_resource.test",
				ImportState:        true,
				ImportStateId:      "campaigns/" + id,
				ImportStatePersist: true,
				ImportStateCheck: func(states []*terraform.InstanceState) error {
					if len(states) != 1 || states[0].Attributes["output.password"] != old {
						return fmt.Errorf("imported output.password = %q, want what the service holds (documented)", states[0].Attributes["output.password"])
					}
					return nil
				},
			},
			{
				Config:          cfg,
				ConfigVariables: secretVar(fresh),
				ConfigPlanChecks: resource.ConfigPlanChecks{
					PreApply: []plancheck.PlanCheck{
						plancheck.ExpectResourceAction("rms_resource.test", plancheck.ResourceActionUpdate),
						noSecretInPlan{fresh},
					},
					PostApplyPostRefresh: []plancheck.PlanCheck{plancheck.ExpectEmptyPlan()},
				},
				ConfigStateChecks: []statecheck.StateCheck{
					noSecretInState{old, fresh},
					outputLacks{"rms_resource.test", []string{"password"}},
				},
				Check: entityHolds(t, env, &id, map[string]any{"name": "Existing", "password": fresh}, old, fresh),
			},
		},
	})
}

// Bad uses of sensitive_body fail at plan time; the messages name keys and
// attributes, never a value.
func TestAccGenericResource_sensitiveBodyBadInput(t *testing.T) {
	acctest.SkipUnlessAcceptance(t)
	env := acctest.NewEnv(t, emulator.Options{})
	const value = "never-in-a-message-Hh42"
	cases := map[string]struct {
		body, sensitive, version string
		want                     *regexp.Regexp
	}{
		"key in both": {
			body: `{ name = "x", password = "plain" }`, sensitive: `{ password = "` + value + `" }`, version: "1",
			want: acctest.ExpectErrorParts("Key in both body and sensitive_body", `"password" is set in both body and sensitive_body`, "Remove it from one of them"),
		},
		"without a version": {
			body: `{ name = "x" }`, sensitive: `{ password = "` + value + `" }`, version: "null",
			want: acctest.ExpectErrorParts(`Attribute "sensitive_body_version" must be specified when "sensitive_body" is specified`),
		},
		"a version without sensitive_body": {
			body: `{ name = "x" }`, sensitive: "null", version: "1",
			want: acctest.ExpectErrorParts(`Attribute "sensitive_body" must be specified when "sensitive_body_version" is specified`),
		},
		"jsonencode string": {
			body: `{ name = "x" }`, sensitive: `jsonencode({ password = "` + value + `" })`, version: "1",
			want: acctest.ExpectErrorParts("sensitive_body must be an object, not a string", "Pass the object itself"),
		},
		"not an object": {
			body: `{ name = "x" }`, sensitive: `["` + value + `"]`, version: "1",
			want: acctest.ExpectErrorParts("sensitive_body must be an object", "got a value of type"),
		},
		"key set by the server": {
			body: `{ name = "x" }`, sensitive: `{ dateCreated = "` + value + `" }`, version: "1",
			want: acctest.ExpectErrorParts("Key set by the server", `sensitive_body must not contain "dateCreated"`),
		},
	}
	for name, tc := range cases {
		t.Run(name, func(t *testing.T) {
			resource.ParallelTest(t, resource.TestCase{
				TerraformVersionChecks:   []tfversion.TerraformVersionCheck{acctest.SkipWithoutWriteOnly},
				ProtoV6ProviderFactories: acctest.ProviderFactories(),
				Steps: []resource.TestStep{{
					Config: env.Config(fmt.Sprintf(`
resource "rms_resource" "test" {
  collection             = "campaigns"
  body                   = %s
  sensitive_body         = %s
  sensitive_body_version = %s
}
`, tc.body, tc.sensitive, tc.version)),
					ExpectError: tc.want,
				}},
			})
		})
	}
}
