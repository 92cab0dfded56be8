// Package apidiag words the client's errors as diagnostics: what the
// service said, the attribute to blame, and what the user can do about it.
// The provider, its batch core and its operations all report the client's
// errors through it, so that one error reads the same wherever it surfaces.
package apidiag

import (
	"errors"

	"github.com/hashicorp/terraform-plugin-framework/diag"
	"github.com/hashicorp/terraform-plugin-framework/path"

	"github.com/rms-labs/terraform-provider-rms/internal/client"
)

// Add turns a client error into a diagnostic. A validation error
// whose field maps to an attribute is attached to that attribute, so
// Terraform points at the line to fix; fields maps the service's field names
// onto attribute paths.
func Add(diags *diag.Diagnostics, summary string, err error, fields map[string]path.Path) {
	detail := Describe(err)
	if field := client.RefusedField(err); field != "" {
		if p, ok := fields[field]; ok {
			diags.AddAttributeError(p, summary, detail)
			return
		}
	}
	diags.AddError(summary, detail)
}

// Describe explains an error in the words a user needs: what the
// service said and what to do about it.
func Describe(err error) string {
	if id, made := client.MadeID(err); made {
		return err.Error() + "\n\nThe service carried out the write (it answered with success), so Terraform recorded object " + id +
			" in state rather than leave it behind: a create is saved as tainted, so the next apply replaces it (or `terraform untaint` keeps it once `terraform plan` reads it fine). If the service's answers keep failing to read, report the answer shown above."
	}
	if errors.Is(err, client.ErrPagingIgnored) {
		return err.Error()
	}
	if te := (*client.TokenError)(nil); errors.As(err, &te) {
		return err.Error() + "\n\n" + tokenHint(te)
	}
	if _, ok := client.AsAPIError(err); !ok {
		if client.IsUntrustedCertificate(err) {
			return err.Error() + "\n\nThe server's TLS certificate is not trusted. If it is signed by a private certificate authority, set ca_bundle_file (or RMS_CA_BUNDLE_FILE) to a PEM file of that authority."
		}
		if client.IsClientCertificateRefused(err) {
			return err.Error() + "\n\nThe server requires a client certificate (mutual TLS) and refused the connection without one it accepts. Set client_certificate_file and client_key_file (or RMS_CLIENT_CERTIFICATE_FILE and RMS_CLIENT_KEY_FILE), or client_certificate_pem and client_key_pem, to a certificate signed by an authority the server trusts."
		}
		return err.Error()
	}
	for _, h := range apiErrorHints {
		if errors.Is(err, h.kind) {
			return err.Error() + "\n\n" + h.hint
		}
	}
	return err.Error()
}

// apiErrorHints holds what to do about each kind of service error, in the
// order they are tried: an error of several kinds gets the first one's hint.
var apiErrorHints = []struct {
	kind error
	hint string
}{
	{client.ErrUnauthorized, "Check username and password (or RMS_USERNAME and RMS_PASSWORD), or token (or RMS_TOKEN) or oauth2 (or RMS_OAUTH2_CLIENT_ID and RMS_OAUTH2_CLIENT_SECRET) if the account uses one: the service refused the credentials."},
	{client.ErrForbidden, "Check customer_id (or RMS_CUSTOMER_ID): the credentials do not belong to that account."},
	{client.ErrGone, "The service has retired this resource; its reason is above. It cannot be managed through this path any more."},
	{client.ErrRateLimited, "The service kept rate-limiting after all retries; lower max_requests_per_second or -parallelism, or raise max_retries."},
	{client.ErrServerFailed, "The service failed; retry later."},
	{client.ErrNotFound, "The service does not know this object or path: check the id in the configuration; an object deleted outside Terraform is re-created by the next apply of its resource."},
	{client.ErrValidation, "The service refused the request as invalid: check the values of the configuration against what the service accepts (the message above names what it refused, when it said)."},
	{client.ErrNotSupported, "The service does not offer this call here: check that base_url names the account's server and that the collection supports the operation."},
}
