package emulator

import (
	"math"
	"net/http"
	"strconv"
	"sync"
	"time"

	"github.com/rms-labs/terraform-provider-rms/internal/emulator/apierr"
)

// Batches are the service's asynchronous jobs: imports (type IMPORT) and
// statistics exports (type STAT_EXPORT). The interface names three states,
// PENDING, IN_PROGRESS and FINISHED, and no transitions; the emulator moves a
// batch through them on a timeline fixed when it is created:
//
//	submitted ── BatchPendingFor ──> startAt ── duration ──> startAt+duration
//	 PENDING                          IN_PROGRESS (rows handled     FINISHED
//	                                  in proportion to time)
//
// where duration = max(BatchMinDuration, total/BatchRowsPerSecond). Progress
// is computed from Options.Now whenever the account is touched (advanceAll
// runs before every request), so an import changes the list at the pace of
// the clock even for a client that never polls, no goroutine runs between
// requests, and a fake clock drives everything in tests.
//
// When a batch finishes, the webhooks subscribed to import.finished or
// export.finished receive its counts, its error if any, and what the work
// adds (eventDescriber).
//
// Failure: the interface shows no failed state. A batch that fails as a whole
// ends FINISHED with an added "error" field (the reason) and has no result;
// rows that could not be handled are counted in an added "failed" field
// without failing the batch, and the first of them named, with the reason,
// in an added "failedRows" field. Both are optional fields, which the interface's
// versioning rules allow responses to gain.

// Batch types and states of the interface.
const (
	batchTypeImport      = "IMPORT"
	batchTypeStatExport  = "STAT_EXPORT"
	batchStatusPending   = "PENDING"
	batchStatusRunning   = "IN_PROGRESS"
	batchStatusFinished  = "FINISHED"
	batchesCollectionKey = "batches"
)

// batchWork is what a batch does, one row at a time.
type batchWork interface {
	// total is the number of rows the batch handles.
	total() int64
	// process handles rows [from, to) in order and reports how many of them
	// changed something (affected) and how many could not be handled
	// (failed). It is called with increasing, adjacent ranges, never
	// concurrently for one batch.
	process(from, to int64) (affected, failed int64)
}

// batchFinisher is work with a last step, run once when all rows are
// handled and no fault was injected: it may affect more rows (a replace
// import applies its rows at once) or fail the batch with a reason.
type batchFinisher interface {
	finish() (affected int64, failure string)
}

// batch is one job and its progress.
type batch struct {
	id        int64
	typ       string
	submitted time.Time
	startAt   time.Time     // end of PENDING
	duration  time.Duration // length of IN_PROGRESS
	work      batchWork
	failure   string // injected fault, reported once finished

	mu        sync.Mutex // guards the fields below and calls of work.process
	processed int64
	affected  int64
	failed    int64
	finished  bool
	announced bool      // the finished event was emitted
	seen      time.Time // clock at the last advance
}

// batchEvents are the webhook events emitted when a batch of a type
// finishes (successfully or not; the payload's error says which).
var batchEvents = map[string]string{batchTypeImport: "import.finished", batchTypeStatExport: "export.finished"}

// eventDescriber is work that adds fields to its batch's finished event
// (an import's list, an export's type and period).
type eventDescriber interface {
	eventData() map[string]any
}

// batchView is a batch as the interface's Batch table shows it, plus the
// optional failed and error fields. endTime is absent until FINISHED.
type batchView struct {
	ID         int64  `json:"id"`
	Type       string `json:"type"`
	CustomerID int64  `json:"customerId"`
	StartTime  int64  `json:"startTime"`
	EndTime    *int64 `json:"endTime,omitempty"`
	Affected   int64  `json:"affected"`
	Processed  int64  `json:"processed"`
	Total      int64  `json:"total"`
	Failed     int64  `json:"failed"`
	// FailedRows names the first rows that failed (an import's, see
	// imports_job.go); failed counts them all.
	FailedRows []failedRow `json:"failedRows,omitempty"`
	Status     string      `json:"status"`
	Error      string      `json:"error,omitempty"`
	// Added fields (see the conventions guide, "Reading back what a write
	// made"): when the batch was accepted, as RFC 3339, and the request
	// that started it, so that a client can recognise its own batch.
	DateCreated string `json:"dateCreated"`
	ExportType  string `json:"exportType,omitempty"`
	Period      string `json:"period,omitempty"`
	ListID      string `json:"listId,omitempty"`
	ImportID    string `json:"importId,omitempty"`
}

// requestDescriber is work that shows the request that started its batch
// in the batch's view (an export's type and period, an import's list and
// import id).
type requestDescriber interface {
	describeRequest(v *batchView)
}

// batchEngine holds the account's batches.
type batchEngine struct {
	mu     sync.Mutex
	byID   map[int64]*batch
	active map[int64]*batch // not yet finished
}

func newBatchEngine() *batchEngine {
	return &batchEngine{byID: map[int64]*batch{}, active: map[int64]*batch{}}
}

// startBatch registers a new batch of typ doing work, with the account's
// next id, and brings it up to date (a batch with no pending time and no
// duration finishes here).
func (s *batchesAPI) startBatch(typ string, work batchWork) *batch {
	now := s.opts.Now()
	total := work.total()
	duration := s.opts.BatchMinDuration
	if s.opts.BatchRowsPerSecond > 0 {
		secs := float64(total) / s.opts.BatchRowsPerSecond
		if d := time.Duration(math.Min(secs*float64(time.Second), math.MaxInt64/2)); d > duration {
			duration = d
		}
	}
	b := &batch{
		id:        s.store.AllocID(),
		typ:       typ,
		submitted: now,
		startAt:   now.Add(s.opts.BatchPendingFor),
		duration:  duration,
		work:      work,
		seen:      now,
	}
	if s.opts.BatchError != nil {
		b.failure = s.opts.BatchError(typ)
	}
	e := s.batches
	e.mu.Lock()
	e.byID[b.id] = b
	e.active[b.id] = b
	e.mu.Unlock()
	s.advanceBatches()
	return b
}

// advanceBatches brings every unfinished batch up to the clock.
func (s *batchesAPI) advanceBatches() {
	e := s.batches
	e.mu.Lock()
	if len(e.active) == 0 {
		e.mu.Unlock()
		return
	}
	pending := make([]*batch, 0, len(e.active))
	for _, b := range e.active {
		pending = append(pending, b)
	}
	e.mu.Unlock()

	now := s.opts.Now()
	moved := false
	for _, b := range pending {
		finished, progressed := b.advance(now)
		moved = moved || progressed
		if finished {
			e.mu.Lock()
			delete(e.active, b.id)
			e.mu.Unlock()
			s.announceFinished(b)
		}
	}
	if moved {
		// Progress with the clock happens outside the handlers that
		// change the account (it runs before GETs too): bring the data
		// directory up to date (state/datadir.go).
		s.changed()
	}
}

// announceFinished emits the batch's finished event to the webhooks, once
// even when concurrent requests saw it finish together.
func (s *batchesAPI) announceFinished(b *batch) {
	b.mu.Lock()
	first := !b.announced
	b.announced = true
	b.mu.Unlock()
	event, ok := batchEvents[b.typ]
	if !first || !ok {
		return
	}
	v := b.view(s.opts.CustomerID)
	data := map[string]any{
		"batchId": strconv.FormatInt(v.ID, 10), "type": v.Type, "status": v.Status,
		"total": v.Total, "processed": v.Processed, "affected": v.Affected, "failed": v.Failed,
	}
	if v.Error != "" {
		data["error"] = v.Error
	}
	if d, ok := b.work.(eventDescriber); ok {
		for k, val := range d.eventData() {
			data[k] = val
		}
	}
	s.emit(event, data)
}

// batch returns the batch with id, brought up to the clock.
func (s *batchesAPI) batch(id int64) (*batch, bool) {
	s.advanceBatches()
	e := s.batches
	e.mu.Lock()
	defer e.mu.Unlock()
	b, ok := e.byID[id]
	return b, ok
}

// due is how many rows the timeline says are handled at now.
func (b *batch) due(now time.Time, total int64) int64 {
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
func (b *batch) advance(now time.Time) (finished, progressed bool) {
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
	total := b.work.total()
	if target := b.due(now, total); target > b.processed {
		affected, failed := b.work.process(b.processed, target)
		b.affected += affected
		b.failed += failed
		b.processed = target
	}
	if b.processed == total && !now.Before(b.startAt.Add(b.duration)) {
		b.finished = true
		if f, ok := b.work.(batchFinisher); ok && b.failure == "" {
			affected, failure := f.finish()
			b.affected += affected
			b.failure = failure
		}
	}
	return b.finished, false // progressed: set by the deferred function
}

// view is the batch as the service shows it.
func (b *batch) view(customerID int64) batchView {
	b.mu.Lock()
	defer b.mu.Unlock()
	v := batchView{
		ID:         b.id,
		Type:       b.typ,
		CustomerID: customerID,
		StartTime:  b.submitted.UnixMilli(),
		Affected:   b.affected,
		Processed:  b.processed,
		Total:      b.work.total(),
		Failed:     b.failed,
		Status:     batchStatusPending,

		DateCreated: b.submitted.UTC().Truncate(time.Second).Format(time.RFC3339),
	}
	if d, ok := b.work.(requestDescriber); ok {
		d.describeRequest(&v)
	}
	switch {
	case b.finished:
		v.Status = batchStatusFinished
		end := b.startAt.Add(b.duration).UnixMilli()
		v.EndTime = &end
		v.Error = b.failure
	case !b.seen.Before(b.startAt):
		// Judged at the last advance, so the status never runs ahead of
		// the counts.
		v.Status = batchStatusRunning
	}
	return v
}

// batchTypes are the values of the type filter of the batch listing.
var batchTypes = []string{batchTypeImport, batchTypeStatExport}

// lookupBatch finds the batch named by the {batchId} path value.
func (s *batchesAPI) lookupBatch(r *http.Request) (*batch, *apierr.Error) {
	raw := r.PathValue("batchId")
	id, ok := parseID(raw)
	if !ok {
		return nil, apierr.Errorf(http.StatusNotFound, "no batch with id %q", raw)
	}
	b, ok := s.batch(id)
	if !ok {
		return nil, apierr.Errorf(http.StatusNotFound, "no batch with id %d", id)
	}
	return b, nil
}

// batchPath is the path of a batch, for Location headers.
func (s *batchesAPI) batchPath(id int64) string {
	return "/rest/" + strconv.FormatInt(s.opts.CustomerID, 10) + "/" + batchesCollectionKey + "/" + strconv.FormatInt(id, 10)
}

// batchesAPI serves the batches domain and runs the batch engine for the
// domains whose work is a batch (imports, statistics exports).
type batchesAPI struct {
	*base
	batches *batchEngine
	// restorers make the work of each type of batch from its record in the
	// data directory; the domain whose work it is registers it (New).
	restorers map[string]workRestorer
}

// savedWork is batch work that the data directory can hold: it writes its
// own part of the batch's record, which the restorer its domain registered
// for the batch's type reads back.
type savedWork interface {
	recordInto(rec *batchRecord)
}

// restartable is batch work that a restart can cut short: cutByRestart says
// whether a batch restored unfinished, with processed rows applied and
// failure as its error so far, must end, and with which error.
type restartable interface {
	cutByRestart(processed int64, failure string) (string, bool)
}

// workRestorer makes a batch's work again from its record; nextID is the
// store's, which every id the record names is at most.
type workRestorer func(rec batchRecord, nextID int64) (batchWork, error)

// failedRow is a row of the file the batch could not handle: its number in
// the file (the header is row 1) and why.
type failedRow struct {
	Row    int64  `json:"row"`
	Reason string `json:"reason"`
}

type batchRecord struct {
	ID        int64  `json:"id"`
	Type      string `json:"type"`
	Submitted string `json:"submitted"` // RFC 3339 with fractions: exact
	StartAt   string `json:"startAt"`   // end of PENDING
	EndAt     string `json:"endAt"`     // end of IN_PROGRESS (the view's endTime once finished)
	Seen      string `json:"seen"`      // clock at the last advance
	Processed int64  `json:"processed"`
	Affected  int64  `json:"affected"`
	Failed    int64  `json:"failed"`
	Finished  bool   `json:"finished"`
	// Error is the reason the batch failed: an injected fault
	// (Options.BatchError, reported once finished) or a failure of its
	// last step.
	Error  string             `json:"error,omitempty"`
	Import *importBatchRecord `json:"import,omitempty"`
	Export *exportBatchRecord `json:"export,omitempty"`
}

type exportBatchRecord struct {
	ExportType string     `json:"exportType"`
	Period     string     `json:"period"`
	Header     []string   `json:"header"`
	Rows       [][]string `json:"rows"`
	ExtraRows  int64      `json:"extraRows"`
}

type importBatchRecord struct {
	ListID     int64  `json:"listId"`
	ImportID   int64  `json:"importId"`
	ImportType string `json:"importType"`
	Total      int64  `json:"total"`
	// FailedRows are the rows the batch names as failed (imports_job.go).
	FailedRows []failedRow `json:"failedRows,omitempty"`
}
