package emulator

import (
	"net/http"
	"slices"
	"strconv"

	"github.com/rms-labs/terraform-provider-rms/internal/emulator/state"
)

// importJob is the work of an IMPORT batch.
type importJob struct {
	s           *importsAPI
	listID      int64
	importID    int64
	typ         string
	identityIdx int
	columns     []int    // header positions of the attribute columns
	attrKeys    []string // their attribute ids, as property keys
	rows        importRows
	good        int64              // rows handled that were not bad (REPLACE applies them at the end)
	failedRows  []state.FailedRow  // the first maxFailedRowsShown rows that failed, in order
	events      *contactEventBatch // contact webhook events, bounded (contacts_events.go)
	// cause is the import as its contacts' histories name it; its batch
	// id is set when the batch starts (StartedAs).
	cause *state.Cause
}

// StartedAs learns the batch's id, before any row is handled.
func (j *importJob) StartedAs(batchID int64) { j.cause.BatchID = batchID }

func (j *importJob) Total() int64 { return j.rows.n }

func (j *importJob) describeRequest(v *batchView) {
	v.ListID, v.ImportID = strconv.FormatInt(j.listID, 10), strconv.FormatInt(j.importID, 10)
	if len(j.failedRows) > 0 {
		v.FailedRows = slices.Clone(j.failedRows)
	}
}

// maxFailedRowsShown bounds the rows a batch names in failedRows; its
// failed field counts them all. Ten are enough to show a client what is
// wrong with a file, and keep a batch of a file with 100,000 bad rows small.
const maxFailedRowsShown = 10

// fail notes that row index i (0 for the first row after the header)
// failed for reason.
func (j *importJob) fail(i int64, reason string) {
	if len(j.failedRows) < maxFailedRowsShown {
		j.failedRows = append(j.failedRows, state.FailedRow{Row: i + 2, Reason: reason})
	}
}

func (j *importJob) eventData() map[string]any {
	return map[string]any{"listId": strconv.FormatInt(j.listID, 10), "importId": strconv.FormatInt(j.importID, 10), "importType": j.typ}
}

// Process handles rows [from, to), which always follow the previous call's.
func (j *importJob) Process(from, to int64) (affected, failed int64) {
	now := j.s.now()
	for i := from; i < to; i++ {
		fields, reason, ok := j.rows.next()
		if !ok {
			failed++
			j.fail(i, reason)
			continue
		}
		switch j.typ {
		case "ADD":
			before := j.s.store.Contacts.Ref(j.listID, fields[0])
			if _, _, err := j.s.store.Contacts.Upsert(j.listID, j.input(fields, true), now, true, j.cause); err != nil {
				failed++
				j.fail(i, "contact "+strconv.Quote(fields[0])+": "+err.Message)
			} else {
				affected++
				j.events.note(before, j.s.store.Contacts.Ref(j.listID, fields[0]))
			}
		case "UNSUBSCRIBE":
			before := j.s.store.Contacts.Ref(j.listID, fields[0])
			_, err := j.s.store.Contacts.SetStatus(j.listID, fields[0], state.StatusUnsubscribed, "", now, j.cause)
			switch {
			case err == nil:
				affected++
				j.events.note(before, j.s.store.Contacts.Ref(j.listID, fields[0]))
			case err.Status == http.StatusNotFound && j.s.listExists(j.listID):
				// No contact has this row's identity: nothing to do.
			default:
				failed++
				j.fail(i, "contact "+strconv.Quote(fields[0])+": "+err.Message)
			}
		case "REPLACE":
			j.good++
		}
	}
	return affected, failed
}

// Finish applies a REPLACE, all rows at once, and releases the rows.
func (j *importJob) Finish() (affected int64, failure string) {
	defer func() { j.rows = importRows{n: j.rows.n} }()
	defer j.events.end()
	if j.typ != "REPLACE" {
		return 0, ""
	}
	rows := j.rows.rereader()
	ins := make([]state.ContactInput, 0, j.good)
	for range rows.n {
		if fields, _, ok := rows.next(); ok {
			ins = append(ins, j.input(fields, false))
		}
	}
	old := j.s.store.Contacts.ListHolder(j.listID)
	if err := j.s.store.Contacts.Replace(j.listID, ins, j.s.now(), j.cause); err != nil {
		return 0, "replacing the contacts of list " + strconv.FormatInt(j.listID, 10) + ": " + err.Message
	}
	j.events.noteListChange(old, j.s.store.Contacts.ListHolder(j.listID))
	return int64(len(ins)), ""
}

// input is the contact of one row: identity first, then the attribute
// values. Merging (ADD) skips empty cells, so they change nothing.
func (j *importJob) input(fields []string, skipEmpty bool) state.ContactInput {
	in := state.ContactInput{OriginalID: fields[0], Props: make(map[string]*string, len(j.attrKeys))}
	for i, key := range j.attrKeys {
		v := fields[i+1]
		if v == "" && skipEmpty {
			continue
		}
		in.Props[key] = &v
	}
	return in
}
