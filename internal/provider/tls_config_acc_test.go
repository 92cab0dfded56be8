package provider_test

import (
	"encoding/pem"
	"fmt"
	"net/http/httptest"
	"os"
	"path/filepath"
	"testing"

	"github.com/rms-labs/terraform-provider-rms/internal/acctest"
	"github.com/rms-labs/terraform-provider-rms/internal/emulator"
)

// TestAccProvider_tls runs the emulator behind TLS with a certificate no
// system trusts: verification refuses it with a hint, and a CA bundle or the
// explicit insecure switch let the apply through.
func TestAccProvider_tls(t *testing.T) {
	acctest.SkipUnlessAcceptance(t)
	em := emulator.New(emulator.Options{})
	srv := httptest.NewTLSServer(em)
	t.Cleanup(srv.Close)
	bundle := filepath.Join(t.TempDir(), "ca.pem")
	if err := os.WriteFile(bundle, pem.EncodeToMemory(&pem.Block{Type: "CERTIFICATE", Bytes: srv.Certificate().Raw}), 0o600); err != nil {
		t.Fatal(err)
	}
	o := em.Options()
	provider := func(extra string) string {
		return fmt.Sprintf(`
provider "rms" {
  base_url    = %q
  customer_id = %d
  username    = %q
  password    = %q
  %s
}
`, srv.URL, o.CustomerID, o.Username, o.Password, extra)
	}
	testConnectionCases(t, provider, map[string]connectionCase{
		"untrusted certificate":  {wantErr: true},
		"private CA bundle":      {extra: fmt.Sprintf("ca_bundle_file = %q", bundle)},
		"explicit insecure mode": {extra: "insecure_skip_verify = true"},
	}, "certificate", "set ca_bundle_file")
}
