package provider

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"time"

	"github.com/hashicorp/terraform-plugin-framework-timetypes/timetypes"
	"github.com/hashicorp/terraform-plugin-framework/diag"
	"github.com/hashicorp/terraform-plugin-log/tflog"

	"github.com/rms-labs/terraform-provider-rms/internal/client"
)

// What the batch-running resources (rms_statistics_export, and imports)
// share: the poll schedule, progress logs, timestamps, local files.

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
// finished successfully. A wait cut short (timeout, interrupt) is a warning
// during create and an error otherwise: Terraform replaces a resource whose
// create failed, without showing the provider its state, which would start a
// second batch; a warning keeps the resource, and the next plan resumes the
// wait in place. An update that fails does not taint, so it errors.
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
	default:
		addAPIError(diags, "Unable to wait for "+strings.ToLower(w.what)+" "+w.id, err, nil)
	}
	return b, false
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

// batchTimeValue turns a batch's epoch-milliseconds time into a state value;
// zero (not set) is null.
func batchTimeValue(t time.Time) timetypes.RFC3339 {
	if t.IsZero() {
		return timetypes.NewRFC3339Null()
	}
	return timetypes.NewRFC3339TimeValue(t.UTC())
}

// hashFile returns the hexadecimal SHA-256 of a file, reading it as a
// stream. exists is false when there is no file at path.
func hashFile(path string) (sum string, exists bool, err error) {
	f, err := os.Open(path)
	if errors.Is(err, fs.ErrNotExist) {
		return "", false, nil
	}
	if err != nil {
		return "", false, err
	}
	defer func() { _ = f.Close() }() // read-only: nothing to flush
	h := sha256.New()
	if _, err := io.Copy(h, f); err != nil {
		return "", true, fmt.Errorf("reading %s: %w", path, err)
	}
	return hex.EncodeToString(h.Sum(nil)), true, nil
}

// downloadToFile streams a finished export into path: into a temporary file
// beside it first, renamed over path only once the whole file has arrived,
// so a failed download never leaves a partial file under the final name.
// Missing parent directories are created. The file is readable by its owner
// only, since it holds account data.
func downloadToFile(ctx context.Context, c *client.Client, batchID, path string) (*client.Download, error) {
	dir := filepath.Dir(path)
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return nil, fmt.Errorf("creating the directory of %s: %w", path, err)
	}
	tmp, err := os.CreateTemp(dir, ".rms-download-*")
	if err != nil {
		return nil, fmt.Errorf("creating a temporary file beside %s: %w", path, err)
	}
	defer func() { _ = os.Remove(tmp.Name()) }() // no-op after a successful rename
	d, err := c.DownloadResult(ctx, batchID, tmp)
	if cerr := tmp.Close(); err == nil && cerr != nil {
		err = fmt.Errorf("writing %s: %w", tmp.Name(), cerr)
	}
	if err != nil {
		return nil, err
	}
	if err := os.Rename(tmp.Name(), path); err != nil {
		return nil, fmt.Errorf("moving the download into place at %s: %w", path, err)
	}
	return d, nil
}
