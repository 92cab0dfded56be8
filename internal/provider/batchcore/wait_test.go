package batchcore

import (
	"context"
	"errors"
	"strings"
	"testing"
	"time"

	"github.com/hashicorp/terraform-plugin-framework/diag"
	"github.com/hashicorp/terraform-plugin-framework/path"

	"github.com/rms-labs/terraform-provider-rms/internal/client"
)

// exportOp and importOp stand for the operations of
// internal/provider/operation, which import this package.
var (
	exportOp = Operation{What: "Statistics export", PendingNote: "Until the export has finished, sha256, size, result_url and finished_at are null."}
	importOp = Operation{What: "List import", PendingNote: "Until the batch has finished, status, processed, affected and failed show it as last seen."}
)

// The warning of a create whose wait is cut short cannot be seen by
// terraform-plugin-testing (it checks errors only), so its words are checked
// here; the acceptance test checks the behaviour and the update's error.
func TestBatchWaitDiagnostic(t *testing.T) {
	last := &client.Batch{ID: "12", Status: client.BatchInProgress, Processed: 40, Total: 100}
	tests := []struct {
		name         string
		err          error
		creating     bool
		wantSummary  string
		wantInDetail []string
	}{
		{
			name: "create timeout", err: context.DeadlineExceeded, creating: true,
			wantSummary: "Statistics export 12 has not finished",
			wantInDetail: []string{
				"Waited 30m0s (the create timeout) for batch 12",
				"last seen IN_PROGRESS, 40 of 100 rows processed",
				"The next apply resumes waiting on the same batch; it does not start a new one.",
				"raise timeouts.create",
				"sha256, size, result_url and finished_at are null",
			},
		},
		{
			name: "update timeout", err: context.DeadlineExceeded, creating: false,
			wantSummary:  "Statistics export 12 has not finished",
			wantInDetail: []string{"(the update timeout)", "raise timeouts.update"},
		},
		{
			name: "interrupted", err: context.Canceled, creating: true,
			wantSummary:  "Statistics export 12 has not finished",
			wantInDetail: []string{"Stopped waiting for batch 12: batch 12: waiting was cancelled", "resumes waiting on the same batch"},
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			w := exportOp.Wait("12", 30*time.Minute, tt.creating)
			summary, detail := batchWaitDiagnostic(w, &client.BatchWaitError{BatchID: "12", Last: last, Err: tt.err})
			if summary != tt.wantSummary {
				t.Errorf("summary = %q, want %q", summary, tt.wantSummary)
			}
			for _, want := range tt.wantInDetail {
				if !strings.Contains(detail, want) {
					t.Errorf("detail %q lacks %q", detail, want)
				}
			}
		})
	}
}

func TestServiceSchedule(t *testing.T) {
	got := Service{PollInterval: time.Minute}.schedule()
	if got.First != time.Second || got.Interval != time.Minute || got.Sleep != nil {
		t.Errorf("schedule = %+v, want a 1s first look backing off to 1m", got)
	}
}

// A wait that ends because the batch cannot be read (the service away,
// failing, or answering what cannot be read) names the batch and the cause
// and says the next apply resumes it; an action says it keeps nothing.
func TestBatchUnreachableDiagnostic(t *testing.T) {
	refused := errors.New("waiting for batch 12: GET /batches/12: dial tcp 127.0.0.1:1: connect: connection refused")
	tests := []struct {
		name          string
		wait          Wait
		wantInDetail  []string
		wantNotDetail []string
	}{
		{
			name: "create", wait: exportOp.Wait("12", time.Minute, true),
			wantInDetail: []string{
				"Stopped waiting for batch 12: it could not be read", "connection refused",
				"The batch keeps running on the service. Its id is kept in the state",
				"the next apply resumes waiting on the same batch; it does not start a new one.",
				"sha256, size, result_url and finished_at are null",
			},
		},
		{
			name: "update", wait: importOp.Wait("12", time.Minute, false),
			wantInDetail:  []string{"connection refused", "the next apply resumes waiting on the same batch"},
			wantNotDetail: []string{importOp.PendingNote},
		},
		{
			name: "action", wait: Wait{What: "Statistics export", ID: "12", ResumeNote: "invoking it again starts a new one"},
			wantInDetail:  []string{"connection refused", "invoking it again starts a new one"},
			wantNotDetail: []string{"kept in the state"},
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			summary, detail := batchUnreachableDiagnostic(tt.wait, refused)
			if want := tt.wait.What + " 12 has not finished"; summary != want {
				t.Errorf("summary = %q, want %q", summary, want)
			}
			for _, want := range tt.wantInDetail {
				if !strings.Contains(detail, want) {
					t.Errorf("detail %q lacks %q", detail, want)
				}
			}
			for _, unwanted := range tt.wantNotDetail {
				if unwanted != "" && strings.Contains(detail, unwanted) {
					t.Errorf("detail %q has %q", detail, unwanted)
				}
			}
		})
	}
}

// ResumableDiagnostics turns errors into warnings during create only,
// keeps their attribute paths, adds the note, and leaves warnings alone.
func TestResumableDiagnostics(t *testing.T) {
	var in diag.Diagnostics
	in.AddAttributeError(path.Root("output_path"), "Unable to download the exported file", "refused")
	in.AddError("Unable to get the result URL", "refused")
	in.AddWarning("Something else", "as it was")
	for _, creating := range []bool{true, false} {
		out := ResumableDiagnostics(in, creating, "NOTE")
		if len(out) != 3 {
			t.Fatalf("creating=%v: %d diagnostics, want 3", creating, len(out))
		}
		want := diag.SeverityError
		if creating {
			want = diag.SeverityWarning
		}
		for i, d := range out[:2] {
			if d.Severity() != want || d.Summary() != in[i].Summary() || d.Detail() != in[i].Detail()+"\n\nNOTE" {
				t.Errorf("creating=%v: diagnostic %d = %v %q %q", creating, i, d.Severity(), d.Summary(), d.Detail())
			}
		}
		if p, ok := out[0].(diag.DiagnosticWithPath); !ok || !p.Path().Equal(path.Root("output_path")) {
			t.Errorf("creating=%v: the download diagnostic lost its path", creating)
		}
		if out[2].Severity() != diag.SeverityWarning || out[2].Detail() != "as it was" {
			t.Errorf("creating=%v: the warning changed: %q", creating, out[2].Detail())
		}
	}
}
