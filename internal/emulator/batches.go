package emulator

import (
	"math"
	"net/http"
	"strconv"
	"time"

	"github.com/rms-labs/terraform-provider-rms/internal/emulator/apierr"
	"github.com/rms-labs/terraform-provider-rms/internal/emulator/state"
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
// is computed from Options.Now whenever the account is touched
// (advanceBatches runs before every request), so an import changes the list
// at the pace of the clock even for a client that never polls, no goroutine
// runs between requests, and a fake clock drives everything in tests. The
// batches and their timeline are the state's (state.Batches, which knows no
// kind of work); this file starts them, brings them up to the clock and
// shows them.
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
	FailedRows []state.FailedRow `json:"failedRows,omitempty"`
	Status     string            `json:"status"`
	Error      string            `json:"error,omitempty"`
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

// startBatch registers a new batch of typ doing work, with the account's
// next id, and brings it up to date (a batch with no pending time and no
// duration finishes here).
func (s *batchesAPI) startBatch(typ string, work state.Work) *state.Batch {
	now := s.opts.Now()
	total := work.Total()
	duration := s.opts.BatchMinDuration
	if s.opts.BatchRowsPerSecond > 0 {
		secs := float64(total) / s.opts.BatchRowsPerSecond
		if d := time.Duration(math.Min(secs*float64(time.Second), math.MaxInt64/2)); d > duration {
			duration = d
		}
	}
	failure := ""
	if s.opts.BatchError != nil {
		failure = s.opts.BatchError(typ)
	}
	b := state.NewBatch(typ, work, now, s.opts.BatchPendingFor, duration, failure)
	s.store.Batches.Start(b)
	s.advanceBatches()
	return b
}

// advanceBatches brings every unfinished batch up to the clock.
func (s *batchesAPI) advanceBatches() {
	finished, moved := s.store.Batches.Advance(s.opts.Now())
	for _, b := range finished {
		s.announceFinished(b)
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
func (s *batchesAPI) announceFinished(b *state.Batch) {
	first := b.Announce()
	event, ok := batchEvents[b.Type]
	if !first || !ok {
		return
	}
	v := viewOfBatch(b, s.opts.CustomerID)
	data := map[string]any{
		"batchId": strconv.FormatInt(v.ID, 10), "type": v.Type, "status": v.Status,
		"total": v.Total, "processed": v.Processed, "affected": v.Affected, "failed": v.Failed,
	}
	if v.Error != "" {
		data["error"] = v.Error
	}
	if d, ok := b.Work.(eventDescriber); ok {
		for k, val := range d.eventData() {
			data[k] = val
		}
	}
	s.emit(event, data)
}

// batch returns the batch with id, brought up to the clock.
func (s *batchesAPI) batch(id int64) (*state.Batch, bool) {
	s.advanceBatches()
	return s.store.Batches.Get(id)
}

// viewOfBatch is the batch as the service shows it.
func viewOfBatch(b *state.Batch, customerID int64) batchView {
	p := b.Progress()
	v := batchView{
		ID:         b.ID,
		Type:       b.Type,
		CustomerID: customerID,
		StartTime:  b.Submitted.UnixMilli(),
		Affected:   p.Affected,
		Processed:  p.Processed,
		Total:      b.Work.Total(),
		Failed:     p.Failed,
		Status:     batchStatusPending,

		DateCreated: b.Submitted.UTC().Truncate(time.Second).Format(time.RFC3339),
	}
	if d, ok := b.Work.(requestDescriber); ok {
		d.describeRequest(&v)
	}
	switch {
	case p.Finished:
		v.Status = batchStatusFinished
		end := p.End.UnixMilli()
		v.EndTime = &end
		v.Error = p.Failure
	case p.Running:
		// Judged at the last advance, so the status never runs ahead of
		// the counts.
		v.Status = batchStatusRunning
	}
	return v
}

// batchTypes are the values of the type filter of the batch listing.
var batchTypes = []string{batchTypeImport, batchTypeStatExport}

// lookupBatch finds the batch named by the {batchId} path value.
func (s *batchesAPI) lookupBatch(r *http.Request) (*state.Batch, *apierr.Error) {
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
	// restorers make the work of each type of batch from its record in the
	// data directory; the domain whose work it is registers it (New).
	restorers map[string]state.WorkRestorer
}
