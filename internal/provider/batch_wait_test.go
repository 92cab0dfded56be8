package provider

import (
	"context"
	"strings"
	"testing"
	"time"

	"github.com/rms-labs/terraform-provider-rms/internal/client"
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
			w := statisticsExportOperation.wait("12", 30*time.Minute, tt.creating)
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

func TestPollScheduleFromProviderData(t *testing.T) {
	got := (&providerData{batchPollInterval: time.Minute}).pollSchedule()
	if got.First != time.Second || got.Interval != time.Minute || got.Sleep != nil {
		t.Errorf("schedule = %+v, want a 1s first look backing off to 1m", got)
	}
	if d := (&providerData{}).pollSchedule().Interval; d != defaultBatchPollInterval {
		t.Errorf("interval without configuration = %s, want %s", d, defaultBatchPollInterval)
	}
}
