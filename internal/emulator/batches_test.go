package emulator

import (
	"encoding/json"
	"maps"
	"net/http"
	"slices"
	"strconv"
	"sync"
	"testing"
	"testing/synctest"
	"time"

	"github.com/google/go-cmp/cmp"
)

// startExport posts a statistics export and returns its batch id.
func startExport(t *testing.T, s *Server, exportType, period string) string {
	t.Helper()
	rec := do(t, s, http.MethodPost, "/rest/1000/batches/exports/statistics", map[string]any{"exportType": exportType, "period": period})
	wantStatus(t, rec, http.StatusAccepted)
	var got struct {
		BatchID any `json:"batchId"`
	}
	if err := json.Unmarshal(rec.Body.Bytes(), &got); err != nil {
		t.Fatalf("decoding %s: %v", rec.Body.String(), err)
	}
	id, ok := got.BatchID.(string)
	if !ok || id == "" {
		t.Fatalf("batchId = %#v, want a non-empty string", got.BatchID)
	}
	if loc := rec.Header().Get("Location"); loc != "/rest/1000/batches/"+id {
		t.Errorf("Location = %q", loc)
	}
	return id
}

// getBatchView reads a batch as a client would.
func getBatchView(t *testing.T, s *Server, id string) batchView {
	t.Helper()
	rec := do(t, s, http.MethodGet, "/rest/1000/batches/"+id, nil)
	wantStatus(t, rec, http.StatusOK)
	var v batchView
	if err := json.Unmarshal(rec.Body.Bytes(), &v); err != nil {
		t.Fatalf("decoding batch %s: %v", rec.Body.String(), err)
	}
	return v
}

func ms(t time.Time) *int64 { v := t.UnixMilli(); return &v }

// The batch's timeline runs on the clock of a synctest bubble, moved by
// advance.
func TestBatchMovesThroughItsStatesWithTheClock(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		// TODAY reaches back to midnight, where a bubble starts: begin in
		// the morning so that the projects lie inside the period, not on
		// its edge.
		advance(10 * time.Hour)
		t0 := time.Now()
		s := New(Options{
			BatchPendingFor:           10 * time.Second,
			BatchRowsPerSecond:        1,
			StatisticsExportExtraRows: 4,
		})
		mustCreate(t, s, "/rest/1000/projects", map[string]any{"name": "a"})
		mustCreate(t, s, "/rest/1000/projects", map[string]any{"name": "b"})
		id := startExport(t, s, "PROJECTS", "TODAY")
		n, _ := strconv.ParseInt(id, 10, 64)
		base := batchView{ID: n, Type: "STAT_EXPORT", CustomerID: 1000, StartTime: t0.UnixMilli(), Total: 6,
			DateCreated: rfc3339(t0), ExportType: "PROJECTS", Period: "TODAY"}

		steps := []struct {
			advance time.Duration
			want    func(batchView) batchView
		}{
			{0, func(v batchView) batchView { v.Status = "PENDING"; return v }},
			{9 * time.Second, func(v batchView) batchView { v.Status = "PENDING"; return v }},
			{time.Second, func(v batchView) batchView { v.Status = "IN_PROGRESS"; return v }},
			{3 * time.Second, func(v batchView) batchView {
				v.Status, v.Processed, v.Affected = "IN_PROGRESS", 3, 3
				return v
			}},
			{2500 * time.Millisecond, func(v batchView) batchView {
				v.Status, v.Processed, v.Affected = "IN_PROGRESS", 5, 5
				return v
			}},
			{500 * time.Millisecond, func(v batchView) batchView {
				v.Status, v.Processed, v.Affected = "FINISHED", 6, 6
				v.EndTime = ms(t0.Add(16 * time.Second))
				return v
			}},
			// Finished is final; the end time does not move with the clock.
			{time.Hour, func(v batchView) batchView {
				v.Status, v.Processed, v.Affected = "FINISHED", 6, 6
				v.EndTime = ms(t0.Add(16 * time.Second))
				return v
			}},
		}
		for i, step := range steps {
			advance(step.advance)
			got := getBatchView(t, s, id)
			if diff := cmp.Diff(step.want(base), got); diff != "" {
				t.Errorf("step %d (+%s): batch (-want +got):\n%s", i, step.advance, diff)
			}
		}
	})
}

func TestBatchMinDurationHoldsSmallBatchesInProgress(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		s := New(Options{BatchMinDuration: 5 * time.Second, BatchRowsPerSecond: 1000})
		id := startExport(t, s, "OPENS", "LAST_WEEK") // no events: zero rows
		if v := getBatchView(t, s, id); v.Status != "IN_PROGRESS" || v.Total != 0 {
			t.Errorf("at once: %+v, want IN_PROGRESS with total 0", v)
		}
		advance(4 * time.Second)
		if v := getBatchView(t, s, id); v.Status != "IN_PROGRESS" {
			t.Errorf("after 4s: status %s, want IN_PROGRESS", v.Status)
		}
		advance(time.Second)
		if v := getBatchView(t, s, id); v.Status != "FINISHED" || v.EndTime == nil {
			t.Errorf("after 5s: %+v, want FINISHED with an end time", v)
		}
	})
}

func TestBatchesFinishAtOnceByDefault(t *testing.T) {
	s := New(Options{})
	id := startExport(t, s, "LISTS", "LAST_DAY")
	v := getBatchView(t, s, id)
	if v.Status != "FINISHED" || v.EndTime == nil || v.Error != "" {
		t.Errorf("batch = %+v, want FINISHED at once", v)
	}
}

// The raw JSON carries exactly the interface's fields (plus failed, and the
// read-back fields of the conventions: dateCreated and the request), with
// the right JSON types: id an integer, endTime absent until finished.
func TestBatchJSONShape(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		s := New(Options{BatchPendingFor: time.Second})
		id := startExport(t, s, "CAMPAIGNS", "TODAY")
		rec := do(t, s, http.MethodGet, "/rest/1000/batches/"+id, nil)
		wantStatus(t, rec, http.StatusOK)
		got := decodeObject(t, rec)
		if _, ok := got["id"].(json.Number); !ok {
			t.Errorf("id = %#v, want a JSON number", got["id"])
		}
		want := []string{"affected", "customerId", "dateCreated", "exportType", "failed", "id", "period", "processed", "startTime", "status", "total", "type"}
		if diff := cmp.Diff(want, sortedKeys(got)); diff != "" {
			t.Errorf("keys of a pending batch (-want +got):\n%s", diff)
		}
		advance(time.Second)
		got = decodeObject(t, do(t, s, http.MethodGet, "/rest/1000/batches/"+id, nil))
		if _, ok := got["endTime"].(json.Number); !ok {
			t.Errorf("finished batch endTime = %#v, want a JSON number", got["endTime"])
		}
	})
}

func sortedKeys(m map[string]any) []string { return slices.Sorted(maps.Keys(m)) }

func TestBatchFailureIsFinishedWithAnError(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		s := New(Options{
			BatchPendingFor: time.Second,
			BatchError: func(typ string) string {
				if typ == "STAT_EXPORT" {
					return "the statistics store is unavailable"
				}
				return ""
			},
		})
		id := startExport(t, s, "SENT", "TODAY")
		// The failure shows only once the batch is finished.
		if v := getBatchView(t, s, id); v.Status != "PENDING" || v.Error != "" {
			t.Errorf("before finishing: %+v", v)
		}
		advance(time.Second)
		v := getBatchView(t, s, id)
		if v.Status != "FINISHED" || v.Error != "the statistics store is unavailable" {
			t.Errorf("after finishing: %+v, want FINISHED with the error", v)
		}
		for _, path := range []string{"/result/url", "/result"} {
			rec := do(t, s, http.MethodGet, "/rest/1000/batches/"+id+path, nil, withHeader("Accept", "*/*"))
			wantError(t, rec, ErrorBody{Status: 409, Code: CodeConflict,
				Message: "batch " + id + " failed and has no result: the statistics store is unavailable"})
		}
	})
}

func TestBatchLookupErrors(t *testing.T) {
	s := New(Options{})
	project := mustCreate(t, s, "/rest/1000/projects", map[string]any{"name": "p"})
	tests := []struct {
		method, path string
		want         ErrorBody
	}{
		{http.MethodGet, "/rest/1000/batches/999", ErrorBody{Status: 404, Code: CodeNotFound, Message: "no batch with id 999"}},
		{http.MethodGet, "/rest/1000/batches/abc", ErrorBody{Status: 404, Code: CodeNotFound, Message: `no batch with id "abc"`}},
		// Ids are shared with entities, so a project's id is no batch's.
		{http.MethodGet, "/rest/1000/batches/" + idOf(t, project), ErrorBody{Status: 404, Code: CodeNotFound, Message: "no batch with id " + idOf(t, project)}},
		{http.MethodGet, "/rest/1000/batches/999/result/url", ErrorBody{Status: 404, Code: CodeNotFound, Message: "no batch with id 999"}},
		{http.MethodGet, "/rest/1000/batches/999/result", ErrorBody{Status: 404, Code: CodeNotFound, Message: "no batch with id 999"}},
		{http.MethodGet, "/rest/1000/batches?type=EXPORT", ErrorBody{Status: 400, Code: CodeValidation, Field: "type", Message: `type "EXPORT" is not a batch type; one of IMPORT, STAT_EXPORT`}},
		{http.MethodGet, "/rest/1000/batches?pageSize=0", ErrorBody{Status: 400, Code: CodeValidation, Field: "pageSize", Message: `pageSize must be an integer from 1 to 1000, got "0"`}},
		{http.MethodDelete, "/rest/1000/batches", ErrorBody{Status: 405, Code: CodeMethodNotAllowed, Message: "method DELETE is not allowed on /rest/1000/batches"}},
		{http.MethodGet, "/rest/1000/batches/exports/statistics", ErrorBody{Status: 405, Code: CodeMethodNotAllowed, Message: "method GET is not allowed on /rest/1000/batches/exports/statistics"}},
		{http.MethodPut, "/rest/1000/batches/1", ErrorBody{Status: 405, Code: CodeMethodNotAllowed, Message: "method PUT is not allowed on /rest/1000/batches/1"}},
		{http.MethodDelete, "/rest/1000/batches/1", ErrorBody{Status: 405, Code: CodeMethodNotAllowed, Message: "method DELETE is not allowed on /rest/1000/batches/1"}},
	}
	for _, tt := range tests {
		t.Run(tt.method+" "+tt.path, func(t *testing.T) {
			var body any
			if tt.method == http.MethodPut {
				body = map[string]any{}
			}
			wantError(t, do(t, s, tt.method, tt.path, body, withHeader("Accept", "*/*")), tt.want)
		})
	}
}

// rowsWork is a batch of n rows that records what it was asked to process.
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
	// Every third row fails, the rest are affected.
	var failed int64
	for i := from; i < to; i++ {
		if i%3 == 2 {
			failed++
		}
	}
	return to - from - failed, failed
}

// Rows are handed to the work in adjacent ranges, in order, each once, even
// with many clients polling while the clock runs; the counts add up. In the
// bubble, the clock moves only when every poller waits, so each step is
// eight requests racing at the same instant.
func TestBatchProcessesEachRowOnceUnderConcurrency(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		s := New(Options{BatchRowsPerSecond: 10})
		work := &rowsWork{n: 300}
		b := s.batchesAPI.startBatch(batchTypeImport, work)
		id := strconv.FormatInt(b.ID, 10)
		var wg sync.WaitGroup
		for range 8 {
			wg.Go(func() {
				// 20 steps of 1.6s: 32s, past the 30s the 300 rows take.
				for range 20 {
					advance(1600 * time.Millisecond)
					getBatchView(t, s, id)
				}
			})
		}
		wg.Wait()
		v := getBatchView(t, s, id)
		if v.Status != "FINISHED" || v.Processed != 300 || v.Affected != 200 || v.Failed != 100 || v.Error != "" {
			t.Errorf("batch = %+v, want FINISHED, 300 processed, 200 affected, 100 failed", v)
		}
		var next int64
		for _, c := range work.calls {
			if c[0] != next || c[1] <= c[0] {
				t.Fatalf("process ranges not adjacent and increasing: %v", work.calls)
			}
			next = c[1]
		}
		if next != 300 {
			t.Errorf("processed up to %d, want 300", next)
		}
		// An import batch has no result file.
		wantError(t, do(t, s, http.MethodGet, "/rest/1000/batches/"+id+"/result/url", nil, withHeader("Accept", "text/plain")),
			ErrorBody{Status: 404, Code: CodeNotFound, Message: "batch " + id + " is an IMPORT batch; only statistics exports have a result"})
	})
}

// Batches progress whenever the account is touched, not only when polled.
func TestBatchesAdvanceOnAnyRequest(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		s := New(Options{BatchRowsPerSecond: 1})
		work := &rowsWork{n: 5}
		s.batchesAPI.startBatch(batchTypeImport, work)
		advance(10 * time.Second)
		do(t, s, http.MethodGet, "/rest/1000/projects", nil)
		work.mu.Lock()
		defer work.mu.Unlock()
		if len(work.calls) == 0 || work.calls[len(work.calls)-1][1] != 5 {
			t.Errorf("rows handled by an unrelated request: %v, want all 5", work.calls)
		}
	})
}
