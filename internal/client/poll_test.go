package client

import (
	"context"
	"errors"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
	"testing/synctest"
	"time"

	"github.com/google/go-cmp/cmp"

	"github.com/rms-labs/terraform-provider-rms/internal/emulator"
)

// The emulator is the real server of these tests: it is written from the
// interface, not from this client.
func newEmulatorClient(t *testing.T, opts emulator.Options) (*Client, *emulator.Server) {
	t.Helper()
	s := emulator.New(opts)
	srv := httptest.NewServer(s)
	t.Cleanup(srv.Close)
	o := s.Options()
	c, err := New(Config{
		BaseURL:      srv.URL,
		CustomerID:   o.CustomerID,
		Auth:         BasicAuth{Username: o.Username, Password: o.Password},
		MaxRetries:   2,
		RetryWaitMin: time.Millisecond,
		RetryWaitMax: time.Millisecond,
	})
	if err != nil {
		t.Fatal(err)
	}
	return c, s
}

// newInMemoryClient is newEmulatorClient without a socket: the emulator
// serves each request in the calling goroutine, so a test can run in a
// synctest bubble (a real connection would not be part of it), where the
// emulator's clock (time.Now) and the client's poll timers are fake and a
// wait of minutes takes none.
func newInMemoryClient(t *testing.T, opts emulator.Options) (*Client, *emulator.Server) {
	t.Helper()
	s := emulator.New(opts)
	t.Cleanup(s.Close)
	o := s.Options()
	c, err := New(Config{
		BaseURL:    "http://127.0.0.1",
		CustomerID: o.CustomerID,
		Auth:       BasicAuth{Username: o.Username, Password: o.Password},
		Transport: roundTripFunc(func(r *http.Request) (*http.Response, error) {
			rec := httptest.NewRecorder()
			s.ServeHTTP(rec, r)
			resp := rec.Result()
			resp.Request = r // as http.Transport sets it
			return resp, nil
		}),
		MaxRetries:   2,
		RetryWaitMin: time.Millisecond,
		RetryWaitMax: time.Millisecond,
	})
	if err != nil {
		t.Fatal(err)
	}
	return c, s
}

func TestPollScheduleDelay(t *testing.T) {
	s := time.Second
	tests := []struct {
		name     string
		schedule PollSchedule
		want     []time.Duration
	}{
		{"defaults: quick looks, then every 30s", PollSchedule{},
			[]time.Duration{1 * s, 2 * s, 4 * s, 8 * s, 16 * s, 30 * s, 30 * s, 30 * s}},
		{"a one-minute interval", PollSchedule{First: s, Interval: time.Minute},
			[]time.Duration{1 * s, 2 * s, 4 * s, 8 * s, 16 * s, 32 * s, 60 * s, 60 * s}},
		{"interval of one second: never quicker, never slower", PollSchedule{First: s, Interval: s},
			[]time.Duration{s, s, s, s}},
		{"first longer than the interval is capped", PollSchedule{First: 10 * s, Interval: 5 * s},
			[]time.Duration{5 * s, 5 * s, 5 * s}},
		{"tiny test values", PollSchedule{First: time.Millisecond, Interval: 5 * time.Millisecond},
			[]time.Duration{time.Millisecond, 2 * time.Millisecond, 4 * time.Millisecond, 5 * time.Millisecond}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			var got []time.Duration
			for n := range tt.want {
				got = append(got, tt.schedule.Delay(n))
			}
			if diff := cmp.Diff(tt.want, got); diff != "" {
				t.Errorf("delays (-want +got):\n%s", diff)
			}
		})
	}
	// Far into a long wait the delay stays at the interval, without overflow.
	if got := (PollSchedule{}).Delay(1 << 20); got != 30*s {
		t.Errorf("Delay(1<<20) = %s, want 30s", got)
	}
	// Never zero: the schedule cannot busy-poll.
	for n := range 100 {
		if d := (PollSchedule{First: time.Nanosecond, Interval: time.Nanosecond}).Delay(n); d <= 0 {
			t.Fatalf("Delay(%d) = %s", n, d)
		}
	}
}

func TestWaitForBatchFollowsTheSchedule(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		c, _ := newInMemoryClient(t, emulator.Options{
			BatchPendingFor:  5 * time.Second,
			BatchMinDuration: 20 * time.Second,
		})
		start := time.Now()
		id, err := c.Exports.StartStatistics(context.Background(), StatisticsExportRequest{ExportType: "OPENS", Period: "TODAY"})
		if err != nil {
			t.Fatal(err)
		}
		var looks []time.Duration
		var seen []string
		// The real timer of the schedule, on the bubble's fake clock.
		schedule := PollSchedule{First: time.Second, Interval: 30 * time.Second}
		b, err := c.Batches.Wait(context.Background(), id.String(), schedule, func(b Batch) {
			looks = append(looks, time.Since(start))
			seen = append(seen, b.Status)
		})
		if err != nil {
			t.Fatalf("Batches.Wait: %v", err)
		}
		// Looks at 0, 1, 3, 7, 15 and 31 seconds; the batch finishes at 25.
		s := time.Second
		if diff := cmp.Diff([]time.Duration{0, s, 3 * s, 7 * s, 15 * s, 31 * s}, looks); diff != "" {
			t.Errorf("looks (-want +got):\n%s", diff)
		}
		if diff := cmp.Diff([]string{"PENDING", "PENDING", "PENDING", "IN_PROGRESS", "IN_PROGRESS", "FINISHED"}, seen); diff != "" {
			t.Errorf("statuses seen (-want +got):\n%s", diff)
		}
		if !b.Finished() || b.ID != id || b.Type != BatchTypeStatsExport {
			t.Errorf("batch = %+v", b)
		}
		if want := time.Now().Add(-6 * time.Second); !b.Ended().Equal(want) {
			t.Errorf("Ended = %s, want %s", b.Ended(), want)
		}
	})
}

func TestWaitForBatchReturnsAtOnceWhenFinished(t *testing.T) {
	c, _ := newEmulatorClient(t, emulator.Options{})
	id, err := c.Exports.StartStatistics(context.Background(), StatisticsExportRequest{ExportType: "LISTS", Period: "TODAY"})
	if err != nil {
		t.Fatal(err)
	}
	schedule := PollSchedule{Sleep: func(context.Context, time.Duration) error {
		t.Error("slept although the batch was finished at the first look")
		return nil
	}}
	if _, err := c.Batches.Wait(context.Background(), id.String(), schedule, nil); err != nil {
		t.Fatal(err)
	}
}

func TestWaitForBatchFailedBatch(t *testing.T) {
	c, _ := newEmulatorClient(t, emulator.Options{BatchError: func(string) string { return "disk full" }})
	id, err := c.Exports.StartStatistics(context.Background(), StatisticsExportRequest{ExportType: "SENT", Period: "TODAY"})
	if err != nil {
		t.Fatal(err)
	}
	b, err := c.Batches.Wait(context.Background(), id.String(), PollSchedule{}, nil)
	var failed *BatchFailedError
	if !errors.As(err, &failed) || !errors.Is(err, ErrBatchFailed) {
		t.Fatalf("err = %v, want a *BatchFailedError", err)
	}
	if failed.Batch.Error != "disk full" || b == nil || b.Error != "disk full" {
		t.Errorf("failed batch = %+v, returned %+v", failed.Batch, b)
	}
	mustContain(t, err.Error(), "batch "+id.String()+" (STAT_EXPORT) failed on the service: disk full")
}

// A deadline that passes while waiting gives a *BatchWaitError naming the
// batch and its last state. The real timers of the schedule and of the
// deadline run on a synctest bubble's fake clock.
func TestWaitForBatchDeadline(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		c, _ := newInMemoryClient(t, emulator.Options{BatchPendingFor: time.Hour})
		id, err := c.Exports.StartStatistics(context.Background(), StatisticsExportRequest{ExportType: "SENT", Period: "TODAY"})
		if err != nil {
			t.Fatal(err)
		}
		ctx, cancel := context.WithTimeout(context.Background(), 50*time.Millisecond)
		defer cancel()
		looks := 0
		b, err := c.Batches.Wait(ctx, id.String(), PollSchedule{First: time.Millisecond, Interval: 5 * time.Millisecond}, func(Batch) { looks++ })
		var waitErr *BatchWaitError
		if !errors.As(err, &waitErr) || !errors.Is(err, context.DeadlineExceeded) {
			t.Fatalf("err = %v, want a *BatchWaitError for the deadline", err)
		}
		if waitErr.BatchID != id.String() || waitErr.Last == nil || b == nil || b.Status != BatchPending {
			t.Errorf("wait error = %+v, batch %+v", waitErr, b)
		}
		mustContain(t, err.Error(), "batch "+id.String()+": it did not finish before the time limit (last seen PENDING, 0 of 0 rows processed); the batch keeps running on the service")
		// Looks at 0, 1, 3, 7, 12, ... 47 ms: exactly 12 before the deadline.
		if looks != 12 {
			t.Errorf("looked %d times in 50ms with a 5ms interval, want 12", looks)
		}
	})
}

func TestWaitForBatchCancelled(t *testing.T) {
	c, _ := newEmulatorClient(t, emulator.Options{BatchPendingFor: time.Hour})
	id, err := c.Exports.StartStatistics(context.Background(), StatisticsExportRequest{ExportType: "SENT", Period: "TODAY"})
	if err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	schedule := PollSchedule{Sleep: func(ctx context.Context, _ time.Duration) error {
		cancel() // the user pressed Ctrl-C
		<-ctx.Done()
		return ctx.Err()
	}}
	_, err = c.Batches.Wait(ctx, id.String(), schedule, nil)
	if !errors.Is(err, context.Canceled) || !strings.Contains(err.Error(), "waiting was cancelled") {
		t.Errorf("err = %v, want a cancelled BatchWaitError", err)
	}
}

func TestWaitForBatchUnknownBatch(t *testing.T) {
	c, _ := newEmulatorClient(t, emulator.Options{})
	_, err := c.Batches.Wait(context.Background(), "424242", PollSchedule{}, nil)
	if !IsNotFound(err) {
		t.Fatalf("err = %v, want not found", err)
	}
	mustContain(t, err.Error(), "waiting for batch 424242: reading batch 424242: GET /rest/1000/batches/424242: 404 NOT_FOUND")
}
