package provider

import (
	"context"
	"fmt"

	"github.com/hashicorp/terraform-plugin-framework/diag"
	"github.com/hashicorp/terraform-plugin-framework/path"
	"github.com/hashicorp/terraform-plugin-framework/resource"
	"github.com/hashicorp/terraform-plugin-framework/types"
)

// An import whose wait an earlier apply resumed (Update) and whose refused
// rows turned out above the limit cannot be tainted: Terraform taints only
// a failed create. Update keeps it in the state with its counts (nothing
// orphaned) and marks it in private state; the next plan replaces it, so
// that the file runs again as a new import, exactly as after a failed
// create, unless the limit was raised to its failed rows. Only the mark
// does this: an import kept before limits existed is never run again by an
// upgrade of the provider.

// privateRefusedRows is the private state key of the mark.
const privateRefusedRows = "refused_rows"

// markRefusedRows sets or clears the mark.
func markRefusedRows(ctx context.Context, p privateState, on bool) diag.Diagnostics {
	if p == nil {
		return nil
	}
	if on {
		return p.SetKey(ctx, privateRefusedRows, []byte("true"))
	}
	if raw, _ := p.GetKey(ctx, privateRefusedRows); len(raw) == 0 {
		return nil
	}
	return p.SetKey(ctx, privateRefusedRows, nil)
}

// planRedoRefusedRows plans the replacement of a marked import whose refused
// rows are still above the limit.
func planRedoRefusedRows(ctx context.Context, req resource.ModifyPlanRequest, resp *resource.ModifyPlanResponse) {
	if req.Private == nil {
		return
	}
	raw, d := req.Private.GetKey(ctx, privateRefusedRows)
	if resp.Diagnostics.Append(d...); len(raw) == 0 {
		return
	}
	var state, plan listImportModel
	resp.Diagnostics.Append(req.State.Get(ctx, &state)...)
	resp.Diagnostics.Append(req.Plan.Get(ctx, &plan)...)
	if resp.Diagnostics.HasError() || state.Failed.IsNull() || state.Failed.IsUnknown() || plan.MaxFailedRows.IsUnknown() {
		return
	}
	failed, limit := state.Failed.ValueInt64(), plan.maxFailedRows()
	if failed <= limit {
		return
	}
	// Terraform replaces only for a path whose planned value differs from
	// the state's: failed, which the new import reports, is unknown.
	resp.Diagnostics.Append(resp.Plan.SetAttribute(ctx, path.Root("failed"), types.Int64Unknown())...)
	resp.RequiresReplace = append(resp.RequiresReplace, path.Root("failed"))
	resp.Diagnostics.AddAttributeWarning(path.Root(attrMaxFailedRows), "Import to run again: rows refused",
		fmt.Sprintf("Import %s into list %s could not import %d rows of the file, more than max_failed_rows (%d) allows, so this plan runs the file again as a new import. "+
			"Correct the file first, or set max_failed_rows to at least %d to keep the import as it is.",
			state.ImportID.ValueString(), state.ListID.ValueString(), failed, limit, failed))
}
