package provider

import (
	"fmt"

	"github.com/hashicorp/terraform-plugin-framework/action"
	"github.com/hashicorp/terraform-plugin-framework/diag"

	"github.com/rms-labs/terraform-provider-rms/internal/client"
	"github.com/rms-labs/terraform-provider-rms/internal/provider/batchcore"
)

// What the actions share. An action has no state: a wait it cannot finish
// is an error, and running it again starts the operation anew.

// batchProgress turns each look at a batch into a progress message of the
// action, e.g. "rms_run_list_import: batch 18 IN_PROGRESS, 500/1000 rows".
func batchProgress(actionType string, resp *action.InvokeResponse) func(client.Batch) {
	return func(b client.Batch) {
		sendProgress(resp, fmt.Sprintf("%s: batch %s %s, %d/%d rows", actionType, b.ID.String(), b.Status, b.Processed, b.Total))
	}
}

// sendProgress sends a progress message when the framework offers it.
func sendProgress(resp *action.InvokeResponse, msg string) {
	if resp.SendProgress != nil {
		resp.SendProgress(action.InvokeProgressEvent{Message: msg})
	}
}

// actionWait adapts a resource's batch wait to an action: it reports
// progress, and its failures say the action's name and that no state keeps
// the batch.
func actionWait(w batchcore.Wait, actionType string, resp *action.InvokeResponse) batchcore.Wait {
	w.Creating = false
	w.Progress = batchProgress(actionType, resp)
	w.FailedNote = fmt.Sprintf("Nothing was kept; invoking %s again starts anew.", actionType)
	w.ResumeNote = fmt.Sprintf("The batch goes on running on the service (see the rms_batch data source with id %s); invoking %s again starts a new one. To wait longer, raise the action's timeout.", w.ID, actionType)
	return w
}

// nameAction prefixes the summary of each error with the action's type,
// so a failure in an action_trigger names the action that failed.
func nameAction(actionType string, diags diag.Diagnostics) diag.Diagnostics {
	out := make(diag.Diagnostics, 0, len(diags))
	for _, d := range diags {
		summary := d.Summary()
		if d.Severity() == diag.SeverityError {
			summary = actionType + ": " + summary
		}
		if p, ok := d.(diag.DiagnosticWithPath); ok {
			if d.Severity() == diag.SeverityError {
				out.AddAttributeError(p.Path(), summary, d.Detail())
			} else {
				out.AddAttributeWarning(p.Path(), summary, d.Detail())
			}
			continue
		}
		if d.Severity() == diag.SeverityError {
			out.AddError(summary, d.Detail())
		} else {
			out.AddWarning(summary, d.Detail())
		}
	}
	return out
}
