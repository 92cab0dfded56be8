package emulator

import (
	"bufio"
	"encoding/csv"
	"fmt"
	"io"
	"math"
	"strconv"
	"time"

	"github.com/rms-labs/terraform-provider-rms/internal/emulator/state"
)

// Statistics exports: POST .../batches/exports/statistics starts a
// STAT_EXPORT batch whose file is a real CSV derived from the account's data
// at the moment of the request; once the batch is FINISHED,
// GET .../batches/{id}/result/url answers, as text/plain, a short-lived URL
// of the file in the emulator's stand-in object storage (exports_results.go) and
// GET .../batches/{id}/result redirects there. Before FINISHED, and for a
// failed batch, both answer 409 CONFLICT.

// exportTypes are the interface's ten export types, in its order.
var exportTypes = []string{"LISTS", "CAMPAIGNS", "MESSAGES", "OPENS", "SENT", "CLICKS", "PROJECTS", "HARD_BOUNCES", "SOFT_BOUNCES", "OPTOUTS"}

// exportTypeHints name the allowed value a refused one most likely meant.
// OPENED appears in a sample request of the interface but is not allowed.
var exportTypeHints = map[string]string{"OPENED": "OPENS"}

// exportPeriods are the interface's five periods and how far back each
// reaches from the moment of the request. TODAY reaches back to midnight
// UTC instead (periodStart).
var exportPeriods = map[string]time.Duration{
	"TODAY":        0,
	"LAST_DAY":     24 * time.Hour,
	"LAST_3_DAYS":  3 * 24 * time.Hour,
	"LAST_WEEK":    7 * 24 * time.Hour,
	"LAST_2_WEEKS": 14 * 24 * time.Hour,
}

var periodOrder = []string{"TODAY", "LAST_DAY", "LAST_3_DAYS", "LAST_WEEK", "LAST_2_WEEKS"}

// periodStart is the beginning of the window a period names, ending at now.
func periodStart(period string, now time.Time) time.Time {
	if period == "TODAY" {
		y, m, d := now.UTC().Date()
		return time.Date(y, m, d, 0, 0, 0, 0, time.UTC)
	}
	return now.Add(-exportPeriods[period])
}

// statisticsTable is the content of one export: a header and its rows.
type statisticsTable struct {
	header []string
	rows   [][]string
}

// statisticsSource computes the table of one export type from the account's
// data, for events in [from, to].
//
// Extension point: this table is where the rows of each export type come
// from. Entity exports (PROJECTS, CAMPAIGNS) list the entities the account
// holds, whatever their age; LISTS adds each list's contact count and how
// many are unsubscribed from e-mail; MESSAGES lists the entities of the
// messages domain created in the period; OPTOUTS lists the contacts
// unsubscribed from e-mail whose last change falls in the period. The other
// event exports (SENT, OPENS, CLICKS, HARD_BOUNCES, SOFT_BOUNCES) have no
// events to report until the emulator records sends, so their files hold the
// header only. To add columns or rows (sends of transactional messages, for
// instance), change the source here; nothing else depends on the columns.
type statisticsSource func(s *exportsAPI, from, to time.Time) statisticsTable

var statisticsSources = map[string]statisticsSource{
	"PROJECTS":     entityStatistics("projects", "projectId", "name"),
	"LISTS":        listStatistics,
	"CAMPAIGNS":    entityStatistics("campaigns", "campaignId", "name"),
	"MESSAGES":     createdInPeriod("messages", "messageId"),
	"SENT":         noEvents,
	"OPENS":        noEvents,
	"CLICKS":       noEvents,
	"HARD_BOUNCES": noEvents,
	"SOFT_BOUNCES": noEvents,
	"OPTOUTS":      optOuts,
}

// eventHeader is the header of the event exports.
var eventHeader = []string{"eventTime", "messageId", "listId", "originalId"}

func noEvents(*exportsAPI, time.Time, time.Time) statisticsTable {
	return statisticsTable{header: eventHeader}
}

// entityStatistics lists every entity of a collection: id, one descriptive
// field and the timestamps.
func entityStatistics(collection, idColumn, nameField string) statisticsSource {
	return func(s *exportsAPI, _, _ time.Time) statisticsTable {
		t := statisticsTable{header: []string{idColumn, nameField, "dateCreated", "dateModified"}}
		for _, e := range s.allEntities(collection) {
			t.rows = append(t.rows, []string{entityString(e, "id"), entityString(e, nameField), entityString(e, "dateCreated"), entityString(e, "dateModified")})
		}
		return t
	}
}

// listStatistics lists every list with its number of contacts and of
// contacts unsubscribed from e-mail.
func listStatistics(s *exportsAPI, _, _ time.Time) statisticsTable {
	t := statisticsTable{header: []string{"listId", "name", "contacts", "unsubscribed", "dateCreated", "dateModified"}}
	for _, e := range s.allEntities(state.ListsKey) {
		id, _ := e["id"].(int64)
		total, unsubscribed := s.store.Contacts.Counts(id)
		t.rows = append(t.rows, []string{entityString(e, "id"), entityString(e, "name"),
			strconv.Itoa(total), strconv.Itoa(unsubscribed), entityString(e, "dateCreated"), entityString(e, "dateModified")})
	}
	return t
}

// optOuts lists, list by list, the contacts unsubscribed from e-mail whose
// last change lies in the window, as opt-out events at that time.
func optOuts(s *exportsAPI, from, to time.Time) statisticsTable {
	t := statisticsTable{header: eventHeader}
	for _, e := range s.allEntities(state.ListsKey) {
		id, _ := e["id"].(int64)
		for _, c := range s.store.Contacts.Unsubscribed(id) {
			at, err := time.Parse(time.RFC3339, c.DateModified())
			if err != nil || at.Before(from.Truncate(time.Second)) || at.After(to) {
				continue
			}
			t.rows = append(t.rows, []string{c.DateModified(), "", strconv.FormatInt(id, 10), c.OriginalID})
		}
	}
	return t
}

// createdInPeriod lists the entities of a collection created in the window.
func createdInPeriod(collection, idColumn string) statisticsSource {
	return func(s *exportsAPI, from, to time.Time) statisticsTable {
		t := statisticsTable{header: []string{idColumn, "dateCreated"}}
		for _, e := range s.allEntities(collection) {
			created, err := time.Parse(time.RFC3339, entityString(e, "dateCreated"))
			// Stored timestamps have whole seconds; compare at that grain.
			if err != nil || created.Before(from.Truncate(time.Second)) || created.After(to) {
				continue
			}
			t.rows = append(t.rows, []string{entityString(e, "id"), entityString(e, "dateCreated")})
		}
		return t
	}
}

// allEntities returns copies of every entity of a top-level collection.
func (s *exportsAPI) allEntities(collection string) []state.Entity {
	items, _, _ := s.store.Page(nil, collection, 0, math.MaxInt)
	return items
}

// entityString renders a stored value as a CSV field.
func entityString(e state.Entity, key string) string {
	switch v := e[key].(type) {
	case nil:
		return ""
	case string:
		return v
	case int64:
		return strconv.FormatInt(v, 10)
	default:
		return fmt.Sprint(v)
	}
}

// exportJob is the work of a STAT_EXPORT batch: its table, fixed when the
// export was requested, plus the synthetic extra rows.
type exportJob struct {
	exportType, period string
	table              statisticsTable
	extraRows          int64
}

func (j *exportJob) eventData() map[string]any {
	return map[string]any{"exportType": j.exportType, "period": j.period}
}

func (j *exportJob) describeRequest(v *batchView) {
	v.ExportType, v.Period = j.exportType, j.period
}

func (j *exportJob) Total() int64 { return int64(len(j.table.rows)) + j.extraRows }

func (j *exportJob) Process(from, to int64) (int64, int64) { return to - from, 0 }

// writeCSV writes the file: header, rows, extra rows. It streams, so a file of
// millions of extra rows costs no memory, and it is deterministic, so every
// download of one export has the same bytes.
func (j *exportJob) writeCSV(w io.Writer) error {
	bw := bufio.NewWriterSize(w, 64<<10)
	cw := csv.NewWriter(bw)
	if err := cw.Write(j.table.header); err != nil {
		return err
	}
	for _, row := range j.table.rows {
		if err := cw.Write(row); err != nil {
			return err
		}
	}
	row := make([]string, len(j.table.header))
	for i := range j.extraRows {
		for c := range row {
			if c == 0 {
				row[c] = strconv.FormatInt(i+1, 10)
			} else {
				row[c] = "synthetic row " + strconv.FormatInt(i+1, 10)
			}
		}
		if err := cw.Write(row); err != nil {
			return err
		}
	}
	cw.Flush()
	if err := cw.Error(); err != nil {
		return err
	}
	return bw.Flush()
}

// exportsAPI serves statistics exports, whose work runs as batches, and the
// stand-in object storage their files download from.
type exportsAPI struct {
	*base
	batchesAPI *batchesAPI
}
