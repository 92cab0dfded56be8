package emulator

// The wire profiles of a batch: the states and the fields it is shown with.

// Batch states of batch-status-other.
const (
	batchStatusQueued    = "QUEUED"
	batchStatusRunningB  = "RUNNING"
	batchStatusCompleted = "COMPLETED"
	batchStatusFailed    = "FAILED"
)

// batchSparseView is a batch under batch-sparse: its id, state, error and
// the read-back fields, nothing of the interface's counts and times.
type batchSparseView struct {
	ID          int64  `json:"id"`
	Status      string `json:"status"`
	Error       string `json:"error,omitempty"`
	DateCreated string `json:"dateCreated"`
	ExportType  string `json:"exportType,omitempty"`
	Period      string `json:"period,omitempty"`
	ListID      string `json:"listId,omitempty"`
	ImportID    string `json:"importId,omitempty"`
}

// presentBatch is a batch as the profiles show it.
func (s *batchesAPI) presentBatch(v batchView) any {
	if s.opts.Wire.Has(WireBatchStatusOther) {
		switch v.Status {
		case batchStatusPending:
			v.Status = batchStatusQueued
		case batchStatusRunning:
			v.Status = batchStatusRunningB
		case batchStatusFinished:
			v.Status = batchStatusCompleted
			if v.Error != "" {
				v.Status = batchStatusFailed
			}
		}
	}
	if s.opts.Wire.Has(WireBatchSparse) {
		return batchSparseView{ID: v.ID, Status: v.Status, Error: v.Error, DateCreated: v.DateCreated,
			ExportType: v.ExportType, Period: v.Period, ListID: v.ListID, ImportID: v.ImportID}
	}
	return v
}
