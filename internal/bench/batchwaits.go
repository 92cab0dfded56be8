package bench

import (
	"context"
	"fmt"
	"net/http"
	"path"
	"path/filepath"
	"time"

	"github.com/rms-labs/terraform-provider-rms/internal/client"
	"github.com/rms-labs/terraform-provider-rms/internal/emulator"
)

// firstPollDelay is the provider's first quick look at a batch
// (internal/provider/batch_helpers.go), for the schedules computed here.
const firstPollDelay = time.Second

// DefaultBatchPollInterval is the provider's default batch_poll_interval.
const DefaultBatchPollInterval = 30 * time.Second

// BatchWaitRow is how an apply waited for one batch: measured through the
// CLI, or computed from the client's poll schedule.
type BatchWaitRow struct {
	Pace     time.Duration // how long the emulator's batch runs
	Interval time.Duration // batch_poll_interval
	Measured bool
	Command  string
	// Polls is the number of GET batches/{id}; LooksAt their times after
	// the batch started.
	Polls   int
	LooksAt []time.Duration
	// LastLookLate is how long after the batch finished the look that saw
	// it finished came; ApplyLate how long after it the apply returned.
	LastLookLate time.Duration
	ApplyLate    time.Duration
}

// ScheduledLooks returns the times, after a batch starts, at which the
// provider looks at a batch that takes pace, under the client's poll
// schedule with batch_poll_interval interval, up to the first look at or
// after pace.
func ScheduledLooks(pace, interval time.Duration) []time.Duration {
	s := client.PollSchedule{First: firstPollDelay, Interval: interval}
	looks := []time.Duration{0}
	for t, n := time.Duration(0), 0; t < pace; n++ {
		t += s.Delay(n)
		looks = append(looks, t)
	}
	return looks
}

// BatchWaits measures, for each pace in measured and with the default and
// a one-second batch_poll_interval, an rms_list_import whose batch the
// emulator keeps running for that long; and computes the same from the
// poll schedule for each pace in computed (a five-minute batch is computed
// rather than waited for). It returns ErrPending when the provider has no
// rms_list_import.
func (b *Bench) BatchWaits(ctx context.Context, measured, computed []time.Duration) ([]BatchWaitRow, error) {
	ok, err := b.HasResource(ctx, "rms_list_import")
	if err != nil {
		return nil, err
	}
	if !ok {
		return nil, fmt.Errorf("%w: the provider has no rms_list_import", ErrPending)
	}
	intervals := []time.Duration{DefaultBatchPollInterval, time.Second}
	var rows []BatchWaitRow
	for _, pace := range measured {
		for _, interval := range intervals {
			row, err := b.batchWait(ctx, pace, interval)
			if err != nil {
				return rows, err
			}
			rows = append(rows, row)
		}
	}
	for _, pace := range computed {
		for _, interval := range intervals {
			looks := ScheduledLooks(pace, interval)
			rows = append(rows, BatchWaitRow{
				Pace: pace, Interval: interval, Polls: len(looks), LooksAt: looks,
				LastLookLate: looks[len(looks)-1] - pace,
			})
		}
	}
	return rows, nil
}

func (b *Bench) batchWait(ctx context.Context, pace, interval time.Duration) (BatchWaitRow, error) {
	e, err := StartEmulator(emulator.Options{BatchMinDuration: pace})
	if err != nil {
		return BatchWaitRow{}, err
	}
	defer b.closeEmulator(e)
	listID, err := e.CreateList(ctx, "batch")
	if err != nil {
		return BatchWaitRow{}, err
	}
	ws, err := b.workspace(fmt.Sprintf("batch-%s-%s", pace, interval))
	if err != nil {
		return BatchWaitRow{}, err
	}
	file := filepath.Join(ws.Dir, "contacts.csv")
	if _, err := WriteCSVFile(file, 10); err != nil {
		return BatchWaitRow{}, err
	}
	setting := ""
	if interval != DefaultBatchPollInterval {
		setting = fmt.Sprintf("  batch_poll_interval = %q\n", interval.String())
	}
	hcl := providerHeader(e, setting) + fmt.Sprintf(`
resource "rms_list_import" "i" {
  list_id = %q
  type    = "ADD"
  file    = %q
}
`, listID, file)
	if err := ws.WriteConfig(hcl); err != nil {
		return BatchWaitRow{}, err
	}
	b.logf("batch waits: a %s batch, batch_poll_interval %s", pace, interval)
	start := time.Now()
	run, err := ws.MustSucceed(ctx, 0, "apply", "-auto-approve", "-input=false", "-no-color")
	if err != nil {
		return BatchWaitRow{}, err
	}
	returned := start.Add(run.Wall)
	var polls []Event
	for _, ev := range e.Events(start) {
		if ev.Method == http.MethodGet && ev.Route == "batches/{id}" {
			polls = append(polls, ev)
		}
	}
	if len(polls) == 0 {
		return BatchWaitRow{}, fmt.Errorf("the apply of a %s batch never looked at it", pace)
	}
	var batch client.Batch
	if err := e.Do(ctx, "GET", "batches/"+path.Base(polls[0].Path), nil, &batch); err != nil {
		return BatchWaitRow{}, err
	}
	if batch.EndTime.IsZero() {
		return BatchWaitRow{}, fmt.Errorf("batch %s is not finished after the apply: %+v", path.Base(polls[0].Path), batch)
	}
	started, ended := batch.StartTime.Time, batch.EndTime.Time
	row := BatchWaitRow{
		Pace: pace, Interval: interval, Measured: true, Command: run.Command(), Polls: len(polls),
		LastLookLate: polls[len(polls)-1].At.Sub(ended), ApplyLate: returned.Sub(ended),
	}
	for _, p := range polls {
		row.LooksAt = append(row.LooksAt, p.At.Sub(started))
	}
	return row, nil
}
