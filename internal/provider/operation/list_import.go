package operation

import (
	"context"
	"errors"
	"fmt"
	"io"
	"strings"
	"time"

	"github.com/hashicorp/terraform-plugin-framework/diag"
	"github.com/hashicorp/terraform-plugin-framework/path"
	"github.com/hashicorp/terraform-plugin-log/tflog"

	"github.com/rms-labs/terraform-provider-rms/internal/client"
	"github.com/rms-labs/terraform-provider-rms/internal/contactsync"
	"github.com/rms-labs/terraform-provider-rms/internal/provider/apidiag"
	"github.com/rms-labs/terraform-provider-rms/internal/provider/batchcore"
)

// The list import, run by the rms_list_import resource, the
// rms_run_list_import action and rms_list_contacts' imports: both of the
// first two have the same argument names, so the diagnostics below name
// attributes of either.

// ListImport is the import's batch, for the batch core.
var ListImport = batchcore.Operation{
	What: "List import", Noun: "import", BatchType: client.BatchTypeImport,
	DefaultTimeout: 30 * time.Minute,
	PendingNote:    "Until the batch has finished, status, processed, affected and failed show it as last seen.",
	FailedNote:     "The next apply imports the file again.",
	Redo:           "imports the file again",

	BatchIDDescription:  "Id of the batch that applies the file (step 2); see the `rms_batch` data source.",
	TotalDescription:    "Rows of the file (without the header).",
	StartedDescription:  "When the service accepted the file (RFC 3339).",
	FinishedDescription: "When the batch finished (RFC 3339); null while it runs.",
}

// The defaults of the arguments the service needs and a configuration may
// leave out.
const (
	ImportDefaultDelimiter = ","
	ImportDefaultEncoding  = "UTF8"
)

// importFields maps the service's field names onto the arguments.
var importFields = map[string]path.Path{
	"delimiter":      path.Root("delimiter"),
	"encoding":       path.Root("encoding"),
	"type":           path.Root("type"),
	"identityColumn": path.Root("identity_column"),
}

// ListImportRun is one run of the service's three-step import.
type ListImportRun struct {
	ListID, Type, Delimiter, Encoding, IdentityColumn string

	// Body is what is uploaded; FileAttr names the argument it came from
	// (file or content), for a refused file.
	Body     io.ReadSeeker
	FileAttr path.Path
	// RetryNote says what happens after a failed upload.
	RetryNote string

	// Created and Uploaded see each id as soon as its step made it (the
	// resource saves state there); returning false stops the run.
	Created  func(importID string) bool
	Uploaded func(batchID string) bool
}

// StartListImport runs steps 1 and 2 of an import: it creates the import
// and uploads the file, which starts the batch that applies it. listings
// are the provider run's shared listings of lists' contacts.
func StartListImport(ctx context.Context, c *client.Client, listings *contactsync.Listings, run ListImportRun, diags *diag.Diagnostics) (batchID string, ok bool) {
	// An import changes the list as a whole: from here on, no rms_contact
	// refresh of this run answers from a listing of it.
	listings.ChangedList(run.ListID)
	if run.Delimiter == "" {
		run.Delimiter = ImportDefaultDelimiter
	}
	if run.Encoding == "" {
		run.Encoding = ImportDefaultEncoding
	}
	code, err := client.DelimiterCode(run.Delimiter)
	if err != nil { // the validator ran at plan time; this is a safety net
		diags.AddAttributeError(path.Root("delimiter"), "Invalid delimiter", err.Error())
		return "", false
	}
	// Both steps read back after an unknown outcome (see the client's
	// Imports.CreateOnce and Imports.UploadOnce): an import or upload the
	// service carried out is adopted, not made twice.
	importID, err := c.Imports.CreateOnce(ctx, run.ListID, client.ImportRequest{
		Delimiter:      code,
		Encoding:       run.Encoding,
		Type:           run.Type,
		IdentityColumn: run.IdentityColumn,
	})
	var amb *client.AmbiguousError
	if errors.As(err, &amb) {
		diags.AddError("Unable to tell which import was created",
			fmt.Sprintf("Creating the %s import into list %s got no answer, and reading the list's imports back found %d imports with the same settings created just now and no file yet (import ids %s): the provider cannot tell which one this run made, so it uses none and creates none. "+
				"An import without a file has not changed the list.\n\n%s", run.Type, run.ListID, len(amb.IDs), strings.Join(amb.IDs, ", "), run.RetryNote))
		return "", false
	}
	if client.IsUncertain(err) {
		// Checked before a 404: the 404 may be the imports listing's (a
		// service without it), not the list's.
		diags.AddError("Unable to create the import",
			fmt.Sprintf("%s\n\nCreating the %s import into list %s may have made an import (without its file, so the list is unchanged), which could not be read back by the list's imports. Nothing is uploaded; an import without a file has no effect and needs no clean-up. %s",
				apidiag.Describe(err), run.Type, run.ListID, run.RetryNote))
		return "", false
	}
	if client.IsNotFound(err) {
		diags.AddAttributeError(path.Root("list_id"), "List not found",
			fmt.Sprintf("No list has id %q in this account: %s", run.ListID, apidiag.Describe(err)))
		return "", false
	}
	if err != nil {
		apidiag.Add(diags, "Unable to create the import", err, importFields)
		return "", false
	}
	tflog.Info(ctx, "created list import", map[string]any{"import_id": importID.String(), "list_id": run.ListID, "type": run.Type})
	if run.Created != nil && !run.Created(importID.String()) {
		return "", false
	}

	batch, err := c.Imports.UploadOnce(ctx, run.ListID, importID.String(), run.Body)
	if client.IsActed(err) {
		// The service took the file (it answered with success) but named no
		// batch, and it has no listing of imports to find it by. Uploading
		// again would import the file twice: keep what is known and say
		// how to attach the batch. The raw error, not describeAPIError: the
		// hint for the listing's 404 ("re-created by the next apply") would
		// be wrong here.
		diags.AddWarning("Import file accepted, its batch unknown",
			fmt.Sprintf("The service accepted the file of import %s into list %s but its answer named no batch, and the list's imports could not be read back to find it: %s\n\n"+
				"The file is not uploaded again. Terraform records the import without its batch, so status and counts stay unknown. To follow the batch, find its id in the service and run "+
				"`terraform import rms_list_import.<name> %s/%s/%s/<batch_id>` (after `terraform state rm` of this one).",
				importID, run.ListID, err, run.ListID, run.Type, importID))
		return "", true
	}
	if err != nil {
		detail := apidiag.Describe(err) + "\n\n" + run.RetryNote
		if client.IsUncertain(err) {
			// Every read-back found the import without a batch, or could not
			// be made: name the import, so that a batch that did start can be
			// found and imported rather than the file imported again.
			diags.AddError("Unable to upload the import file",
				fmt.Sprintf("%s\n\nThe upload of import %s into list %s got no answer. If the service received it, the import now has a batch (GET .../lists/%s/imports shows its batchId): "+
					"import it with `terraform import rms_list_import.<name> %s/%s/%s/<batch_id>` instead of importing the file again. %s",
					apidiag.Describe(err), importID, run.ListID, run.ListID, run.ListID, run.Type, importID, run.RetryNote))
			return "", false
		}
		if errors.Is(err, client.ErrMalformed) && client.RefusedField(err) == "" {
			diags.AddAttributeError(run.FileAttr, "Import file refused", detail)
		} else {
			apidiag.Add(diags, "Unable to upload the import file", err, importFields)
		}
		return "", false
	}
	tflog.Info(ctx, "uploaded list import file", map[string]any{"import_id": importID.String(), "batch_id": batch.String()})
	if run.Uploaded != nil && !run.Uploaded(batch.String()) {
		return "", false
	}
	return batch.String(), true
}
