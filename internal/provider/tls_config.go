package provider

import (
	"crypto/tls"
	"fmt"
	"os"

	"github.com/hashicorp/terraform-plugin-framework/diag"
	"github.com/hashicorp/terraform-plugin-framework/path"

	"github.com/rms-labs/terraform-provider-rms/internal/client"
)

// tlsSettings gathers the TLS settings the client builds its transport
// from. Verification is on by default; a CA bundle adds private authorities
// to the system pool rather than replacing it; skipping verification is
// possible only explicitly, and then warned about on every run so it is
// never forgotten. clientCert, when not nil, is shown to servers that ask
// for one (mutual TLS). The bundle is checked here so that its diagnostic
// names the attribute.
func tlsSettings(caBundleFile string, insecure bool, clientCert *tls.Certificate) (client.TLS, diag.Diagnostics) {
	var diags diag.Diagnostics
	settings := client.TLS{InsecureSkipVerify: insecure, ClientCertificate: clientCert}
	if caBundleFile != "" {
		pem, err := os.ReadFile(caBundleFile)
		if err != nil {
			diags.AddAttributeError(path.Root(attrCABundleFile), "Unreadable CA bundle",
				fmt.Sprintf("Reading %q (from %s or %s): %s. Point it at a PEM file of certificate authorities.", caBundleFile, attrCABundleFile, envCABundleFile, err))
			return client.TLS{}, diags
		}
		if client.CheckCABundle(pem) != nil {
			diags.AddAttributeError(path.Root(attrCABundleFile), "Invalid CA bundle",
				fmt.Sprintf("%q holds no PEM certificate (a block starting with -----BEGIN CERTIFICATE-----).", caBundleFile))
			return client.TLS{}, diags
		}
		settings.CABundle = pem
	}
	if insecure {
		diags.AddAttributeWarning(path.Root(attrInsecureSkipVerify), "TLS certificate verification is disabled",
			"insecure_skip_verify is true: the provider accepts any certificate, so anyone between Terraform and the server can read the credentials and change answers. Use ca_bundle_file for a private certificate authority instead.")
	}
	return settings, diags
}
