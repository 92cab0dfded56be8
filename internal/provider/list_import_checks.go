package provider

import (
	"bufio"
	"context"
	"errors"
	"io"
	"io/fs"
	"os"
	"strings"

	"github.com/hashicorp/terraform-plugin-framework/diag"
	"github.com/hashicorp/terraform-plugin-framework/resource"

	"github.com/rms-labs/terraform-provider-rms/internal/contactsync"
)

// The import file is checked before an import is created on the service
// (contactsync.CheckImportSource): bytes valid in the declared encoding, a
// header with the identity column under the declared delimiter, and (ADD,
// REPLACE) the header rules of rms_list_contacts' source_file
// (contactsync/file_columns.go): every column names an attribute of the
// account, exactly as spelled, once, and there is no status column (the
// service's import has none). Without the check a file the service refuses
// fails only after step 1 made an import, which nothing can delete, and a
// file in the wrong encoding is imported with replacement characters.
//
// The check runs at plan (checkListImportPlan), and again at apply before
// the import is created (rms_list_import's Create, the action's Invoke):
// the plan may not have been able to run it (a file made during the apply,
// arguments known only then, the account's attributes unreadable).

// checkListImportPlan runs the check at plan time, for a plan that runs a
// new import (create or replacement); a resumed wait, an adopted import
// and a change that only records settings upload nothing.
func checkListImportPlan(ctx context.Context, data *providerData, req resource.ModifyPlanRequest, resp *resource.ModifyPlanResponse) {
	if req.Plan.Raw.IsNull() {
		return // destroy
	}
	var plan listImportModel
	resp.Diagnostics.Append(req.Plan.Get(ctx, &plan)...)
	if !req.State.Raw.IsNull() {
		var state listImportModel
		resp.Diagnostics.Append(req.State.Get(ctx, &state)...)
		if resp.Diagnostics.HasError() || !importRuns(plan, state) {
			return
		}
	}
	if resp.Diagnostics.HasError() {
		return
	}
	checkImportArgs(ctx, plan.listImportArgs, importAttributes(data, plan.listImportArgs), false, &resp.Diagnostics)
}

// importAttributes are the attributes an import's columns are checked
// against: nil (not checked) for an UNSUBSCRIBE import, whose other
// columns the service ignores, or without a configured client.
func importAttributes(data *providerData, a listImportArgs) contactsync.AttributeNames {
	if data == nil || data.client == nil || data.contacts == nil || data.contacts.Attributes == nil || a.Type.ValueString() == "UNSUBSCRIBE" {
		return nil
	}
	return data.contacts.Attributes
}

// importRuns reports whether plan, against state, runs a new import: the
// arguments and content_sha256 that force a replacement.
func importRuns(plan, state listImportModel) bool {
	if isAdopting(state) {
		return false // the first apply after terraform import adopts the configuration
	}
	return plan.ContentSHA256.IsUnknown() || !plan.ContentSHA256.Equal(state.ContentSHA256) ||
		!plan.ListID.Equal(state.ListID) || !plan.Type.Equal(state.Type) || !plan.Delimiter.Equal(state.Delimiter) ||
		!plan.Encoding.Equal(state.Encoding) || !plan.IdentityColumn.Equal(state.IdentityColumn) || !plan.Triggers.Equal(state.Triggers)
}

// checkImportArgs reads the file (or content) of an import once, as a
// stream, and refuses it when the service could not read it as declared.
// At plan (atApply false), unknown arguments, a file that does not exist
// yet (made during the apply) and attributes that cannot be read leave the
// check to the apply; at apply every argument is known, a missing file is
// an error, and so are unreadable attributes: nothing is created on the
// service for a file that was not checked.
func checkImportArgs(ctx context.Context, a listImportArgs, attrs contactsync.AttributeNames, atApply bool, diags *diag.Diagnostics) {
	for _, v := range []interface{ IsUnknown() bool }{a.File, a.Content, a.Delimiter, a.Encoding, a.IdentityColumn, a.Type} {
		if v.IsUnknown() {
			return
		}
	}
	opts := contactsync.FileOptions{Delimiter: a.Delimiter.ValueString(), Encoding: a.Encoding.ValueString(), IdentityColumn: a.IdentityColumn.ValueString()}
	attr := importFileAttr(a.File)
	var r io.Reader
	switch {
	case !a.File.IsNull():
		opts.Path = a.File.ValueString()
		f, err := os.Open(opts.Path)
		if errors.Is(err, fs.ErrNotExist) && !atApply {
			return
		}
		if err != nil {
			diags.AddAttributeError(attr, "Unable to read the import file", err.Error())
			return
		}
		defer func() { _ = f.Close() }() // read-only
		r = bufio.NewReaderSize(f, 64<<10)
	case !a.Content.IsNull():
		r = strings.NewReader(a.Content.ValueString())
	default:
		return // neither: the config validator says so
	}
	err := contactsync.CheckImportSource(ctx, r, opts, attrs)
	switch {
	case err == nil:
	case contactsync.IsAttributesUnreadable(err) && !atApply:
		// The apply checks the columns again, before it creates anything.
	case contactsync.IsAttributesUnreadable(err):
		diags.AddAttributeError(attr, "Unable to read the account's contact attributes",
			err.Error()+"\n\nThe file's columns are checked against the account's attributes before the import is created: no import was created. Apply again once the service can be reached.")
	default:
		diags.AddAttributeError(attr, "Import file refused",
			err.Error()+"\n\nThe file is checked before the import is created: no import was created.")
	}
}
