package provider

import (
	"context"
	"errors"

	"github.com/hashicorp/terraform-plugin-framework/diag"
	"github.com/hashicorp/terraform-plugin-framework/path"
	"github.com/hashicorp/terraform-plugin-log/tflog"

	"github.com/rms-labs/terraform-provider-rms/internal/client"
)

// credentialsCheckNote says why a refusal at configure time stops the plan.
const credentialsCheckNote = "The provider checks its credentials with one read-only request (" + client.CredentialsCheckCall +
	") each time Terraform configures it, so that a plan fails here rather than the apply after it."

// credentialsUncheckedNote says what a check without an answer means.
const credentialsUncheckedNote = "The provider checks its credentials with one read-only request (" + client.CredentialsCheckCall +
	") each time Terraform configures it, and got no answer about them: Terraform goes on, and whatever needs the service fails at its own request."

// checkCredentials proves the configured credentials and customer id with
// one read-only request (client.CheckCredentials), so that `terraform plan`
// of a configuration that only creates fails on a wrong password, token or
// customer id as a refresh would, instead of passing review and failing at
// apply. Configure calls it once per ConfigureProvider call, only when the
// whole configuration is known; Terraform does not configure the provider
// for `terraform validate` nor to call provider functions.
//
// Only an answer about the credentials or the settings fails the plan: a
// refusal (401, 403), a TLS failure, which a setting fixes (ca_bundle_file,
// the client certificate) and every call would meet, a token endpoint's
// client error or a scheme that does not match the server's
// (credentials_check_settings.go). A service that cannot answer
// (network errors, 429 or 5xx after the retries) proves nothing either
// way: the check warns and the plan goes on, so that `terraform plan
// -refresh=false` still works while the service is away, and a plan that
// needs the service fails at its own calls with their own diagnostics.
func checkCredentials(ctx context.Context, d *providerData, diags *diag.Diagnostics) {
	tflog.Debug(ctx, "checking the credentials", map[string]any{"call": client.CredentialsCheckCall})
	err := d.client.CheckCredentials(ctx)
	if err == nil {
		return
	}
	said := describeAPIError(err)
	refused := said + "\n\n" + credentialsCheckNote
	switch {
	case errors.Is(err, client.ErrUnauthorized):
		attr := path.Root(attrPassword)
		switch {
		case d.bearerToken:
			attr = path.Root(attrToken)
		case d.oauth2:
			attr = oauth2RefusalPath(err)
		}
		diags.AddAttributeError(attr, "Credentials refused by the service", refused)
	case d.oauth2 && errors.Is(err, client.ErrForbidden) && errors.As(err, new(*client.TokenError)):
		diags.AddAttributeError(oauth2RefusalPath(err), "Credentials refused by the token endpoint", refused)
	case errors.Is(err, client.ErrForbidden):
		diags.AddAttributeError(path.Root(attrCustomerID), "Customer id refused by the service", refused)
	case client.IsUntrustedCertificate(err) || client.IsClientCertificateRefused(err):
		diags.AddError("Unable to check the credentials", refused)
	case settingsFault(err, said, diags):
	default:
		_, answered := client.AsAPIError(err)
		_, atToken := client.Fault(err)
		switch {
		case answered || errors.As(err, new(*client.TokenError)):
		case atToken:
			said += "\n\nThe token endpoint could not be reached: check that " + attrOAuth2 + "." + attrOAuth2TokenURL + " (or " + envOAuth2TokenURL +
				") names it and that it can be reached from here."
		default:
			said += "\n\nThe service could not be reached: check that " + attrBaseURL + " (or " + envBaseURL +
				") names the account's server and that it can be reached from here."
		}
		diags.AddWarning("Unable to check the credentials", said+"\n\n"+credentialsUncheckedNote)
	}
}
