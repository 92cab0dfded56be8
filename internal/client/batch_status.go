package client

import (
	"encoding/json"
	"strconv"
	"strings"
)

// The interface names three batch states (PENDING, IN_PROGRESS, FINISHED)
// and says nothing of how a batch fails or whether other states exist. A
// service may well say COMPLETED, FAILED or QUEUED, so a batch's status is
// read by this rule (case does not matter) and held as one of the three
// documented states, the service's own word kept in RawStatus:
//
//   - FINISHED, COMPLETED, COMPLETE, DONE, SUCCESS, SUCCEEDED, SUCCESSFUL:
//     finished;
//   - FAILED, FAILURE, ERROR, ERRORED, ABORTED, CANCELLED, CANCELED,
//     REJECTED, EXPIRED, TIMED_OUT: finished and failed, as the conventions
//     describe a failed batch (FINISHED with an error); the error says which
//     status the service reported when it gave no reason;
//   - PENDING, QUEUED, CREATED, SCHEDULED, WAITING, NEW: pending;
//   - IN_PROGRESS and anything else (RUNNING, PROCESSING, STARTED, a state
//     added later): still running. Waiting on such a batch goes on until it
//     reaches one of the states above or the resource's timeout ends it,
//     which keeps the batch's id in state so that the next apply resumes.
//   - no status at all: finished when the batch has an endTime, else still
//     running.
var (
	batchFinishedWords = words("FINISHED COMPLETED COMPLETE DONE SUCCESS SUCCEEDED SUCCESSFUL")
	batchFailedWords   = words("FAILED FAILURE ERROR ERRORED ABORTED CANCELLED CANCELED REJECTED EXPIRED TIMED_OUT TIMEDOUT")
	batchPendingWords  = words("PENDING QUEUED CREATED SCHEDULED WAITING NEW")
)

func words(s string) map[string]bool {
	m := map[string]bool{}
	for _, w := range strings.Fields(s) {
		m[w] = true
	}
	return m
}

// UnmarshalJSON decodes a batch, notes which counts it shows, and reads
// its status by the rule above.
func (b *Batch) UnmarshalJSON(data []byte) error {
	type plain Batch // no methods: decodes field by field
	var p plain
	if err := json.Unmarshal(data, &p); err != nil {
		return err
	}
	*b = Batch(p)
	// A count left out, or sent as null, is not shown (Batch.Shown).
	var shown struct {
		Processed, Affected, Failed, FailedRows json.RawMessage
	}
	if err := json.Unmarshal(data, &shown); err != nil {
		return err
	}
	sent := func(raw json.RawMessage) bool { return len(raw) > 0 && string(raw) != "null" }
	b.Shown = BatchCountsShown{Processed: sent(shown.Processed), Affected: sent(shown.Affected), Failed: sent(shown.Failed)}
	b.FailedRows = failedRows(shown.FailedRows)
	b.RawStatus = b.Status
	b.Status = normalBatchStatus(b.Status, !b.EndTime.IsZero())
	if b.Status == BatchFinished && b.Error == "" && batchFailedWords[upperStatus(b.RawStatus)] {
		b.Error = "the service reported status " + b.RawStatus + " without a reason"
	}
	return nil
}

func upperStatus(s string) string {
	return strings.ReplaceAll(strings.ToUpper(strings.TrimSpace(s)), "-", "_")
}

// normalBatchStatus maps a service's status onto the three documented ones.
func normalBatchStatus(raw string, ended bool) string {
	s := upperStatus(raw)
	switch {
	case s == "":
		if ended {
			return BatchFinished
		}
		return BatchInProgress
	case batchFinishedWords[s] || batchFailedWords[s]:
		return BatchFinished
	case batchPendingWords[s]:
		return BatchPending
	default:
		return BatchInProgress
	}
}

// KnownStatus reports whether the service's status word is one the rule
// above names; an unknown one is waited on as running, and worth a log line.
func (b *Batch) KnownStatus() bool {
	s := upperStatus(b.RawStatus)
	// No status at all is a case the rule names (endTime decides), not an
	// unknown word: Batches.Wait must not warn of a status "".
	return s == "" || s == "IN_PROGRESS" || batchFinishedWords[s] || batchFailedWords[s] || batchPendingWords[s]
}

// failedRows reads a batch's failedRows: a list of objects with a row
// number (a number or a digit string) and a reason. Anything else is left
// out: the rows only help to say which rows failed, the count is Failed.
func failedRows(raw json.RawMessage) []FailedRow {
	var rows []struct {
		Row    json.RawMessage `json:"row"`
		Reason json.RawMessage `json:"reason"`
	}
	if len(raw) == 0 || json.Unmarshal(raw, &rows) != nil || len(rows) == 0 {
		return nil
	}
	out := make([]FailedRow, 0, len(rows))
	for _, r := range rows {
		var f FailedRow
		n := strings.Trim(string(r.Row), `"`)
		if v, err := strconv.ParseInt(n, 10, 64); err == nil && v > 0 {
			f.Row = v
		}
		if json.Unmarshal(r.Reason, &f.Reason) != nil {
			f.Reason = ""
		}
		out = append(out, f)
	}
	return out
}
