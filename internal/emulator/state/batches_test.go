package state

import (
	"sync"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
)

// rowsWork records the rows it is handed; every row is affected.
type rowsWork struct {
	n     int64
	mu    sync.Mutex
	calls [][2]int64
}

func (w *rowsWork) Total() int64 { return w.n }

func (w *rowsWork) Process(from, to int64) (int64, int64) {
	w.mu.Lock()
	defer w.mu.Unlock()
	w.calls = append(w.calls, [2]int64{from, to})
	return to - from, 0
}

// A request that read the clock before another request moved the batch
// further (Batches.Advance reads it before taking the batch's lock) moves
// nothing back and hands out no row twice. The interleaving that leads
// there is timed by the scheduler, so the test makes it by hand.
func TestBatchAdvanceWithAnEarlierClockChangesNothing(t *testing.T) {
	start := time.Date(2026, 11, 1, 10, 0, 0, 0, time.UTC)
	work := &rowsWork{n: 300}
	b := NewBatch("IMPORT", work, start, 0, 30*time.Second, "")
	later, earlier := start.Add(20*time.Second), start.Add(10*time.Second)
	if finished, progressed := b.advance(later); finished || !progressed {
		t.Fatalf("advance(+20s) = finished %v, progressed %v; want progress, unfinished", finished, progressed)
	}
	if finished, progressed := b.advance(earlier); finished || progressed {
		t.Errorf("advance(+10s) after +20s = finished %v, progressed %v; want neither", finished, progressed)
	}
	if diff := cmp.Diff([][2]int64{{0, 200}}, work.calls); diff != "" {
		t.Errorf("rows handed out (-want +got):\n%s", diff)
	}
	if p := b.Progress(); p.Processed != 200 || !p.Running || p.Finished {
		t.Errorf("progress = %+v, want 200 processed, running", p)
	}
}
