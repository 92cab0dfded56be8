package provider

import (
	"crypto/tls"
	"crypto/x509"
	"fmt"
	"net/http"
	"os"

	"github.com/hashicorp/terraform-plugin-framework/diag"
	"github.com/hashicorp/terraform-plugin-framework/path"
)

// newTransport builds the HTTP transport's TLS settings. Verification is on
// by default; a CA bundle adds private authorities to the system pool rather
// than replacing it; skipping verification is possible only explicitly, and
// then warned about on every run so it is never forgotten. clientCert, when
// not nil, is shown to servers that ask for one (mutual TLS).
func newTransport(caBundleFile string, insecure bool, clientCert *tls.Certificate) (http.RoundTripper, diag.Diagnostics) {
	var diags diag.Diagnostics
	t := http.DefaultTransport.(*http.Transport).Clone()
	t.TLSClientConfig = &tls.Config{MinVersion: tls.VersionTLS12}
	if clientCert != nil {
		t.TLSClientConfig.Certificates = []tls.Certificate{*clientCert}
	}
	if caBundleFile != "" {
		pem, err := os.ReadFile(caBundleFile)
		if err != nil {
			diags.AddAttributeError(path.Root(attrCABundleFile), "Unreadable CA bundle",
				fmt.Sprintf("Reading %q (from %s or %s): %s. Point it at a PEM file of certificate authorities.", caBundleFile, attrCABundleFile, envCABundleFile, err))
			return nil, diags
		}
		pool, err := x509.SystemCertPool()
		if err != nil || pool == nil {
			pool = x509.NewCertPool()
		}
		if !pool.AppendCertsFromPEM(pem) {
			diags.AddAttributeError(path.Root(attrCABundleFile), "Invalid CA bundle",
				fmt.Sprintf("%q holds no PEM certificate (a block starting with -----BEGIN CERTIFICATE-----).", caBundleFile))
			return nil, diags
		}
		t.TLSClientConfig.RootCAs = pool
	}
	if insecure {
		t.TLSClientConfig.InsecureSkipVerify = true //nolint:gosec // explicit user choice, warned on every run
		diags.AddAttributeWarning(path.Root(attrInsecureSkipVerify), "TLS certificate verification is disabled",
			"insecure_skip_verify is true: the provider accepts any certificate, so anyone between Terraform and the server can read the credentials and change answers. Use ca_bundle_file for a private certificate authority instead.")
	}
	return t, diags
}
