package provider

import (
	"fmt"
	"io"
	"os"
	"strings"

	"github.com/hashicorp/terraform-plugin-framework/path"
	"github.com/hashicorp/terraform-plugin-framework/types"

	"github.com/rms-labs/terraform-provider-rms/internal/client"
	"github.com/rms-labs/terraform-provider-rms/internal/provider/operation"
	"github.com/rms-labs/terraform-provider-rms/internal/validators"
)

// The list import's arguments, as the rms_list_import resource and the
// rms_run_list_import action both declare them: their descriptions,
// validators and model, and the file they upload. What runs them is
// operation.StartListImport.

// The import's arguments, as the resource and the action both declare
// them. The resource adds importReplaceNote where a change runs a new
// import; an action has no state to compare with.
const (
	importListIDDescription = "Id of the list to import into, e.g. `rms_list.example.id`."
	importTypeDescription   = "What the import does: `ADD` (add the file's contacts; existing ones take the file's non-empty values), `REPLACE` (the file's contacts become the whole list) or `UNSUBSCRIBE` (contacts with a matching row are unsubscribed from e-mail)."
	importFileDescription   = "Path of the CSV file to import. Give `file` or `content`. The file is streamed to the service, never read into memory. " +
		"Its first row names the columns: the identity column (see `identity_column`) and contact attributes by name or id; no `email_status` or `mobile_status` column (the service's import cannot set statuses: use `rms_list_contacts`). " +
		"The header and the encoding are checked at plan, and again before the import is created, so an apply that fails on its file leaves no import behind. See the guide \"Bulk imports and exports\" (The file)."
	importDelimiterDescription = "The column delimiter of the file, as the character itself: `\",\"` (default), `\";\"`, `\"\\t\"` for a tab, `\"|\"`. The provider sends the service its decimal ASCII code."
	importEncodingDescription  = "Encoding of the file: `UTF8` (default; a byte order mark is ignored), `UTF16` (byte order from its byte order mark, little-endian without one), `ISO-8859-1` or `ANSI` (Windows-1252)."
	importIdentityDescription  = "Name of the file column that identifies contacts; its value is each contact's `original_id`. Any column may serve, such as `email`; a column that names an attribute of the account also sets that attribute. When not set, the file must have an `originalId` column."
	importReplaceNote          = " Changing it runs a new import."
)

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
	// SuppressionListID is the account's suppression list (suppression_list.go).
	SuppressionListID types.String `tfsdk:"suppression_list_id"`

	unsubscribeLimitArgs // max_unsubscribe, max_unsubscribe_percent (list_import_guardrail.go)
	failedRowsLimitArgs  // max_failed_rows (failed_rows.go)
}

// run is the run these arguments ask for, uploading body (see
// openImportBody); the caller adds what it needs to see of each step.
func (a listImportArgs) run(body io.ReadSeeker, retryNote string) operation.ListImportRun {
	return operation.ListImportRun{
		ListID: a.ListID.ValueString(), Type: a.Type.ValueString(), Delimiter: a.Delimiter.ValueString(),
		Encoding: a.Encoding.ValueString(), IdentityColumn: a.IdentityColumn.ValueString(),
		Body: body, FileAttr: importFileAttr(a.File), RetryNote: retryNote,
	}
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
