package provider

import (
	"context"
	"errors"

	"github.com/hashicorp/terraform-plugin-framework/diag"
	"github.com/hashicorp/terraform-plugin-framework/path"
	"github.com/hashicorp/terraform-plugin-log/tflog"

	"github.com/rms-labs/terraform-provider-rms/internal/client"
)

// credentialsCheckNote says why a configure-time failure stops the plan.
const credentialsCheckNote = "The provider checks its credentials with one read-only request (" +
	"GET /rest/{customer_id}/projects?page=0&pageSize=1) each time Terraform configures it, so that a plan fails here rather than the apply after it."

// checkCredentials proves the configured credentials and customer id with
// one read-only request (client.CheckCredentials), so that `terraform plan`
// of a configuration that only creates fails on a wrong password, token or
// customer id as a refresh would, instead of passing review and failing at
// apply. Configure calls it once per ConfigureProvider call, only when the
// whole configuration is known; Terraform does not configure the provider
// for `terraform validate` nor to call provider functions.
//
// A service that cannot answer (network errors, 429 or 5xx after the
// retries) fails the check too: a refresh would fail the same way, and a
// plan that only creates would be reviewed and then fail at apply. The
// message says the service, not the credentials, is at fault.
func checkCredentials(ctx context.Context, d *providerData, diags *diag.Diagnostics) {
	tflog.Debug(ctx, "checking the credentials", map[string]any{"call": client.CredentialsCheckCall})
	err := d.client.CheckCredentials(ctx)
	if err == nil {
		return
	}
	detail := describeAPIError(err) + "\n\n" + credentialsCheckNote
	switch {
	case errors.Is(err, client.ErrUnauthorized):
		attr := attrPassword
		if d.bearerToken {
			attr = attrToken
		}
		diags.AddAttributeError(path.Root(attr), "Credentials refused by the service", detail)
	case errors.Is(err, client.ErrForbidden):
		diags.AddAttributeError(path.Root(attrCustomerID), "Customer id refused by the service", detail)
	default:
		if _, ok := client.AsAPIError(err); !ok && !isCertificateError(err) && !isClientCertificateRefused(err) {
			detail = describeAPIError(err) + "\n\nThe service could not be reached: check that " + attrBaseURL + " (or " + envBaseURL +
				") names the account's server and that it can be reached from here, or retry once it answers.\n\n" + credentialsCheckNote
		}
		diags.AddError("Unable to check the credentials", detail)
	}
}
