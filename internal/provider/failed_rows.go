package provider

import (
	"fmt"
	"strings"

	"github.com/hashicorp/terraform-plugin-framework-validators/int64validator"
	actionschema "github.com/hashicorp/terraform-plugin-framework/action/schema"
	"github.com/hashicorp/terraform-plugin-framework/diag"
	"github.com/hashicorp/terraform-plugin-framework/path"
	resourceschema "github.com/hashicorp/terraform-plugin-framework/resource/schema"
	"github.com/hashicorp/terraform-plugin-framework/schema/validator"
	"github.com/hashicorp/terraform-plugin-framework/types"

	"github.com/rms-labs/terraform-provider-rms/internal/client"
)

// Rows the service refuses are never silent. An import batch counts the
// rows it could not handle (a wrong number of fields, an empty identity)
// without failing, and the service conventions add the first ten of them,
// with the reason. rms_list_import and rms_run_list_import turn failed rows
// above max_failed_rows into an error and name them in a warning below it;
// rms_list_contacts, whose read-back writes what an import left undone,
// warns (list_contacts_writer.go). A service that does not report the count
// is not judged: there is nothing to judge by.

const attrMaxFailedRows = "max_failed_rows"

// defaultMaxFailedRows is 0: any failed row is an error. A list owner who
// imports a file means every row of it; a row the service skipped is a
// contact missing from the list, which nobody would notice otherwise. A
// file known to hold bad rows says so with a limit.
const defaultMaxFailedRows = 0

// failedRowsShown bounds the rows a diagnostic names (the service names at
// most ten).
const failedRowsShown = 10

// failedRowsLimitArgs is the limit of the import's arguments
// (listImportArgs): the resource's and the action's.
type failedRowsLimitArgs struct {
	MaxFailedRows types.Int64 `tfsdk:"max_failed_rows"`
}

// maxFailedRows is the limit, the default when it is not set.
func (a failedRowsLimitArgs) maxFailedRows() int64 {
	if a.MaxFailedRows.IsNull() || a.MaxFailedRows.IsUnknown() {
		return defaultMaxFailedRows
	}
	return a.MaxFailedRows.ValueInt64()
}

func maxFailedRowsDescription(then string) string {
	return fmt.Sprintf("How many rows of the file the service may refuse (a wrong number of fields, an empty identity) before the import is an error. Default `%d`: any refused row is an error, since each is a contact missing from the list; at or below the limit, refused rows are named in a warning. "+
		"The error comes once the batch has finished (the other rows are imported), and %s", defaultMaxFailedRows, then)
}

var maxFailedRowsValidators = []validator.Int64{int64validator.AtLeast(0)}

// failedRowsResourceAttribute is max_failed_rows of rms_list_import:
// changing it changes only what the next judgement allows.
func failedRowsResourceAttribute() resourceschema.Attribute {
	return resourceschema.Int64Attribute{
		Optional:    true,
		Description: maxFailedRowsDescription("a new import that fails this way is tainted, so the next apply runs the file again as a new import. Changing the limit alone does not run a new import. See Behaviour on this page."),
		Validators:  maxFailedRowsValidators,
	}
}

// failedRowsActionAttribute is max_failed_rows of rms_run_list_import.
func failedRowsActionAttribute() actionschema.Attribute {
	return actionschema.Int64Attribute{
		Optional:    true,
		Description: maxFailedRowsDescription("the action fails; invoking it again starts a new import of the file. See the guide \"Bulk imports and exports\" (Rows the service refuses)."),
		Validators:  maxFailedRowsValidators,
	}
}

// describeFailedRows says how many of the batch's rows failed and which,
// where the service names them: "2 of 4 rows of the file could not be
// imported ...:\n  - row 3: 3 fields where the header has 2 ...". file
// names the file the rows are numbered in.
func describeFailedRows(b *client.Batch, file string) string {
	var s strings.Builder
	switch {
	case b.Total > 0:
		fmt.Fprintf(&s, "%d of %d rows", b.Failed, b.Total)
	case b.Failed == 1:
		s.WriteString("1 row")
	default:
		fmt.Fprintf(&s, "%d rows", b.Failed)
	}
	fmt.Fprintf(&s, " of %s could not be imported (batch %s)", file, b.ID)
	if len(b.FailedRows) == 0 {
		s.WriteString("; the service did not say which.")
		return s.String()
	}
	rows := b.FailedRows[:min(len(b.FailedRows), failedRowsShown)]
	s.WriteString(":")
	for _, r := range rows {
		s.WriteString("\n  - ")
		if r.Row > 0 {
			fmt.Fprintf(&s, "row %d", r.Row)
		} else {
			s.WriteString("a row")
		}
		if r.Reason != "" {
			s.WriteString(": " + r.Reason)
		}
	}
	if int64(len(rows)) < b.Failed {
		fmt.Fprintf(&s, "\n  - and %d more (the service names the first %d)", b.Failed-int64(len(rows)), len(rows))
	}
	s.WriteString("\n\nRows are numbered as in the file, the header being row 1.")
	return s.String()
}

// judgeFailedRows reports a finished import batch's failed rows: an error
// when they exceed limit, whose detail ends with leaves (what state the
// error leaves), else a warning when any failed. It returns false on the
// error. A batch that does not report them is not judged.
func judgeFailedRows(diags *diag.Diagnostics, b *client.Batch, limit int64, leaves string) bool {
	n, shown := b.FailedCount()
	if !shown || n == 0 {
		return true
	}
	if n > limit {
		diags.AddAttributeError(path.Root(attrMaxFailedRows), "Import rows refused",
			fmt.Sprintf("%s\n\nThat is more than max_failed_rows (%d) allows. The other rows were imported; an import cannot be undone. %s", describeFailedRows(b, "the file"), limit, leaves))
		return false
	}
	diags.AddWarning("Import rows refused",
		fmt.Sprintf("%s\n\nmax_failed_rows (%d) allows them, so the import is kept; the contacts of these rows are not in the list as the file gives them.", describeFailedRows(b, "the file"), limit))
	return true
}
