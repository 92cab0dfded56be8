package client

import (
	"context"
	"errors"
	"fmt"
	"net/http"
	"net/url"
	"time"
)

const batchesPath = "batches"

// Batch states and types of the interface.
const (
	BatchPending    = "PENDING"
	BatchInProgress = "IN_PROGRESS"
	BatchFinished   = "FINISHED"

	BatchTypeImport      = "IMPORT"
	BatchTypeStatsExport = "STAT_EXPORT"
)

// Batch is an asynchronous job of the service: an import or a statistics
// export. Failed and Error are fields added to the interface's Batch table
// (see the service conventions guide): Error is set when the batch failed as
// a whole; Failed counts rows that could not be handled.
type Batch struct {
	ID         ID     `json:"id"`
	Type       string `json:"type"`
	CustomerID ID     `json:"customerId"`
	// StartTime and EndTime are epoch milliseconds in the interface; any
	// form Timestamp reads is accepted. EndTime is zero until the batch is
	// finished, and either is zero when the service leaves it out.
	StartTime Timestamp `json:"startTime"`
	EndTime   Timestamp `json:"endTime"`
	Affected  int64     `json:"affected"`
	Processed int64     `json:"processed"`
	Total     int64     `json:"total"`
	Failed    int64     `json:"failed"`
	// FailedRows names the first rows that could not be handled, where the
	// service says (an added field of the conventions, at most ten); Failed
	// counts them all. Read leniently (batch_status.go): a list of another
	// shape is left out rather than failing the batch.
	FailedRows []FailedRow `json:"-"`
	// Shown says which counts the service sent: one it left out reads 0
	// above, and is not known to be 0.
	Shown BatchCountsShown `json:"-"`
	// Status is one of the three documented states, whatever word the
	// service used (batch_status.go); RawStatus is that word.
	Status    string `json:"status"`
	RawStatus string `json:"-"`
	Error     string `json:"error"`

	// Read-back fields of the service conventions ("Reading back what a
	// write made"): when the batch was accepted (RFC 3339) and the request
	// that started it: ExportType and Period for a STAT_EXPORT, ListID and
	// ImportID for an IMPORT. Empty when the service does not send them.
	DateCreated Timestamp `json:"dateCreated"`
	ExportType  string    `json:"exportType"`
	Period      string    `json:"period"`
	ListID      ID        `json:"listId"`
	ImportID    ID        `json:"importId"`
}

// FailedRow is a row of an import file that the batch could not handle:
// its number in the file (the header is row 1; 0 when the service gave
// none that reads as a number) and why.
type FailedRow struct {
	Row    int64  `json:"row"`
	Reason string `json:"reason"`
}

// BatchCountsShown says which of a batch's counts the service sent. The
// interface lists processed and affected; failed is an added field, and a
// service may send none of them.
type BatchCountsShown struct {
	Processed, Affected, Failed bool
}

// FailedCount is the number of rows the batch could not handle, and whether
// the service said.
func (b *Batch) FailedCount() (int64, bool) { return b.Failed, b.Shown.Failed }

// Finished reports whether the batch has stopped, successfully or not.
func (b *Batch) Finished() bool { return b.Status == BatchFinished }

// Started is StartTime as a time; zero when the service sent none.
func (b *Batch) Started() time.Time { return b.StartTime.Time }

// Ended is EndTime as a time; zero until the batch is finished.
func (b *Batch) Ended() time.Time { return b.EndTime.Time }

// Err is a *BatchFailedError when the batch finished with an error, else nil.
func (b *Batch) Err() error {
	if b.Finished() && b.Error != "" {
		return &BatchFailedError{Batch: *b}
	}
	return nil
}

// ErrBatchFailed matches a *BatchFailedError with errors.Is.
var ErrBatchFailed = errors.New("batch failed")

// BatchFailedError is a batch that finished with an error: it has no result.
type BatchFailedError struct {
	Batch Batch
}

func (e *BatchFailedError) Error() string {
	return fmt.Sprintf("batch %s (%s) failed on the service: %s", e.Batch.ID, e.Batch.Type, e.Batch.Error)
}

// Is makes errors.Is(err, ErrBatchFailed) true.
func (e *BatchFailedError) Is(target error) bool { return target == ErrBatchFailed }

// Get reads a batch; the error matches ErrNotFound when it is unknown.
func (s *BatchService) Get(ctx context.Context, id string) (*Batch, error) {
	var b Batch
	if err := s.c.doJSON(ctx, http.MethodGet, Path(batchesPath, id), nil, nil, &b); err != nil {
		return nil, fmt.Errorf("reading batch %s: %w", id, err)
	}
	if b.ID == "" {
		b.ID = ID(id)
	}
	return &b, nil
}

// List returns the account's batches in ascending id order, only
// those of typ when it is not empty (BatchTypeImport, BatchTypeStatsExport).
// The call is a service convention, not part of the interface: it is how a
// start whose outcome is unknown finds the batch it made.
func (s *BatchService) List(ctx context.Context, typ string) ([]Batch, error) {
	var q url.Values
	if typ != "" {
		q = url.Values{"type": {typ}}
	}
	all, err := GetAll[Batch](ctx, s.c, batchesPath, q)
	if err != nil {
		return nil, fmt.Errorf("reading back the account's batches: %w", err)
	}
	return all, nil
}
