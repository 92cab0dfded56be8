package provider_test

import (
	"fmt"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"sync"
	"testing"

	"github.com/hashicorp/terraform-plugin-testing/helper/resource"
	"github.com/hashicorp/terraform-plugin-testing/knownvalue"
	"github.com/hashicorp/terraform-plugin-testing/statecheck"
	"github.com/hashicorp/terraform-plugin-testing/terraform"
	"github.com/hashicorp/terraform-plugin-testing/tfjsonpath"

	"github.com/rms-labs/terraform-provider-rms/internal/acctest"
	"github.com/rms-labs/terraform-provider-rms/internal/emulator"
	"github.com/rms-labs/terraform-provider-rms/internal/testpki"
)

// headerRecorder fronts an emulator and keeps the headers of every request
// to the account's API, so a test can see what the provider really sent.
type headerRecorder struct {
	next http.Handler
	mu   sync.Mutex
	seen []http.Header
}

func (h *headerRecorder) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	if strings.HasPrefix(r.URL.Path, "/rest/") {
		h.mu.Lock()
		h.seen = append(h.seen, r.Header.Clone())
		h.mu.Unlock()
	}
	h.next.ServeHTTP(w, r)
}

func (h *headerRecorder) all() []http.Header {
	h.mu.Lock()
	defer h.mu.Unlock()
	return append([]http.Header(nil), h.seen...)
}

var userAgentPattern = regexp.MustCompile(`^terraform-provider-rms/\S+ \(\+https://registry\.terraform\.io/providers/rms-labs/rms\) Terraform/\d+\.\d+\.\d+`)

// TestAccProvider_tokenAndHeaders applies against a token-only account: the
// token, the extra headers and the User-Agent naming the provider and
// Terraform versions reach the emulator on every request.
func TestAccProvider_tokenAndHeaders(t *testing.T) {
	acctest.SkipUnlessAcceptance(t)
	const token = "tok-acc-7781"
	em := emulator.New(emulator.Options{Token: token})
	rec := &headerRecorder{next: em}
	srv := httptest.NewServer(rec)
	t.Cleanup(srv.Close)
	config := fmt.Sprintf(`
provider "rms" {
  base_url    = %q
  customer_id = %d
  token       = %q
  headers = {
    "X-Gateway-Key" = "gk-1"
    "x-tenant"      = "blue"
  }
}
`, srv.URL, em.Options().CustomerID, token) + projectConfig("By token", "")
	resource.ParallelTest(t, resource.TestCase{
		ProtoV6ProviderFactories: acctest.ProviderFactories(),
		Steps: []resource.TestStep{{
			Config: config,
			ConfigStateChecks: []statecheck.StateCheck{
				statecheck.ExpectKnownValue("rms_project.test", tfjsonpath.New("name"), knownvalue.StringExact("By token")),
			},
			Check: func(*terraform.State) error {
				seen := rec.all()
				if len(seen) == 0 {
					return fmt.Errorf("no request reached the emulator")
				}
				for i, h := range seen {
					if got := h.Get("Authorization"); got != "Bearer "+token {
						return fmt.Errorf("request %d: Authorization %q", i, got)
					}
					if h.Get("X-Gateway-Key") != "gk-1" || h.Get("X-Tenant") != "blue" {
						return fmt.Errorf("request %d lacks the extra headers: %v", i, h)
					}
					if ua := h.Get("User-Agent"); !userAgentPattern.MatchString(ua) {
						return fmt.Errorf("request %d: User-Agent %q does not match %s", i, ua, userAgentPattern)
					}
				}
				return nil
			},
		}},
	})
}

// TestAccProvider_mutualTLS serves the emulator over HTTPS requiring a
// client certificate: the provider trusts the test CA through
// ca_bundle_file; an apply works with the client certificate, as files or
// as PEM text, and fails with a diagnostic saying what to set without it.
func TestAccProvider_mutualTLS(t *testing.T) {
	acctest.SkipUnlessAcceptance(t)
	dir := t.TempDir()
	ca := testpki.NewCA(t, "acc CA")
	server := ca.Server(t)
	client := ca.Client(t, "terraform")
	certFile, keyFile := client.WriteFiles(t, dir, "client")
	bundle := filepath.Join(dir, "ca.pem")
	if err := os.WriteFile(bundle, ca.CertPEM, 0o600); err != nil {
		t.Fatal(err)
	}
	l, err := emulator.ListenTLS("127.0.0.1:0", emulator.TLS{CertPEM: server.CertPEM, KeyPEM: server.KeyPEM, ClientCAPEM: ca.CertPEM}, emulator.Options{})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = l.Close() })
	o := l.Server.Options()
	provider := func(extra string) string {
		return fmt.Sprintf(`
provider "rms" {
  base_url       = %q
  customer_id    = %d
  username       = %q
  password       = %q
  ca_bundle_file = %q
  max_retries    = 0
  %s
}
`, l.URL, o.CustomerID, o.Username, o.Password, bundle, extra)
	}
	testConnectionCases(t, provider, map[string]connectionCase{
		"client certificate files": {extra: fmt.Sprintf("client_certificate_file = %q\n  client_key_file = %q", certFile, keyFile)},
		"client certificate PEM":   {extra: fmt.Sprintf("client_certificate_pem = %q\n  client_key_pem = %q", client.CertPEM, client.KeyPEM)},
		"no client certificate":    {wantErr: true},
	}, "requires a client certificate", "client_certificate_file and client_key_file")
}
