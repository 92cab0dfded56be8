package batchcore

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"time"

	"github.com/hashicorp/terraform-plugin-framework/diag"
	"github.com/hashicorp/terraform-plugin-log/tflog"

	"github.com/rms-labs/terraform-provider-rms/internal/client"
	"github.com/rms-labs/terraform-provider-rms/internal/provider/apidiag"
)

// The wait of the batch core: every resource and action that starts a batch
// (rms_list_import, rms_statistics_export, rms_list_contacts and the two
// batch actions) waits for it here, on the provider's poll schedule, with
// progress logs and one way of explaining a wait cut short.

// firstPollDelay is the first quick look after a batch starts; the delays
// then double up to the provider's batch_poll_interval.
const firstPollDelay = time.Second

// Service is how the core reaches the service: the provider's client and
// its batch_poll_interval.
type Service struct {
	Client       *client.Client
	PollInterval time.Duration
}

// schedule is the provider's batch polling schedule.
func (s Service) schedule() client.PollSchedule {
	return client.PollSchedule{First: firstPollDelay, Interval: s.PollInterval}
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

// Wait describes one wait for a batch, for WaitFor.
type Wait struct {
	What        string        // "Statistics export", "List import"
	ID          string        // the batch id
	Timeout     time.Duration // the time limit in force, for the message
	Creating    bool          // Create (a cut-short wait warns) or Update (errors)
	PendingNote string        // what the state lacks while the batch runs
	FailedNote  string        // what follows from a failed batch
	// Progress, when set, also sees each look at the batch: an action
	// turns it into a progress message for the user.
	Progress func(client.Batch)
	// ResumeNote, when set, replaces the advice on resuming a wait cut
	// short: an action has no state to resume from.
	ResumeNote string
}

// WaitFor waits for a batch on the provider's schedule, logging its
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
func WaitFor(ctx context.Context, svc Service, w Wait, diags *diag.Diagnostics) (*client.Batch, bool) {
	report := logBatchProgress(ctx, strings.ToLower(w.What))
	if w.Progress != nil {
		logOnly := report
		report = func(b client.Batch) { logOnly(b); w.Progress(b) }
	}
	b, err := svc.Client.Batches.Wait(ctx, w.ID, svc.schedule(), report)
	var waitErr *client.BatchWaitError
	var failed *client.BatchFailedError
	switch {
	case err == nil:
		return b, true
	case errors.As(err, &waitErr):
		summary, detail := batchWaitDiagnostic(w, waitErr)
		if w.Creating {
			diags.AddWarning(summary, detail)
		} else {
			diags.AddError(summary, detail)
		}
	case errors.As(err, &failed):
		diags.AddError(w.What+" failed", fmt.Sprintf("%s.\n\n%s", err, w.FailedNote))
	case client.IsNotFound(err):
		apidiag.Add(diags, "Unable to wait for "+strings.ToLower(w.What)+" "+w.ID, err, nil)
	default:
		summary, detail := batchUnreachableDiagnostic(w, err)
		if w.Creating {
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
func batchUnreachableDiagnostic(w Wait, err error) (summary, detail string) {
	summary = w.What + " " + w.ID + " has not finished"
	detail = fmt.Sprintf("Stopped waiting for batch %s: it could not be read: %s", w.ID, apidiag.Describe(err))
	if w.ResumeNote != "" {
		return summary, detail + "\n\n" + w.ResumeNote
	}
	detail += "\n\nThe batch keeps running on the service. Its id is kept in the state: once the service can be reached again, the next apply resumes waiting on the same batch; it does not start a new one."
	if w.Creating && w.PendingNote != "" {
		detail += " " + w.PendingNote
	}
	return summary, detail
}

// batchWaitDiagnostic explains a wait cut short: which batch, how far it
// got, and that the next apply resumes it.
func batchWaitDiagnostic(w Wait, err *client.BatchWaitError) (summary, detail string) {
	limit := "update"
	if w.Creating {
		limit = "create"
	}
	if w.ResumeNote != "" {
		limit = "action's"
	}
	summary = w.What + " " + err.BatchID + " has not finished"
	if errors.Is(err, context.DeadlineExceeded) {
		detail = fmt.Sprintf("Waited %s (the %s timeout) for batch %s: %s.", w.Timeout, limit, err.BatchID, err)
	} else {
		detail = fmt.Sprintf("Stopped waiting for batch %s: %s.", err.BatchID, err)
	}
	if w.ResumeNote != "" {
		detail += "\n\n" + w.ResumeNote
		return summary, detail
	}
	detail += "\n\nThe batch id is kept in the state. The next apply resumes waiting on the same batch; it does not start a new one. " +
		"To wait longer in one apply, raise timeouts." + limit + " (and timeouts.update for the apply that resumes)."
	if w.Creating && w.PendingNote != "" {
		detail += " " + w.PendingNote
	}
	return summary, detail
}

// ResumableDiagnostics rewrites the errors of a step that the next apply
// resumes: each gets note, and during create it becomes a warning, for the
// reason WaitFor gives (an error would taint the resource, and its
// replacement would start the work again).
func ResumableDiagnostics(in diag.Diagnostics, creating bool, note string) diag.Diagnostics {
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
