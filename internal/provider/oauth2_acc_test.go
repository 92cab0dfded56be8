package provider_test

import (
	"archive/zip"
	"bytes"
	"fmt"
	"io"
	"os"
	"strings"
	"testing"
	"time"

	"github.com/hashicorp/terraform-plugin-testing/helper/resource"
	"github.com/hashicorp/terraform-plugin-testing/terraform"

	"github.com/rms-labs/terraform-provider-rms/internal/acctest"
	"github.com/rms-labs/terraform-provider-rms/internal/emulator"
)

const (
	oauth2ClientID = "ci-pipeline"
	oauth2Secret   = "s3cret-from-the-vault"
)

// oauth2Env serves an account of one OAuth 2.0 client whose tokens live
// ttl. It keeps the default Basic user for the test's own out-of-band
// calls; the provider never uses it.
func oauth2Env(t *testing.T, ttl time.Duration, opts emulator.Options) *acctest.Env {
	opts.Username = emulator.DefaultUsername
	opts.OAuth2Clients = map[string]string{oauth2ClientID: oauth2Secret}
	opts.TokenTTL = ttl
	return acctest.NewEnv(t, opts)
}

// oauth2Provider is a provider block of client credentials with secret
// (HCL, quoted or an expression).
func oauth2Provider(env *acctest.Env, secret string) string {
	return fmt.Sprintf(`
provider "rms" {
  base_url            = %q
  customer_id         = %d
  batch_poll_interval = "1s"
  oauth2 = {
    token_url     = %q
    client_id     = %q
    client_secret = %s
  }
}
`, env.URL, env.CustomerID, env.URL+emulator.OAuth2TokenPath, oauth2ClientID, secret)
}

// An import whose batch runs for 9 s, against tokens that live 2 s, waits
// through several tokens and completes, with one token request per
// renewal: every token asked for is used. The client renews a token in
// its last tenth of life; that it does so before the token expires is
// proven on a fake clock (internal/client/oauth2_test.go), since here a
// loaded machine may let a request arrive after its token expired, which
// the client then renews once on the 401.
func TestAccOAuth2_tokenRenewedDuringLongWait(t *testing.T) {
	acctest.SkipUnlessAcceptance(t)
	env := oauth2Env(t, 2*time.Second, emulator.Options{BatchMinDuration: 9 * time.Second})
	list := importList(t, env)
	resource.ParallelTest(t, resource.TestCase{
		ProtoV6ProviderFactories: acctest.ProviderFactories(),
		Steps: []resource.TestStep{{
			Config: oauth2Provider(env, fmt.Sprintf("%q", oauth2Secret)) +
				importConfig(list, "ADD", heredocContent("originalId,email", "ada,ada@example.com", "bob,bob@example.com")),
			Check: resource.ComposeAggregateTestCheckFunc(
				resource.TestCheckResourceAttr(importAddr, "status", "FINISHED"),
				func(*terraform.State) error {
					tok := env.Emulator.OAuth2Tokens()
					st := env.Emulator.Requests()
					t.Logf("tokens: %+v; requests: %d, of which 401: %d", tok, st.Total, st.ByStatus[401])
					switch {
					case tok.Issued < 5:
						// 9 s of batch over tokens of 2 s needs at least 5
						// tokens for the wait alone.
						return fmt.Errorf("%d tokens issued, want at least 5: the wait outlives 4 tokens", tok.Issued)
					case tok.Presented != tok.Issued:
						return fmt.Errorf("%d tokens issued but %d used: a renewal asked more than once", tok.Issued, tok.Presented)
					case st.ByStatus[401] != tok.Expired:
						return fmt.Errorf("%d requests refused with 401, %d of them for an expired token: a refusal that was not a token's expiry", st.ByStatus[401], tok.Expired)
					case tok.Refused != 0:
						return fmt.Errorf("%d token requests refused, want none", tok.Refused)
					}
					return nil
				},
			),
		}},
	})
}

// expiringClock is an emulator clock that jumps two hours once the
// import's batch has been polled once: the token the wait holds then
// expires on the service long before the client expects it to (a clock
// ahead of the client's), and the batch finishes.
type expiringClock struct {
	base time.Time
	env  *acctest.Env
}

func (c *expiringClock) Now() time.Time {
	if c.env != nil && c.env.Emulator.Requests().ByRoute["GET /rest/{customerid}/batches/{batchId}"] > 0 {
		return c.base.Add(2 * time.Hour)
	}
	return c.base
}

// A token the service refuses in the middle of a wait is renewed at the
// first refusal, and the wait goes on: one 401, one more token.
func TestAccOAuth2_tokenRefusedDuringWait(t *testing.T) {
	acctest.SkipUnlessAcceptance(t)
	clock := &expiringClock{base: time.Now().UTC()}
	env := oauth2Env(t, time.Hour, emulator.Options{Now: clock.Now, BatchPendingFor: time.Hour})
	clock.env = env
	list := importList(t, env)
	resource.ParallelTest(t, resource.TestCase{
		ProtoV6ProviderFactories: acctest.ProviderFactories(),
		Steps: []resource.TestStep{{
			Config: oauth2Provider(env, fmt.Sprintf("%q", oauth2Secret)) +
				importConfig(list, "ADD", heredocContent("originalId,email", "ada,ada@example.com")),
			Check: resource.TestCheckResourceAttr(importAddr, "status", "FINISHED"),
		}},
	})
	tok, st := env.Emulator.OAuth2Tokens(), env.Emulator.Requests()
	if st.ByStatus[401] != 1 || tok.Expired != 1 {
		t.Errorf("%d requests refused with 401 (%d for an expired token), want the one poll after the jump", st.ByStatus[401], tok.Expired)
	}
	if tok.Presented != tok.Issued {
		t.Errorf("tokens %+v: a renewal asked more than once", tok)
	}
}

// A wrong client secret fails the plan, at the credentials check, before
// any call of the service: the token endpoint refuses the client.
func TestAccOAuth2_wrongSecretFailsPlan(t *testing.T) {
	acctest.SkipUnlessAcceptance(t)
	env := oauth2Env(t, time.Minute, emulator.Options{})
	resource.ParallelTest(t, resource.TestCase{
		ProtoV6ProviderFactories: acctest.ProviderFactories(),
		Steps: []resource.TestStep{{
			Config:      oauth2Provider(env, `"not-the-secret"`) + createOnlyList,
			PlanOnly:    true,
			ExpectError: acctest.ExpectErrorParts("Credentials refused by the service", "refused OAuth 2.0 client", "invalid_client", "the client id or secret is wrong"),
		}},
	})
	tok := env.Emulator.OAuth2Tokens()
	if tok.Issued != 0 || tok.Refused == 0 {
		t.Errorf("token endpoint: %+v, want only refusals", tok)
	}
	if st := env.Emulator.Requests(); st.ByCollection["projects"] != 0 || len(st.ByCollection) != 0 {
		t.Errorf("the service was called (%v) although no token was issued", st.ByCollection)
	}
}

// A client secret from an ephemeral variable (Terraform 1.10+) reaches
// neither the saved plan nor the state, while the same secret from an
// ordinary variable is in the saved plan: the check has teeth.
func TestAccOAuth2_ephemeralSecretNeverStored(t *testing.T) {
	acctest.SkipUnlessAcceptance(t)
	acctest.RequireCLI(t, "ephemeral variables", "1.10.0", "1.11.0")
	env := oauth2Env(t, time.Minute, emulator.Options{})
	for _, tc := range []struct {
		name       string
		ephemeral  bool
		wantInPlan bool
	}{
		{"ephemeral variable", true, false},
		{"ordinary variable", false, true},
	} {
		t.Run(tc.name, func(t *testing.T) {
			w := acctest.NewWorkspace(t)
			w.ConfigureWith(oauth2Provider(env, "var.client_secret"), fmt.Sprintf(`
variable "client_secret" {
  type      = string
  sensitive = true
  ephemeral = %t
}

resource "rms_project" "p" { name = %q }
`, tc.ephemeral, "oauth2 "+tc.name))
			w.Env = []string{"TF_VAR_client_secret=" + oauth2Secret}
			if out, code := w.Run("plan", "-no-color", "-out=tfplan"); code != 0 {
				t.Fatalf("plan: %s", out)
			}
			plan := zipText(t, w.Path("tfplan"))
			if got := strings.Contains(plan, oauth2Secret); got != tc.wantInPlan {
				t.Fatalf("secret in the saved plan: %t, want %t", got, tc.wantInPlan)
			}
			if !strings.Contains(plan, "oauth2 "+tc.name) {
				t.Fatalf("the saved plan does not hold the project's name: the search cannot see into it")
			}
			if out, code := w.Run("apply", "-no-color", "tfplan"); code != 0 {
				t.Fatalf("apply: %s", out)
			}
			state, err := os.ReadFile(w.Path("terraform.tfstate"))
			if err != nil {
				t.Fatal(err)
			}
			if bytes.Contains(state, []byte(oauth2Secret)) || bytes.Contains(state, []byte("Bearer")) {
				t.Errorf("the state holds the secret or a token")
			}
			if out, code := w.Run("destroy", "-no-color", "-auto-approve"); code != 0 {
				t.Fatalf("destroy: %s", out)
			}
		})
	}
	if tok := env.Emulator.OAuth2Tokens(); tok.Issued == 0 || tok.Expired != 0 {
		t.Errorf("token endpoint: %+v, want tokens issued and none expired", tok)
	}
}

// zipText is the text of every file of a zip archive (a saved plan).
func zipText(t *testing.T, name string) string {
	t.Helper()
	zr, err := zip.OpenReader(name)
	if err != nil {
		t.Fatal(err)
	}
	defer func() { _ = zr.Close() }()
	var b strings.Builder
	for _, f := range zr.File {
		rc, err := f.Open()
		if err != nil {
			t.Fatal(err)
		}
		if _, err := io.Copy(&b, rc); err != nil {
			t.Fatal(err)
		}
		_ = rc.Close()
	}
	return b.String()
}

// endpoint_params go with the token request (what they carry is
// internal/client's TestOAuth2EndpointParams): an audience does not
// disturb a token endpoint that does not use it, and a parameter of the
// flow itself is refused at plan, naming the attribute.
func TestAccOAuth2_endpointParams(t *testing.T) {
	acctest.SkipUnlessAcceptance(t)
	env := oauth2Env(t, time.Minute, emulator.Options{})
	withParams := func(params string) string {
		return strings.Replace(oauth2Provider(env, `"`+oauth2Secret+`"`), "  oauth2 = {\n", "  oauth2 = {\n    endpoint_params = "+params+"\n", 1) + createOnlyList
	}
	resource.ParallelTest(t, resource.TestCase{
		ProtoV6ProviderFactories: acctest.ProviderFactories(),
		Steps: []resource.TestStep{
			{
				Config:      withParams(`{ scope = "lists" }`),
				PlanOnly:    true,
				ExpectError: acctest.ExpectErrorParts("Reserved token request parameter", "oauth2.endpoint_params sets \"scope\"", "set oauth2.scopes instead"),
			},
			{
				Config: withParams(`{ audience = "https://api.example.com" }`),
				Check: func(*terraform.State) error {
					if tok := env.Emulator.OAuth2Tokens(); tok.Issued == 0 {
						return fmt.Errorf("token endpoint: %+v, want tokens issued", tok)
					}
					return nil
				},
			},
		},
	})
}
