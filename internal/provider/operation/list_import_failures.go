package operation

import (
	"errors"
	"fmt"
	"strings"

	"github.com/hashicorp/terraform-plugin-framework/diag"
	"github.com/hashicorp/terraform-plugin-framework/path"

	"github.com/rms-labs/terraform-provider-rms/internal/client"
	"github.com/rms-labs/terraform-provider-rms/internal/provider/apidiag"
)

// The diagnostics of a list import that could not start: each says what
// the service may hold now, so that a user neither imports a file twice
// nor looks for what was never made.

// addCreateImportError reports a failed step 1 (creating the import).
func addCreateImportError(diags *diag.Diagnostics, run ListImportRun, err error) {
	var amb *client.AmbiguousError
	if errors.As(err, &amb) {
		diags.AddError("Unable to tell which import was created",
			fmt.Sprintf("Creating the %s import into list %s got no answer, and reading the list's imports back found %d imports with the same settings created just now and no file yet (import ids %s): the provider cannot tell which one this run made, so it uses none and creates none. "+
				"An import without a file has not changed the list.\n\n%s", run.Type, run.ListID, len(amb.IDs), strings.Join(amb.IDs, ", "), run.RetryNote))
		return
	}
	if client.IsUncertain(err) {
		// Checked before a 404: the 404 may be the imports listing's (a
		// service without it), not the list's.
		diags.AddError("Unable to create the import",
			fmt.Sprintf("%s\n\nCreating the %s import into list %s may have made an import (without its file, so the list is unchanged), which could not be read back by the list's imports. Nothing is uploaded; an import without a file has no effect and needs no clean-up. %s",
				apidiag.Describe(err), run.Type, run.ListID, run.RetryNote))
		return
	}
	if client.IsNotFound(err) {
		diags.AddAttributeError(path.Root("list_id"), "List not found",
			fmt.Sprintf("No list has id %q in this account: %s", run.ListID, apidiag.Describe(err)))
		return
	}
	apidiag.Add(diags, "Unable to create the import", err, importFields)
}

// warnBatchUnknown says what to do when the service took the file (it
// answered with success) but named no batch, and it has no listing of
// imports to find it by. Uploading again would import the file twice: what
// is known is kept, and the warning says how to attach the batch. It shows
// the raw error, not apidiag.Describe: the hint for the listing's 404
// ("re-created by the next apply") would be wrong here.
func warnBatchUnknown(diags *diag.Diagnostics, run ListImportRun, importID client.ID, err error) {
	diags.AddWarning("Import file accepted, its batch unknown",
		fmt.Sprintf("The service accepted the file of import %s into list %s but its answer named no batch, and the list's imports could not be read back to find it: %s\n\n"+
			"The file is not uploaded again. Terraform records the import without its batch, so status and counts stay unknown. To follow the batch, find its id in the service and run "+
			"`terraform import rms_list_import.<name> %s/%s/%s/<batch_id>` (after `terraform state rm` of this one).",
			importID, run.ListID, err, run.ListID, run.Type, importID))
}

// addUploadError reports a failed step 2 (uploading the file).
func addUploadError(diags *diag.Diagnostics, run ListImportRun, importID client.ID, err error) {
	if client.IsUncertain(err) {
		// Every read-back found the import without a batch, or could not
		// be made: name the import, so that a batch that did start can be
		// found and imported rather than the file imported again.
		diags.AddError("Unable to upload the import file",
			fmt.Sprintf("%s\n\nThe upload of import %s into list %s got no answer. If the service received it, the import now has a batch (GET .../lists/%s/imports shows its batchId): "+
				"import it with `terraform import rms_list_import.<name> %s/%s/%s/<batch_id>` instead of importing the file again. %s",
				apidiag.Describe(err), importID, run.ListID, run.ListID, run.ListID, run.Type, importID, run.RetryNote))
		return
	}
	if errors.Is(err, client.ErrMalformed) && client.RefusedField(err) == "" {
		diags.AddAttributeError(run.FileAttr, "Import file refused", apidiag.Describe(err)+"\n\n"+run.RetryNote)
		return
	}
	apidiag.Add(diags, "Unable to upload the import file", err, importFields)
}
