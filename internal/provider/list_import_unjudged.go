package provider

import (
	"context"
	"fmt"
	"strconv"

	"github.com/hashicorp/terraform-plugin-framework/diag"
	"github.com/hashicorp/terraform-plugin-framework/path"
	"github.com/hashicorp/terraform-plugin-log/tflog"

	"github.com/rms-labs/terraform-provider-rms/internal/client"
)

// Refused rows are judged at apply, never at refresh or plan: an error in
// Read or ModifyPlan would block the very plan that raises max_failed_rows.
// An import whose batch an earlier apply stopped waiting for, and that has
// since finished with refused rows, has not been judged. If the refresh
// recorded it as finished, the plan would find nothing to do and the rows
// would never be reported, the contacts missing for good. So the refresh
// leaves such an import as the earlier apply left it, unfinished: the plan
// resumes it (an update), and the update judges the rows as any resumed
// wait does (list_import_resource.go).

// unjudgedRows reports whether b, read by a refresh, is the batch of an
// import an earlier apply stopped waiting for, finished since with refused
// rows that no apply has judged yet. An imported resource (adopting) is
// not judged: it was run outside this configuration.
func unjudgedRows(state listImportModel, b *client.Batch) bool {
	if !state.Unfinished() || isAdopting(state) || !b.Finished() || b.Err() != nil {
		return false
	}
	n, shown := b.FailedCount()
	return shown && n > 0
}

// privateUnjudgedRows is the private state key where a refresh notes the
// rows a finished, unjudged batch refused, for the plan's warning.
const privateUnjudgedRows = "unjudged_rows"

// leaveUnjudged notes, for the plan, the rows a refresh found refused and
// left to the next apply to judge.
func leaveUnjudged(ctx context.Context, state listImportModel, b *client.Batch, private privateSetter) diag.Diagnostics {
	tflog.Info(ctx, "list import batch finished since the last apply with refused rows; left unjudged so that the next apply judges them against max_failed_rows",
		map[string]any{"batch_id": b.ID.String(), "failed": b.Failed, "import_id": state.ImportID.ValueString()})
	if private == nil {
		return nil
	}
	return private.SetKey(ctx, privateUnjudgedRows, []byte(strconv.FormatInt(b.Failed, 10)))
}

// forgetUnjudged drops the note once an apply has judged the rows.
func forgetUnjudged(ctx context.Context, p privateState) diag.Diagnostics {
	if p == nil {
		return nil
	}
	if raw, _ := p.GetKey(ctx, privateUnjudgedRows); len(raw) == 0 {
		return nil
	}
	return p.SetKey(ctx, privateUnjudgedRows, nil)
}

// warnUnjudged says why the plan resumes an import whose batch has
// finished: the apply judges the rows it refused. A warning only: an error
// here would block the plan that raises the limit.
func warnUnjudged(ctx context.Context, state, plan listImportModel, p privateGetter, diags *diag.Diagnostics) {
	if p == nil || plan.MaxFailedRows.IsUnknown() {
		return
	}
	raw, _ := p.GetKey(ctx, privateUnjudgedRows)
	failed, err := strconv.ParseInt(string(raw), 10, 64)
	if err != nil {
		return
	}
	limit := plan.maxFailedRows()
	then := fmt.Sprintf("max_failed_rows (%d) allows them: the apply keeps the import and names the rows in a warning.", limit)
	if failed > limit {
		then = fmt.Sprintf("That is more than max_failed_rows (%d) allows: the apply will fail naming them, and the next plan then runs the file again as a new import. Correct the file, or set max_failed_rows to at least %d to keep the import as it is.", limit, failed)
	}
	diags.AddAttributeWarning(path.Root(attrMaxFailedRows), "Import rows refused since the last apply",
		fmt.Sprintf("Batch %s of import %s into list %s finished after an earlier apply stopped waiting for it, and the service refused %d rows of the file. This plan's apply judges them. %s",
			state.BatchID.ValueString(), state.ImportID.ValueString(), state.ListID.ValueString(), failed, then))
}

// refusedRowsMarked reports whether an earlier apply found the import's
// refused rows above the limit (markRefusedRows).
func refusedRowsMarked(ctx context.Context, p privateGetter) bool {
	if p == nil {
		return false
	}
	raw, _ := p.GetKey(ctx, privateRefusedRows)
	return len(raw) > 0
}

// judgeAcceptedRows judges again, against the limit m now has, the rows an
// earlier apply refused the import for: an update that raises the limit to
// them keeps the import and names them in a warning, as an apply within
// the limit does. The batch is read again for the rows' names; when it
// cannot be, the counts in the state are judged.
func (r *listImportResource) judgeAcceptedRows(ctx context.Context, m listImportModel, private privateState, diags *diag.Diagnostics) {
	if m.BatchID.IsNull() || m.Failed.IsNull() || m.Failed.IsUnknown() {
		return
	}
	b, err := r.data.client.Batches.Get(ctx, m.BatchID.ValueString())
	if err != nil {
		tflog.Warn(ctx, "could not read the import's batch again to name its refused rows", map[string]any{"batch_id": m.BatchID.ValueString(), "error": err.Error()})
		b = &client.Batch{ID: client.ID(m.BatchID.ValueString()), Failed: m.Failed.ValueInt64(), Total: m.Total.ValueInt64(), Shown: client.BatchCountsShown{Failed: true}}
	}
	if !judgeFailedRows(diags, b, m.maxFailedRows(), fmt.Sprintf(
		"The import (import %s, batch %s) stays in the state with its counts, marked as refused: the next plan runs the file again as a new import, unless max_failed_rows is raised to at least %d.",
		m.ImportID.ValueString(), m.BatchID.ValueString(), b.Failed)) {
		diags.Append(markRefusedRows(ctx, private, true)...)
	}
}
