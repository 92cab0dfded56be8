package provider

import (
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"strings"
	"time"

	"github.com/hashicorp/terraform-plugin-framework/diag"
	"github.com/hashicorp/terraform-plugin-framework/path"
	"github.com/hashicorp/terraform-plugin-framework/types"
	"github.com/hashicorp/terraform-plugin-log/tflog"

	"github.com/rms-labs/terraform-provider-rms/internal/client"
	"github.com/rms-labs/terraform-provider-rms/internal/validators"
)

// The list import operation, shared by the rms_list_import resource and the
// rms_run_list_import action: both have the same argument names, so the
// diagnostics below name attributes of either.

// listImportOperation is the import's batch, for the batch core.
var listImportOperation = batchOperation{
	what: "List import", noun: "import", batchType: client.BatchTypeImport,
	defaultTimeout: 30 * time.Minute,
	pendingNote:    "Until the batch has finished, status, processed, affected and failed show it as last seen.",
	failedNote:     "The next apply imports the file again.",
	redo:           "imports the file again",

	batchIDDescription:  "Id of the batch that applies the file (step 2); see the `rms_batch` data source.",
	totalDescription:    "Rows of the file (without the header).",
	startedDescription:  "When the service accepted the file (RFC 3339).",
	finishedDescription: "When the batch finished (RFC 3339); null while it runs.",
}

// The import's arguments, as the resource and the action both declare
// them. The resource adds importReplaceNote where a change runs a new
// import; an action has no state to compare with.
const (
	importListIDDescription = "Id of the list to import into, e.g. `rms_list.example.id`."
	importTypeDescription   = "What the import does: `ADD` (add the file's contacts; existing ones take the file's non-empty values), `REPLACE` (the file's contacts become the whole list) or `UNSUBSCRIBE` (contacts with a matching row are unsubscribed from e-mail)."
	importFileDescription   = "Path of the CSV file to import. Give `file` or `content`. The file is streamed to the service, never read into memory. " +
		"Its first row names the columns: the identity column (see `identity_column`) and contact attributes by name or id. " +
		"Before the import is created the file is read once: a header without the identity column under `delimiter` (the error names the delimiter that would find it) and, for `UTF8` and `UTF16`, bytes not valid in `encoding` (the error names the first bad line) are refused, and nothing is sent to the service."
	importDelimiterDescription = "The column delimiter of the file, as the character itself: `\",\"` (default), `\";\"`, `\"\\t\"` for a tab, `\"|\"`. The provider sends the service its decimal ASCII code."
	importEncodingDescription  = "Encoding of the file: `UTF8` (default; a byte order mark is ignored), `UTF16` (byte order from its byte order mark, little-endian without one), `ISO-8859-1` or `ANSI` (Windows-1252)."
	importIdentityDescription  = "Name of the file column that identifies contacts; its value is each contact's `original_id`. Any column may serve, such as `email`; a column that names an attribute of the account also sets that attribute. When not set, the file must have an `originalId` column."
	importReplaceNote          = " Changing it runs a new import."
)

// The defaults of the arguments the service needs and a configuration may
// leave out.
const (
	importDefaultDelimiter = ","
	importDefaultEncoding  = "UTF8"
)

// importFields maps the service's field names onto the arguments.
var importFields = map[string]path.Path{
	"delimiter":      path.Root("delimiter"),
	"encoding":       path.Root("encoding"),
	"type":           path.Root("type"),
	"identityColumn": path.Root("identity_column"),
}

var (
	importTypeValidator     = validators.Enum{Allowed: client.ImportTypes}
	importEncodingValidator = validators.Enum{Allowed: client.ImportEncodings, Hints: map[string]string{
		"UTF-8": "UTF8", "UTF-16": "UTF16", "UTF-16LE": "UTF16", "UTF-16BE": "UTF16",
		"LATIN1": "ISO-8859-1", "LATIN-1": "ISO-8859-1", "ISO8859-1": "ISO-8859-1",
		"WINDOWS-1252": "ANSI", "CP1252": "ANSI",
	}}
)

// listImportArgs are the import's arguments: the resource's model and the
// action's both embed them.
type listImportArgs struct {
	ListID         types.String `tfsdk:"list_id"`
	Type           types.String `tfsdk:"type"`
	File           types.String `tfsdk:"file"`
	Content        types.String `tfsdk:"content"`
	Delimiter      types.String `tfsdk:"delimiter"`
	Encoding       types.String `tfsdk:"encoding"`
	IdentityColumn types.String `tfsdk:"identity_column"`

	unsubscribeLimitArgs // max_unsubscribe, max_unsubscribe_percent (list_import_guardrail.go)
}

// run is the run these arguments ask for, uploading body (see
// openImportBody); the caller adds what it needs to see of each step.
func (a listImportArgs) run(body io.ReadSeeker, retryNote string) listImportRun {
	return listImportRun{
		ListID: a.ListID.ValueString(), Type: a.Type.ValueString(), Delimiter: a.Delimiter.ValueString(),
		Encoding: a.Encoding.ValueString(), IdentityColumn: a.IdentityColumn.ValueString(),
		Body: body, FileAttr: importFileAttr(a.File), RetryNote: retryNote,
	}
}

// listImportRun is one run of the service's three-step import.
type listImportRun struct {
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

// startListImport runs steps 1 and 2 of an import: it creates the import
// and uploads the file, which starts the batch that applies it.
func startListImport(ctx context.Context, data *providerData, run listImportRun, diags *diag.Diagnostics) (batchID string, ok bool) {
	c := data.client
	// An import changes the list as a whole: from here on, no rms_contact
	// refresh of this run answers from a listing of it.
	data.contacts.Listings.ChangedList(run.ListID)
	if run.Delimiter == "" {
		run.Delimiter = importDefaultDelimiter
	}
	if run.Encoding == "" {
		run.Encoding = importDefaultEncoding
	}
	code, err := client.DelimiterCode(run.Delimiter)
	if err != nil { // the validator ran at plan time; this is a safety net
		diags.AddAttributeError(path.Root("delimiter"), "Invalid delimiter", err.Error())
		return "", false
	}
	// Both steps read back after an unknown outcome (see the client's
	// CreateImportOnce and UploadImportOnce): an import or upload the
	// service carried out is adopted, not made twice.
	importID, err := c.CreateImportOnce(ctx, run.ListID, client.ImportRequest{
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
				describeAPIError(err), run.Type, run.ListID, run.RetryNote))
		return "", false
	}
	if client.IsNotFound(err) {
		diags.AddAttributeError(path.Root("list_id"), "List not found",
			fmt.Sprintf("No list has id %q in this account: %s", run.ListID, describeAPIError(err)))
		return "", false
	}
	if err != nil {
		addAPIError(diags, "Unable to create the import", err, importFields)
		return "", false
	}
	tflog.Info(ctx, "created list import", map[string]any{"import_id": importID.String(), "list_id": run.ListID, "type": run.Type})
	if run.Created != nil && !run.Created(importID.String()) {
		return "", false
	}

	batch, err := c.UploadImportOnce(ctx, run.ListID, importID.String(), run.Body)
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
		detail := describeAPIError(err) + "\n\n" + run.RetryNote
		if client.IsUncertain(err) {
			// Every read-back found the import without a batch, or could not
			// be made: name the import, so that a batch that did start can be
			// found and imported rather than the file imported again.
			diags.AddError("Unable to upload the import file",
				fmt.Sprintf("%s\n\nThe upload of import %s into list %s got no answer. If the service received it, the import now has a batch (GET .../lists/%s/imports shows its batchId): "+
					"import it with `terraform import rms_list_import.<name> %s/%s/%s/<batch_id>` instead of importing the file again. %s",
					describeAPIError(err), importID, run.ListID, run.ListID, run.ListID, run.Type, importID, run.RetryNote))
			return "", false
		}
		if errors.Is(err, client.ErrMalformed) && client.RefusedField(err) == "" {
			diags.AddAttributeError(run.FileAttr, "Import file refused", detail)
		} else {
			addAPIError(diags, "Unable to upload the import file", err, importFields)
		}
		return "", false
	}
	tflog.Info(ctx, "uploaded list import file", map[string]any{"import_id": importID.String(), "batch_id": batch.String()})
	if run.Uploaded != nil && !run.Uploaded(batch.String()) {
		return "", false
	}
	return batch.String(), true
}

// openImportBody opens what is to be uploaded: the file or the inline
// content. A file is checked against wantSHA256 (the hash planned for it)
// when one is given.
func openImportBody(file, content types.String, wantSHA256 string) (io.ReadSeeker, func(), error) {
	if file.IsNull() {
		return strings.NewReader(content.ValueString()), func() {}, nil
	}
	p := file.ValueString()
	sum, exists, err := hashFile(p)
	switch {
	case err != nil:
		return nil, nil, err
	case !exists:
		return nil, nil, fmt.Errorf("there is no file at %q; a relative path is relative to the directory Terraform runs in", p)
	case wantSHA256 != "" && sum != wantSHA256:
		return nil, nil, fmt.Errorf("%s changed after the plan was made (its SHA-256 is %s, the plan has %s); plan and apply again", p, sum, wantSHA256)
	}
	f, err := os.Open(p)
	if err != nil {
		return nil, nil, err
	}
	return f, func() { _ = f.Close() }, nil
}

// importFileAttr is the argument the uploaded data came from.
func importFileAttr(file types.String) path.Path {
	if file.IsNull() {
		return path.Root("content")
	}
	return path.Root("file")
}
