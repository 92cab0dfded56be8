package provider_test

import (
	"encoding/base64"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/hashicorp/terraform-plugin-testing/helper/resource"
	"github.com/hashicorp/terraform-plugin-testing/terraform"
	"github.com/hashicorp/terraform-plugin-testing/tfversion"

	"github.com/rms-labs/terraform-provider-rms/internal/acctest"
	"github.com/rms-labs/terraform-provider-rms/internal/emulator"
)

// TestAccSecretsNeverLogged applies, refreshes and destroys with TRACE
// logging of Terraform and the provider, then searches every log line and
// the state for the password, the Authorization header value, and, in a
// second run against a token-only account, the bearer token and the value
// of an extra header, and in a third with OAuth 2.0 client credentials,
// the client secret and every token issued.
//
// It sets environment variables, so it cannot run in parallel; Go runs it
// before the parallel tests resume, so they never see TF_LOG.
func TestAccSecretsNeverLogged(t *testing.T) {
	acctest.SkipUnlessAcceptance(t)
	const password = "pw-Zx81-never-in-logs"
	const webhookSecret = "whsec-Qq72-never-in-logs"
	const entitySecret = "sbody-Vr19-never-in-logs"
	logDir := t.TempDir()
	t.Setenv("TF_LOG", "TRACE")
	// acctest switched the plugin-side loggers off for the suite (nobody
	// reads them); this test reads them.
	for _, k := range []string{"TF_LOG_PROVIDER", "TF_LOG_SDK", "TF_LOG_SDK_PROTO", "TF_LOG_SDK_FRAMEWORK"} {
		t.Setenv(k, "TRACE")
	}
	t.Setenv("TF_ACC_LOG_PATH", filepath.Join(logDir, "acc.log"))
	t.Setenv("TF_LOG_PATH_MASK", filepath.Join(logDir, "tf-%s.log"))

	env := acctest.NewEnv(t, emulator.Options{Password: password})
	// The password comes from RMS_PASSWORD, as the docs recommend: Terraform
	// itself logs configuration files verbatim at TRACE.
	t.Setenv("RMS_PASSWORD", password)
	// Likewise the webhook secret comes from a variable, never a literal.
	t.Setenv("TF_VAR_webhook_secret", webhookSecret)
	t.Setenv("TF_VAR_entity_secret", entitySecret)
	providerBlock := fmt.Sprintf(`
provider "rms" {
  base_url    = %q
  customer_id = %d
  username    = %q
}
`, env.URL, env.CustomerID, env.Username)
	var states []string
	resource.Test(t, resource.TestCase{
		// The configuration passes the webhook secret through an ephemeral
		// variable into secret_wo as well as into secret.
		TerraformVersionChecks:   []tfversion.TerraformVersionCheck{acctest.SkipWithoutEphemeral, acctest.SkipWithoutWriteOnly},
		ProtoV6ProviderFactories: acctest.ProviderFactories(),
		Steps: []resource.TestStep{{
			Config: providerBlock + projectConfig("Logged", "traced") + `
variable "webhook_secret" {
  type      = string
  sensitive = true
  ephemeral = true
}
resource "rms_webhook" "w" {
  url               = "https://hooks.example.com/rms"
  events            = ["message.sent"]
  secret_wo         = var.webhook_secret
  secret_wo_version = 1
}
variable "entity_secret" {
  type      = string
  sensitive = true
  ephemeral = true
}
# rms_resource's write-only sensitive_body: the service echoes the key.
resource "rms_resource" "e" {
  collection             = "integration"
  body                   = { name = "traced" }
  sensitive_body         = { apiKey = var.entity_secret }
  sensitive_body_version = 1
}
`,
			Check: func(s *terraform.State) error {
				states = append(states, s.String())
				var hooks []map[string]any
				env.MustDo(t, "GET", "webhooks", nil, &hooks)
				if len(hooks) != 1 || hooks[0]["hasSecret"] != true {
					return fmt.Errorf("the webhook secret never reached the service, so the test proves nothing: %v", hooks)
				}
				var entities []map[string]any
				env.MustDo(t, "GET", "integration", nil, &entities)
				if len(entities) != 1 || entities[0]["apiKey"] != entitySecret {
					return fmt.Errorf("the sensitive_body never reached the service, so the test proves nothing")
				}
				return nil
			},
		}},
	})

	// Second run: a token-only account, the token from RMS_TOKEN and an
	// extra header from RMS_HEADERS, as the docs recommend for secrets.
	const token = "tok-Mm40-never-in-logs"
	const gatewayKey = "gk-Pp19-never-in-logs"
	tokenEnv := acctest.NewEnv(t, emulator.Options{Token: token, CustomerID: 1001})
	t.Setenv("RMS_PASSWORD", "")
	t.Setenv("RMS_TOKEN", token)
	t.Setenv("RMS_HEADERS", `{"X-Gateway-Key": "`+gatewayKey+`"}`)
	resource.Test(t, resource.TestCase{
		ProtoV6ProviderFactories: acctest.ProviderFactories(),
		Steps: []resource.TestStep{{
			Config: fmt.Sprintf(`
provider "rms" {
  base_url    = %q
  customer_id = %d
}
`, tokenEnv.URL, tokenEnv.CustomerID) + projectConfig("Logged by token", ""),
			Check: func(s *terraform.State) error {
				states = append(states, s.String())
				if n := tokenEnv.Emulator.Requests().ByStatus[200] + tokenEnv.Emulator.Requests().ByStatus[201]; n == 0 {
					return fmt.Errorf("no request of the token run succeeded, so the test proves nothing")
				}
				return nil
			},
		}},
	})

	// Third run: OAuth 2.0 client credentials, the secret from
	// RMS_OAUTH2_CLIENT_SECRET; neither it nor a token it bought may show.
	const clientSecret = "cs-Kk58-never-in-logs"
	oauth2Env := acctest.NewEnv(t, emulator.Options{CustomerID: 1002, OAuth2Clients: map[string]string{"ci": clientSecret}})
	t.Setenv("RMS_TOKEN", "")
	t.Setenv("RMS_OAUTH2_CLIENT_SECRET", clientSecret)
	resource.Test(t, resource.TestCase{
		ProtoV6ProviderFactories: acctest.ProviderFactories(),
		Steps: []resource.TestStep{{
			Config: fmt.Sprintf(`
provider "rms" {
  base_url    = %q
  customer_id = %d
  oauth2 = {
    token_url = %q
    client_id = "ci"
  }
}
`, oauth2Env.URL, oauth2Env.CustomerID, oauth2Env.URL+emulator.OAuth2TokenPath) + projectConfig("Logged by OAuth 2.0", ""),
			Check: func(s *terraform.State) error {
				states = append(states, s.String())
				if oauth2Env.Emulator.OAuth2Tokens().Presented == 0 {
					return fmt.Errorf("no token was used, so the test proves nothing")
				}
				return nil
			},
		}},
	})

	secrets := []string{
		clientSecret,
		password,
		webhookSecret,
		entitySecret,
		base64.StdEncoding.EncodeToString([]byte(env.Username + ":" + password)),
		token,
		gatewayKey,
	}
	secrets = append(secrets, oauth2Env.Emulator.IssuedOAuth2Tokens()...)
	files, err := filepath.Glob(filepath.Join(logDir, "*"))
	if err != nil || len(files) == 0 {
		t.Fatalf("no log files written (%v): the test would prove nothing", err)
	}
	var total int
	var sawClientLog bool
	for _, f := range files {
		raw, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		total += len(raw)
		text := string(raw)
		if strings.Contains(text, "rms.client: request:") {
			sawClientLog = true
		}
		for _, s := range secrets {
			if strings.Contains(text, s) {
				t.Errorf("%s contains a secret (%q...)", filepath.Base(f), s[:4])
			}
		}
	}
	if total < 10_000 {
		t.Errorf("only %d bytes of TRACE logs: logging did not take effect", total)
	}
	if !sawClientLog {
		t.Errorf("no log line of the provider's client subsystem: the request logs were not captured")
	}
	for _, st := range states {
		for _, s := range secrets {
			if strings.Contains(st, s) {
				t.Errorf("state contains a secret")
			}
		}
	}
}
