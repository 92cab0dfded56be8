package operation

import (
	"context"
	"io"
	"time"

	"github.com/hashicorp/terraform-plugin-framework/diag"
	"github.com/hashicorp/terraform-plugin-framework/path"
	"github.com/hashicorp/terraform-plugin-log/tflog"

	"github.com/rms-labs/terraform-provider-rms/internal/client"
	"github.com/rms-labs/terraform-provider-rms/internal/contactsync"
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
	importID, ok := createImport(ctx, c, run, diags)
	if !ok {
		return "", false
	}
	return uploadImportFile(ctx, c, run, importID, diags)
}

// createImport runs step 1: it creates the import with the run's
// settings and hands its id to run.Created, and says whether the run goes
// on.
func createImport(ctx context.Context, c *client.Client, run ListImportRun, diags *diag.Diagnostics) (client.ID, bool) {
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
	if err != nil {
		addCreateImportError(diags, run, err)
		return "", false
	}
	tflog.Info(ctx, "created list import", map[string]any{"import_id": importID.String(), "list_id": run.ListID, "type": run.Type})
	if run.Created != nil && !run.Created(importID.String()) {
		return "", false
	}
	return importID, true
}

// uploadImportFile runs step 2: it uploads the file of the import, which
// starts its batch, and hands the batch to run.Uploaded. It answers the
// batch, and "" with ok when the service took the file without naming one
// (a warning says how to attach it): no failure, the import is kept
// without a batch to wait on.
func uploadImportFile(ctx context.Context, c *client.Client, run ListImportRun, importID client.ID, diags *diag.Diagnostics) (batchID string, ok bool) {
	batch, err := c.Imports.UploadOnce(ctx, run.ListID, importID.String(), run.Body)
	if client.IsActed(err) {
		warnBatchUnknown(diags, run, importID, err)
		return "", true
	}
	if err != nil {
		addUploadError(diags, run, importID, err)
		return "", false
	}
	tflog.Info(ctx, "uploaded list import file", map[string]any{"import_id": importID.String(), "batch_id": batch.String()})
	if run.Uploaded != nil && !run.Uploaded(batch.String()) {
		return "", false
	}
	return batch.String(), true
}
