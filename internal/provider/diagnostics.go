package provider

import (
	"github.com/hashicorp/terraform-plugin-framework/diag"
	"github.com/hashicorp/terraform-plugin-framework/path"

	"github.com/rms-labs/terraform-provider-rms/internal/provider/apidiag"
)

// Diagnostics of the client's errors. The wording lives in apidiag, which
// the batch core and the operations below this package share; these are
// the names the provider's own files call it by.

// addAPIError turns a client error into a diagnostic, on the attribute that
// fields maps the service's refused field to when there is one.
func addAPIError(diags *diag.Diagnostics, summary string, err error, fields map[string]path.Path) {
	apidiag.Add(diags, summary, err, fields)
}

// describeAPIError explains an error in the words a user needs: what the
// service said and what to do about it.
func describeAPIError(err error) string {
	return apidiag.Describe(err)
}
