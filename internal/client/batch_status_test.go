package client

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"net/http"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
)

// Every status word a service may use reads as one of the three documented
// states, whatever its case; failure words finish the batch with an error
// that names the word.
func TestBatchStatusWords(t *testing.T) {
	tests := []struct {
		raw        string
		wantStatus string
		wantFailed bool
		wantKnown  bool
	}{
		{"FINISHED", BatchFinished, false, true},
		{"finished", BatchFinished, false, true},
		{"COMPLETED", BatchFinished, false, true},
		{"Complete", BatchFinished, false, true},
		{"done", BatchFinished, false, true},
		{"SUCCESS", BatchFinished, false, true},
		{"Succeeded", BatchFinished, false, true},
		{" SUCCESSFUL ", BatchFinished, false, true},
		{"FAILED", BatchFinished, true, true},
		{"failed", BatchFinished, true, true},
		{"Failure", BatchFinished, true, true},
		{"ERROR", BatchFinished, true, true},
		{"errored", BatchFinished, true, true},
		{"ABORTED", BatchFinished, true, true},
		{"CANCELLED", BatchFinished, true, true},
		{"canceled", BatchFinished, true, true},
		{"REJECTED", BatchFinished, true, true},
		{"EXPIRED", BatchFinished, true, true},
		{"TIMED_OUT", BatchFinished, true, true},
		{"timed-out", BatchFinished, true, true},
		{"TIMEDOUT", BatchFinished, true, true},
		{"PENDING", BatchPending, false, true},
		{"queued", BatchPending, false, true},
		{"Created", BatchPending, false, true},
		{"SCHEDULED", BatchPending, false, true},
		{"waiting", BatchPending, false, true},
		{"NEW", BatchPending, false, true},
		{"IN_PROGRESS", BatchInProgress, false, true},
		{"in-progress", BatchInProgress, false, true},
		{"in_progress", BatchInProgress, false, true},
		{"RUNNING", BatchInProgress, false, false},
		{"PROCESSING", BatchInProgress, false, false},
		{"STARTED", BatchInProgress, false, false},
		{"REINDEXING", BatchInProgress, false, false},
	}
	for _, tt := range tests {
		t.Run(tt.raw, func(t *testing.T) {
			var b Batch
			body := fmt.Sprintf(`{"id":7,"type":"IMPORT","status":%q}`, tt.raw)
			if err := json.Unmarshal([]byte(body), &b); err != nil {
				t.Fatal(err)
			}
			if b.Status != tt.wantStatus || b.RawStatus != tt.raw {
				t.Errorf("Status, RawStatus = %q, %q; want %q, %q", b.Status, b.RawStatus, tt.wantStatus, tt.raw)
			}
			if got := b.Finished(); got != (tt.wantStatus == BatchFinished) {
				t.Errorf("Finished() = %v", got)
			}
			if got := b.KnownStatus(); got != tt.wantKnown {
				t.Errorf("KnownStatus() = %v, want %v", got, tt.wantKnown)
			}
			err := b.Err()
			if !tt.wantFailed {
				if err != nil || b.Error != "" {
					t.Errorf("Err() = %v, Error = %q; want none", err, b.Error)
				}
				return
			}
			var failed *BatchFailedError
			if !errors.As(err, &failed) || !errors.Is(err, ErrBatchFailed) {
				t.Fatalf("Err() = %v, want a *BatchFailedError", err)
			}
			mustContain(t, err.Error(), "batch 7 (IMPORT) failed on the service: the service reported status "+tt.raw+" without a reason")
		})
	}
}

// A failure with a reason keeps the service's reason; a reason on a batch
// that is not finished is no failure yet.
func TestBatchErrorReason(t *testing.T) {
	var b Batch
	if err := json.Unmarshal([]byte(`{"id":"b1","type":"STAT_EXPORT","status":"FAILED","error":"disk full"}`), &b); err != nil {
		t.Fatal(err)
	}
	if b.Error != "disk full" || b.Err() == nil {
		t.Fatalf("batch = %+v", b)
	}
	mustContain(t, b.Err().Error(), "batch b1 (STAT_EXPORT) failed on the service: disk full")

	var running Batch
	if err := json.Unmarshal([]byte(`{"id":2,"status":"RUNNING","error":"row 3 rejected"}`), &running); err != nil {
		t.Fatal(err)
	}
	if running.Err() != nil || running.Finished() {
		t.Errorf("a running batch with an error text: Finished %v, Err %v", running.Finished(), running.Err())
	}
}

// Without a status, an endTime says the batch finished; without either it
// is running.
func TestBatchWithoutStatus(t *testing.T) {
	tests := []struct {
		name, body string
		want       string
	}{
		{"no status, endTime in ms", `{"id":1,"startTime":1795341600000,"endTime":1795341660000}`, BatchFinished},
		{"no status, endTime as RFC 3339", `{"id":1,"endTime":"2026-11-22T10:01:00Z"}`, BatchFinished},
		{"null status, endTime", `{"id":1,"status":null,"endTime":1795341660000}`, BatchFinished},
		{"empty status, endTime", `{"id":1,"status":"","endTime":1795341660000}`, BatchFinished},
		{"no status, no endTime", `{"id":1,"startTime":1795341600000}`, BatchInProgress},
		{"no status, endTime null", `{"id":1,"endTime":null}`, BatchInProgress},
		{"no status, endTime 0", `{"id":1,"endTime":0}`, BatchInProgress},
		{"no status, endTime garbage", `{"id":1,"endTime":"later"}`, BatchInProgress},
		{"a status wins over endTime", `{"id":1,"status":"QUEUED","endTime":1795341660000}`, BatchPending},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			var b Batch
			if err := json.Unmarshal([]byte(tt.body), &b); err != nil {
				t.Fatal(err)
			}
			if b.Status != tt.want {
				t.Errorf("Status = %q, want %q", b.Status, tt.want)
			}
			if b.Err() != nil {
				t.Errorf("Err() = %v, want none", b.Err())
			}
			if !b.KnownStatus() {
				t.Error("KnownStatus() = false: no status is a case the rule names")
			}
		})
	}

	// Waiting on such a batch finishes on endTime and warns of nothing.
	var n counter
	log := &recordingLogger{}
	c, _ := newTestClient(t, http.HandlerFunc(func(w http.ResponseWriter, _ *http.Request) {
		if n.inc() == 1 {
			writeJSON(w, 200, `{"id":7}`)
			return
		}
		writeJSON(w, 200, `{"id":7,"endTime":1795341660000}`)
	}), func(cfg *Config) { cfg.Logger = log })
	schedule := PollSchedule{Sleep: func(context.Context, time.Duration) error { return nil }}
	b, err := c.Batches.Wait(context.Background(), "7", schedule, nil)
	if err != nil || !b.Finished() || n.get() != 2 {
		t.Fatalf("Batches.Wait = %+v, %v after %d looks", b, err, n.get())
	}
	for _, e := range log.all() {
		if e.level == "warn" {
			t.Errorf("warning for a batch without a status: %s", e.text())
		}
	}
}

// batchSequence answers GET /batches/7 with each status in turn, then the
// last one for ever.
type batchSequence struct {
	mu       sync.Mutex
	statuses []string
	gets     int
}

func (s *batchSequence) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	if r.Method != http.MethodGet || r.URL.Path != "/rest/1000/batches/7" {
		writeError(w, 404, "NOT_FOUND", "no", "")
		return
	}
	s.mu.Lock()
	st := s.statuses[min(s.gets, len(s.statuses)-1)]
	s.gets++
	s.mu.Unlock()
	writeJSON(w, 200, fmt.Sprintf(`{"id":7,"type":"IMPORT","status":%q,"processed":1,"total":2}`, st))
}

// Batches.Wait over a service that says QUEUED, RUNNING, COMPLETED finishes,
// sleeping as the schedule says and never for real.
func TestWaitForBatchServiceWords(t *testing.T) {
	srv := &batchSequence{statuses: []string{"QUEUED", "RUNNING", "RUNNING", "COMPLETED"}}
	log := &recordingLogger{}
	c, _ := newTestClient(t, srv, func(cfg *Config) { cfg.Logger = log })
	var slept []time.Duration
	schedule := PollSchedule{First: time.Second, Interval: 3 * time.Second, Sleep: func(_ context.Context, d time.Duration) error {
		slept = append(slept, d)
		return nil
	}}
	var seen []string
	b, err := c.Batches.Wait(context.Background(), "7", schedule, func(b Batch) { seen = append(seen, b.Status+"/"+b.RawStatus) })
	if err != nil {
		t.Fatalf("Batches.Wait: %v", err)
	}
	if !b.Finished() || b.RawStatus != "COMPLETED" || b.Err() != nil {
		t.Errorf("batch = %+v", b)
	}
	if diff := cmp.Diff([]string{"PENDING/QUEUED", "IN_PROGRESS/RUNNING", "IN_PROGRESS/RUNNING", "FINISHED/COMPLETED"}, seen); diff != "" {
		t.Errorf("progress (-want +got):\n%s", diff)
	}
	if diff := cmp.Diff([]time.Duration{time.Second, 2 * time.Second, 3 * time.Second}, slept); diff != "" {
		t.Errorf("sleeps (-want +got):\n%s", diff)
	}
	if srv.gets != 4 {
		t.Errorf("%d looks, want 4", srv.gets)
	}
	// RUNNING is not a documented word: one warning, not one per look.
	warns := 0
	for _, e := range log.all() {
		if e.level == "warn" && strings.Contains(e.text(), "status=RUNNING") {
			warns++
		}
	}
	if warns != 1 {
		t.Errorf("%d warnings about RUNNING, want 1: %v", warns, log.all())
	}
}

// A FAILED batch ends the wait with a *BatchFailedError naming the status.
func TestWaitForBatchFailedWord(t *testing.T) {
	srv := &batchSequence{statuses: []string{"QUEUED", "FAILED"}}
	c, _ := newTestClient(t, srv)
	schedule := PollSchedule{Sleep: func(context.Context, time.Duration) error { return nil }}
	b, err := c.Batches.Wait(context.Background(), "7", schedule, nil)
	var failed *BatchFailedError
	if !errors.As(err, &failed) {
		t.Fatalf("err = %v, want a *BatchFailedError", err)
	}
	if b == nil || !b.Finished() || failed.Batch.RawStatus != "FAILED" {
		t.Errorf("batch = %+v, failed = %+v", b, failed.Batch)
	}
	mustContain(t, err.Error(), "reported status FAILED")
}

// A status this client does not know is waited on as running until the
// context's deadline passes; the fake sleep advances a fake clock and
// returns the deadline's error once it passes, as a timer would.
func TestWaitForBatchUnknownStatusWaitsForTheDeadline(t *testing.T) {
	srv := &batchSequence{statuses: []string{"REINDEXING"}}
	c, _ := newTestClient(t, srv)
	const limit = 10 * time.Minute
	ctx, cancel := context.WithTimeout(context.Background(), time.Hour) // never reached for real
	defer cancel()
	var elapsed time.Duration
	sleeps := 0
	schedule := PollSchedule{First: time.Second, Interval: 30 * time.Second}
	schedule.Sleep = func(_ context.Context, d time.Duration) error {
		sleeps++
		if elapsed+d > limit {
			return context.DeadlineExceeded
		}
		elapsed += d
		return nil
	}
	b, err := c.Batches.Wait(ctx, "7", schedule, nil)
	var waitErr *BatchWaitError
	if !errors.As(err, &waitErr) || !errors.Is(err, context.DeadlineExceeded) {
		t.Fatalf("err = %v, want a *BatchWaitError for the deadline", err)
	}
	if b == nil || b.Status != BatchInProgress || b.RawStatus != "REINDEXING" || waitErr.Last == nil || waitErr.BatchID != "7" {
		t.Errorf("last batch = %+v, wait error %+v", b, waitErr)
	}
	mustContain(t, err.Error(), "batch 7: it did not finish before the time limit (last seen IN_PROGRESS, 1 of 2 rows processed)")
	// Looks until the schedule's delays add up past the limit: 1+2+4+8+16
	// seconds, then every 30 s.
	var sum time.Duration
	wantLooks := 0
	for n := 0; ; n++ {
		wantLooks++
		if sum+schedule.Delay(n) > limit {
			break
		}
		sum += schedule.Delay(n)
	}
	if srv.gets != wantLooks || sleeps != wantLooks {
		t.Errorf("%d looks and %d sleeps, want %d each", srv.gets, sleeps, wantLooks)
	}
	if wantLooks < 20 {
		t.Errorf("the schedule gave only %d looks in %v", wantLooks, limit)
	}
}
