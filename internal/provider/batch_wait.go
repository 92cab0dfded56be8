package provider

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"time"

	"github.com/hashicorp/terraform-plugin-framework/diag"
	"github.com/hashicorp/terraform-plugin-log/tflog"

	"github.com/rms-labs/terraform-provider-rms/internal/client"
)

// The wait of the batch core: every resource and action that starts a batch
// (rms_list_import, rms_statistics_export, rms_list_contacts and the two
// batch actions) waits for it here, on the provider's poll schedule, with
// progress logs and one way of explaining a wait cut short.

// firstPollDelay is the first quick look after a batch starts; the delays
// then double up to the provider's batch_poll_interval.
const firstPollDelay = time.Second

// pollSchedule is the provider's batch polling schedule.
func (d *providerData) pollSchedule() client.PollSchedule {
	interval := d.batchPollInterval
	if interval <= 0 {
		interval = defaultBatchPollInterval
	}
	return client.PollSchedule{First: firstPollDelay, Interval: interval}
}

// logBatchProgress logs each look at a batch at INFO, so `TF_LOG=INFO` shows
// how a long import or export advances.
func logBatchProgress(ctx context.Context, what string) func(client.Batch) {
	return func(b client.Batch) {
		tflog.Info(ctx, what+" progress", map[string]any{
			"batch_id":  b.ID.String(),
			"status":    b.Status,
			"processed": b.Processed,
			"total":     b.Total,
			"progress":  fmt.Sprintf("%d/%d", b.Processed, b.Total),
		})
	}
}

// batchWait describes one wait for a batch, for waitForBatch.
type batchWait struct {
	what        string        // "Statistics export", "List import"
	id          string        // the batch id
	timeout     time.Duration // the time limit in force, for the message
	creating    bool          // Create (a cut-short wait warns) or Update (errors)
	pendingNote string        // what the state lacks while the batch runs
	failedNote  string        // what follows from a failed batch
	// progress, when set, also sees each look at the batch: an action
	// turns it into a progress message for the user.
	progress func(client.Batch)
	// resumeNote, when set, replaces the advice on resuming a wait cut
	// short: an action has no state to resume from.
	resumeNote string
}

// waitForBatch waits for a batch on the provider's schedule, logging its
// progress, and returns it as last seen (nil if never read) and whether it
// finished successfully. Every end of the wait but the batch's own failure
// (a timeout, an interrupt, the service unreachable or failing after the
// client's retries, an answer that cannot be read) is a warning during
// create and an error otherwise: Terraform replaces a resource whose create
// failed, without showing the provider its state, which would start a
// second batch; a warning keeps the resource, and the next plan resumes the
// wait in place. An update that fails does not taint and keeps the state it
// returns, batch id included, so it errors. Only a batch that is gone (404)
// is an error in both: there is nothing left to resume.
func waitForBatch(ctx context.Context, d *providerData, w batchWait, diags *diag.Diagnostics) (*client.Batch, bool) {
	report := logBatchProgress(ctx, strings.ToLower(w.what))
	if w.progress != nil {
		logOnly := report
		report = func(b client.Batch) { logOnly(b); w.progress(b) }
	}
	b, err := d.client.WaitForBatch(ctx, w.id, d.pollSchedule(), report)
	var waitErr *client.BatchWaitError
	var failed *client.BatchFailedError
	switch {
	case err == nil:
		return b, true
	case errors.As(err, &waitErr):
		summary, detail := batchWaitDiagnostic(w, waitErr)
		if w.creating {
			diags.AddWarning(summary, detail)
		} else {
			diags.AddError(summary, detail)
		}
	case errors.As(err, &failed):
		diags.AddError(w.what+" failed", fmt.Sprintf("%s.\n\n%s", err, w.failedNote))
	case client.IsNotFound(err):
		addAPIError(diags, "Unable to wait for "+strings.ToLower(w.what)+" "+w.id, err, nil)
	default:
		summary, detail := batchUnreachableDiagnostic(w, err)
		if w.creating {
			diags.AddWarning(summary, detail)
		} else {
			diags.AddError(summary, detail)
		}
	}
	return b, false
}

// batchUnreachableDiagnostic explains a wait that ended because the batch
// could not be read (the service unreachable, failing after the client's
// retries, or answering what cannot be read): the batch keeps running on
// the service, and the next apply resumes it.
func batchUnreachableDiagnostic(w batchWait, err error) (summary, detail string) {
	summary = w.what + " " + w.id + " has not finished"
	detail = fmt.Sprintf("Stopped waiting for batch %s: it could not be read: %s", w.id, describeAPIError(err))
	if w.resumeNote != "" {
		return summary, detail + "\n\n" + w.resumeNote
	}
	detail += "\n\nThe batch keeps running on the service. Its id is kept in the state: once the service can be reached again, the next apply resumes waiting on the same batch; it does not start a new one."
	if w.creating && w.pendingNote != "" {
		detail += " " + w.pendingNote
	}
	return summary, detail
}

// batchWaitDiagnostic explains a wait cut short: which batch, how far it
// got, and that the next apply resumes it.
func batchWaitDiagnostic(w batchWait, err *client.BatchWaitError) (summary, detail string) {
	limit := "update"
	if w.creating {
		limit = "create"
	}
	if w.resumeNote != "" {
		limit = "action's"
	}
	summary = w.what + " " + err.BatchID + " has not finished"
	if errors.Is(err, context.DeadlineExceeded) {
		detail = fmt.Sprintf("Waited %s (the %s timeout) for batch %s: %s.", w.timeout, limit, err.BatchID, err)
	} else {
		detail = fmt.Sprintf("Stopped waiting for batch %s: %s.", err.BatchID, err)
	}
	if w.resumeNote != "" {
		detail += "\n\n" + w.resumeNote
		return summary, detail
	}
	detail += "\n\nThe batch id is kept in the state. The next apply resumes waiting on the same batch; it does not start a new one. " +
		"To wait longer in one apply, raise timeouts." + limit + " (and timeouts.update for the apply that resumes)."
	if w.creating && w.pendingNote != "" {
		detail += " " + w.pendingNote
	}
	return summary, detail
}

// resumableDiagnostics rewrites the errors of a step that the next apply
// resumes: each gets note, and during create it becomes a warning, for the
// reason waitForBatch gives (an error would taint the resource, and its
// replacement would start the work again).
func resumableDiagnostics(in diag.Diagnostics, creating bool, note string) diag.Diagnostics {
	out := make(diag.Diagnostics, 0, len(in))
	for _, d := range in {
		if d.Severity() != diag.SeverityError {
			out = append(out, d)
			continue
		}
		detail := d.Detail() + "\n\n" + note
		p, withPath := d.(diag.DiagnosticWithPath)
		switch {
		case withPath && creating:
			out.AddAttributeWarning(p.Path(), d.Summary(), detail)
		case withPath:
			out.AddAttributeError(p.Path(), d.Summary(), detail)
		case creating:
			out.AddWarning(d.Summary(), detail)
		default:
			out.AddError(d.Summary(), detail)
		}
	}
	return out
}
