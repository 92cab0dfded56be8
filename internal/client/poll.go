package client

import (
	"context"
	"errors"
	"fmt"
	"time"
)

// Defaults of PollSchedule. The interface says polling a batch every 30
// seconds or every minute is normally enough and more often strains the
// service.
const (
	DefaultPollFirst    = time.Second
	DefaultPollInterval = 30 * time.Second
)

// PollSchedule says when Batches.Wait looks at a batch: once at once, then
// after First, 2·First, 4·First ... until the delay reaches Interval, and
// every Interval from then on. Quick first looks finish small batches
// quickly; the back-off keeps long ones from straining the service.
type PollSchedule struct {
	// First is the delay before the second look; zero means
	// DefaultPollFirst. It is capped at Interval.
	First time.Duration
	// Interval is the steady delay between looks; zero means
	// DefaultPollInterval.
	Interval time.Duration
	// Sleep waits d or until ctx ends, returning ctx's error in that case.
	// Nil uses a timer; tests inject their own so they never sleep.
	Sleep func(ctx context.Context, d time.Duration) error
}

// Delay is the wait after look n (0 is the first look). It is a pure
// function of the schedule.
func (p PollSchedule) Delay(n int) time.Duration {
	interval := p.Interval
	if interval <= 0 {
		interval = DefaultPollInterval
	}
	first := p.First
	if first <= 0 {
		first = DefaultPollFirst
	}
	if first >= interval {
		return interval
	}
	// Shift one step at a time so that a large n cannot overflow.
	d := first
	for i := 0; i < n && d < interval; i++ {
		d *= 2
	}
	return min(d, interval)
}

func (p PollSchedule) sleep(ctx context.Context, d time.Duration) error {
	if p.Sleep != nil {
		return p.Sleep(ctx, d)
	}
	t := time.NewTimer(d)
	defer t.Stop()
	select {
	case <-ctx.Done():
		return ctx.Err()
	case <-t.C:
		return nil
	}
}

// BatchWaitError is returned when Batches.Wait stops before the batch
// finished because its context ended: the deadline passed (errors.Is
// context.DeadlineExceeded) or the caller cancelled. The batch keeps
// running on the service; waiting on BatchID again resumes.
type BatchWaitError struct {
	BatchID string
	// Last is the batch as last seen; nil if it was never read.
	Last *Batch
	Err  error
}

func (e *BatchWaitError) Error() string {
	seen := "never read"
	if e.Last != nil {
		seen = fmt.Sprintf("last seen %s, %d of %d rows processed", e.Last.Status, e.Last.Processed, e.Last.Total)
	}
	what := "waiting was cancelled"
	if errors.Is(e.Err, context.DeadlineExceeded) {
		what = "it did not finish before the time limit"
	}
	return fmt.Sprintf("batch %s: %s (%s); the batch keeps running on the service", e.BatchID, what, seen)
}

func (e *BatchWaitError) Unwrap() error { return e.Err }

// Wait polls a batch on the schedule until it is FINISHED and
// returns it. progress, if not nil, is called with the batch after every
// look. It returns a *BatchFailedError (with the batch) when the batch
// finished with an error, and a *BatchWaitError (with the last batch seen)
// when ctx ends first.
func (s *BatchService) Wait(ctx context.Context, id string, schedule PollSchedule, progress func(Batch)) (*Batch, error) {
	var last *Batch
	warned := false
	for n := 0; ; n++ {
		b, err := s.Get(ctx, id)
		if err != nil {
			if ctxErr := ctx.Err(); ctxErr != nil {
				return last, &BatchWaitError{BatchID: id, Last: last, Err: ctxErr}
			}
			return last, fmt.Errorf("waiting for batch %s: %w", id, err)
		}
		last = b
		if !b.KnownStatus() && !warned {
			warned = true
			s.c.logger.Warn(ctx, "batch has a status this provider does not know; waiting on it as still running", map[string]any{
				"batch_id": id, "status": b.RawStatus,
			})
		}
		if progress != nil {
			progress(*b)
		}
		if b.Finished() {
			return b, b.Err()
		}
		if err := schedule.sleep(ctx, schedule.Delay(n)); err != nil {
			return last, &BatchWaitError{BatchID: id, Last: last, Err: err}
		}
	}
}
