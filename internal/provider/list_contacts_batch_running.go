package provider

import (
	"context"
	"fmt"

	"github.com/hashicorp/terraform-plugin-framework/diag"
)

// An import batch an earlier apply started and stopped waiting for (a
// timeout, an outage) is part of the next apply, which waits for it before
// anything else. When the plan's refresh sees it still running, what it
// will have written by the time of the apply cannot be counted: a count
// made now would be refused, or worse, held to, once the batch finishes.
// The plan's counts are then unknown, as for a plan that cannot list (a
// policy holds such a plan for review), the final plan does not count
// either, and the state keeps what the apply counted after the wait.

// batchesRunningAtRefresh are the batches the plan's refresh saw still
// running (nil: none, or no refresh).
func batchesRunningAtRefresh(ctx context.Context, p privateGetter) []string {
	got, ok := readRefreshedListing(ctx, p)
	if !ok {
		return nil
	}
	return got.Running
}

// warnBatchRunning says why the plan's counts are unknown.
func warnBatchRunning(diags *diag.Diagnostics, listID string, running []string) {
	if len(running) == 0 {
		return
	}
	diags.AddWarning("Import batch of an earlier apply still running",
		fmt.Sprintf("Import batch %s, which an earlier apply of this resource started and stopped waiting for, is still running on list %s. What it will have written by the apply cannot be counted now, so planned_changes is unknown in this plan (a policy holds it for review). "+
			"The apply waits for the batch first, then writes what still differs, within the guardrails, and the state keeps what the apply counted. To see the counts, plan again once the batch has finished (data source rms_batch).", joinBatches(running), listID))
}
