package provider_test

import (
	"fmt"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/hashicorp/terraform-plugin-testing/helper/resource"

	"github.com/rms-labs/terraform-provider-rms/internal/acctest"
	"github.com/rms-labs/terraform-provider-rms/internal/emulator"
)

// An answer that proves a setting wrong fails the plan at the credentials
// check with an error naming the setting, instead of the warning of a
// service that could not be reached: a token URL the token endpoint
// answers 404 or 400, https:// to a server that speaks plain HTTP, http://
// to a server that speaks TLS. Nothing but the check reaches the service.
func TestAccCredentialsCheck_settingsProvedWrong(t *testing.T) {
	acctest.SkipUnlessAcceptance(t)
	for name, tc := range map[string]struct {
		// provider is the provider block; sent counts the requests the
		// server it names answered.
		provider func(t *testing.T) (block string, sent func() int64)
		want     []string
	}{
		"token URL answered 404": {
			provider: func(t *testing.T) (string, func() int64) {
				env := acctest.NewEnv(t, oauth2Opts())
				return oauth2Block(env.URL, env, env.URL+"/oauth/token"), func() int64 { return env.Emulator.Requests().ByStatus[404] }
			},
			want: []string{"Token endpoint refused the token request", "(HTTP 404)", "check that oauth2.token_url (or RMS_OAUTH2_TOKEN_URL) names the token endpoint"},
		},
		"token endpoint answered 400": {
			provider: func(t *testing.T) (string, func() int64) {
				env := acctest.NewEnv(t, oauth2Opts())
				var n atomic.Int64
				srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, _ *http.Request) {
					n.Add(1)
					w.Header().Set("Content-Type", "application/json")
					w.WriteHeader(http.StatusBadRequest)
					_, _ = w.Write([]byte(`{"error":"invalid_request","error_description":"the audience parameter is missing"}`))
				}))
				t.Cleanup(srv.Close)
				return oauth2Block(env.URL, env, srv.URL+"/token"), n.Load
			},
			want: []string{"Token endpoint refused the token request", "(HTTP 400): invalid_request: the audience parameter is missing", "oauth2.endpoint_params"},
		},
		"https to a plain-HTTP server": {
			provider: func(t *testing.T) (string, func() int64) {
				env := acctest.NewEnv(t, emulator.Options{})
				return providerWith(env, map[string]string{"base_url": fmt.Sprintf("%q", strings.Replace(env.URL, "http://", "https://", 1))}), func() int64 { return 1 }
			},
			want: []string{"TLS spoken to a plain-HTTP server", "server gave HTTP response to HTTPS client", "base_url (or RMS_BASE_URL) starts with https://, but the server there speaks plain HTTP", "Write http://"},
		},
		"http to a TLS server": {
			provider: func(t *testing.T) (string, func() int64) {
				em := emulator.New(emulator.Options{})
				srv := httptest.NewTLSServer(em)
				t.Cleanup(srv.Close)
				o := em.Options()
				block := fmt.Sprintf("provider \"rms\" {\n  base_url = %q\n  customer_id = %d\n  username = %q\n  password = %q\n}\n",
					strings.Replace(srv.URL, "https://", "http://", 1), o.CustomerID, o.Username, o.Password)
				return block, func() int64 { return 1 }
			},
			want: []string{"Plain HTTP spoken to a TLS server", "Client sent an HTTP request to an HTTPS server", "base_url (or RMS_BASE_URL) starts with http://, but the server there speaks TLS: write https://"},
		},
	} {
		t.Run(name, func(t *testing.T) {
			block, sent := tc.provider(t)
			start := time.Now()
			resource.ParallelTest(t, resource.TestCase{
				ProtoV6ProviderFactories: acctest.ProviderFactories(),
				Steps: []resource.TestStep{{
					Config:      block + createOnlyList,
					PlanOnly:    true,
					ExpectError: acctest.ExpectErrorParts(tc.want...),
				}},
			})
			if sent() == 0 {
				t.Error("the server the settings name was never asked")
			}
			// Neither is retried: a retry cannot change what the settings say.
			if d := time.Since(start); d > time.Minute {
				t.Errorf("the plan took %s", d)
			}
		})
	}
}

// oauth2Block is a provider block of env's account that authenticates with
// the client of oauth2Opts at tokenURL.
func oauth2Block(baseURL string, env *acctest.Env, tokenURL string) string {
	return providerWith(env, map[string]string{
		"base_url": fmt.Sprintf("%q", baseURL),
		"username": "", "password": "",
		"oauth2": fmt.Sprintf(`{ token_url = %q, client_id = "ci", client_secret = "s3cret" }`, tokenURL),
	})
}
