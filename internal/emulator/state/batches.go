package state

import (
	"cmp"
	"slices"
	"sync"
	"time"
)

// The account's batches: asynchronous jobs that move through PENDING,
// IN_PROGRESS and FINISHED on a timeline fixed when each is created, and
// handle their rows in proportion to the clock whenever the account is
// touched (internal/emulator/batches.go tells the timeline). The engine knows
// no kind of work: each kind implements Work, and saves and restores its own
// part of a batch's record (batches_snapshot.go).

// Work is what a batch does, one row at a time.
type Work interface {
	// Total is the number of rows the batch handles.
	Total() int64
	// Process handles rows [from, to) in order and reports how many of them
	// changed something (affected) and how many could not be handled
	// (failed). It is called with increasing, adjacent ranges, never
	// concurrently for one batch.
	Process(from, to int64) (affected, failed int64)
}

// Finisher is work with a last step, run once when all rows are handled
// and no fault was injected: it may affect more rows (a replace import
// applies its rows at once) or fail the batch with a reason.
type Finisher interface {
	Finish() (affected int64, failure string)
}

// Batch is one job and its progress.
type Batch struct {
	ID        int64
	Type      string
	Submitted time.Time
	startAt   time.Time     // end of PENDING
	duration  time.Duration // length of IN_PROGRESS
	Work      Work

	mu        sync.Mutex // guards the fields below and calls of Work.Process
	failure   string     // an injected fault, reported once finished, or the last step's
	processed int64
	affected  int64
	failed    int64
	finished  bool
	announced bool      // the finished event was emitted
	seen      time.Time // clock at the last advance
}

// NewBatch is a batch of typ doing work, submitted at now, PENDING for
// pendingFor and then IN_PROGRESS for duration; failure, when not empty,
// is an injected fault it reports once finished. Batches.Start gives it
// its id.
func NewBatch(typ string, work Work, now time.Time, pendingFor, duration time.Duration, failure string) *Batch {
	return &Batch{Type: typ, Work: work, Submitted: now, startAt: now.Add(pendingFor), duration: duration, failure: failure, seen: now}
}

// Progress is where a batch stands, read at one moment.
type Progress struct {
	Processed, Affected, Failed int64
	Finished                    bool
	// Running is whether the batch had left PENDING at its last advance,
	// so that its status never runs ahead of its counts.
	Running bool
	// End is the end of IN_PROGRESS, its end time once finished.
	End time.Time
	// Failure is why the batch failed, once finished.
	Failure string
}

// Progress reads where the batch stands.
func (b *Batch) Progress() Progress {
	b.mu.Lock()
	defer b.mu.Unlock()
	p := Progress{Processed: b.processed, Affected: b.affected, Failed: b.failed, Finished: b.finished,
		Running: !b.seen.Before(b.startAt), End: b.startAt.Add(b.duration)}
	if b.finished {
		p.Failure = b.failure
	}
	return p
}

// Announce reports whether the batch's finished event is still to be sent,
// and notes that it is sent: once, even when concurrent requests saw the
// batch finish together.
func (b *Batch) Announce() bool {
	b.mu.Lock()
	defer b.mu.Unlock()
	first := !b.announced
	b.announced = true
	return first
}

// due is how many rows the timeline says are handled at now.
func (b *Batch) due(now time.Time, total int64) int64 {
	if now.Before(b.startAt) {
		return 0
	}
	elapsed := now.Sub(b.startAt)
	if b.duration <= 0 || elapsed >= b.duration {
		return total
	}
	n := int64(float64(total) * float64(elapsed) / float64(b.duration))
	return min(max(n, 0), total)
}

// advance handles the rows due at now and reports whether the batch is
// finished, and whether anything a snapshot keeps changed: its counts, its
// status (judged from seen) or its end.
func (b *Batch) advance(now time.Time) (finished, progressed bool) {
	b.mu.Lock()
	defer b.mu.Unlock()
	if b.finished {
		return true, false
	}
	wasPending := b.seen.Before(b.startAt)
	processed := b.processed
	defer func() {
		progressed = b.finished || b.processed != processed || wasPending != b.seen.Before(b.startAt)
	}()
	if now.After(b.seen) {
		b.seen = now
	}
	total := b.Work.Total()
	if target := b.due(now, total); target > b.processed {
		affected, failed := b.Work.Process(b.processed, target)
		b.affected += affected
		b.failed += failed
		b.processed = target
	}
	if b.processed == total && !now.Before(b.startAt.Add(b.duration)) {
		b.finished = true
		if f, ok := b.Work.(Finisher); ok && b.failure == "" {
			affected, failure := f.Finish()
			b.affected += affected
			b.failure = failure
		}
	}
	return b.finished, false // progressed: set by the deferred function
}

// Batches is the account's batches: a store of its own, reached as
// Store.Batches. Its lock is its own, not the account's: a batch's work
// changes contacts, which takes the account's lock.
type Batches struct {
	st     *Store
	mu     sync.Mutex
	byID   map[int64]*Batch
	active map[int64]*Batch // not yet finished
}

// Numbered is work that learns its batch's id when the batch starts,
// before any row is handled: an import names its batch in the histories of
// the contacts it changes.
type Numbered interface {
	StartedAs(batchID int64)
}

// Start gives b the account's next id and registers it.
func (bs *Batches) Start(b *Batch) {
	b.ID = bs.st.AllocID()
	if n, ok := b.Work.(Numbered); ok {
		n.StartedAs(b.ID)
	}
	bs.mu.Lock()
	defer bs.mu.Unlock()
	bs.byID[b.ID] = b
	bs.active[b.ID] = b
}

// Advance brings every unfinished batch up to now, and returns those that
// finished and whether anything a snapshot keeps changed.
func (bs *Batches) Advance(now time.Time) (finished []*Batch, moved bool) {
	bs.mu.Lock()
	if len(bs.active) == 0 {
		bs.mu.Unlock()
		return nil, false
	}
	pending := make([]*Batch, 0, len(bs.active))
	for _, b := range bs.active {
		pending = append(pending, b)
	}
	bs.mu.Unlock()
	for _, b := range pending {
		done, progressed := b.advance(now)
		moved = moved || progressed
		if done {
			bs.mu.Lock()
			delete(bs.active, b.ID)
			bs.mu.Unlock()
			finished = append(finished, b)
		}
	}
	return finished, moved
}

// Get returns the batch with id.
func (bs *Batches) Get(id int64) (*Batch, bool) {
	bs.mu.Lock()
	defer bs.mu.Unlock()
	b, ok := bs.byID[id]
	return b, ok
}

// All returns the batches of typ ("" for every type) in ascending id order.
func (bs *Batches) All(typ string) []*Batch {
	bs.mu.Lock()
	all := make([]*Batch, 0, len(bs.byID))
	for _, b := range bs.byID {
		if typ == "" || b.Type == typ {
			all = append(all, b)
		}
	}
	bs.mu.Unlock()
	slices.SortFunc(all, func(a, b *Batch) int { return cmp.Compare(a.ID, b.ID) })
	return all
}
