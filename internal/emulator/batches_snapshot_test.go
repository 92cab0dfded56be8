package emulator

import (
	"encoding/json"
	"net/http"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"testing/synctest"
	"time"

	"github.com/google/go-cmp/cmp"
)

// batchOpts are options with batches that take time. Tests use them in a
// synctest bubble, whose fake clock (the emulator's default, time.Now) both
// lives of a data directory share.
func batchOpts() Options {
	return Options{BatchPendingFor: time.Second, BatchMinDuration: 2 * time.Second, StatisticsExportExtraRows: 3}
}

func resultBytes(t *testing.T, s *Server, batchID string) string {
	t.Helper()
	rec := do(t, s, http.MethodGet, "/rest/1000/batches/"+batchID+"/result/url", nil, withHeader("Accept", "text/plain"))
	wantStatus(t, rec, http.StatusOK)
	obj := fetchObject(t, s, rec.Body.String())
	wantStatus(t, obj, http.StatusOK)
	return obj.Body.String()
}

// Imports and statistics exports survive a restart on a data directory: the
// batch views, the batch and import listings and a finished export's file
// are the same after it; an unfinished export finishes on its timeline; an
// import that still had rows to apply is finished by the restore with an
// error; ids are not reused.
func TestDataDirKeepsBatchesAndImports(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		dir := t.TempDir()
		first := openDataDir(t, dir, batchOpts())
		mustCreate(t, first, "/rest/1000/projects", map[string]any{"name": "Spring, sales"})
		list := newImportList(t, first)
		file := []byte("originalId,email\nc1,c1@example.com\nc2,c2@example.com\n")
		doneImport := runImport(t, first, list, map[string]any{"delimiter": "44", "encoding": "UTF8", "type": "ADD"}, file)
		doneExport := startExport(t, first, "PROJECTS", "LAST_WEEK")
		notUploaded := createImportOf(t, first, list, map[string]any{"delimiter": "59", "encoding": "ANSI", "type": "REPLACE", "identityColumn": "email"})
		advance(5 * time.Second)
		wantFile := resultBytes(t, first, doneExport)

		// Two batches still running at the restart: one second into their two
		// seconds, half their rows handled.
		runningExport := startExport(t, first, "LISTS", "TODAY")
		runningImport := runImport(t, first, list, map[string]any{"delimiter": "44", "encoding": "UTF8", "type": "ADD"},
			[]byte("originalId\nr1\nr2\n"))
		advance(2 * time.Second)

		batches := "/rest/1000/batches?pageSize=100"
		imports := "/rest/1000/lists/" + list + "/imports"
		batchesBefore := decodeArray(t, do(t, first, http.MethodGet, batches, nil))
		importsBefore := do(t, first, http.MethodGet, imports, nil).Body.String()
		runningImportBefore := decodeObject(t, do(t, first, http.MethodGet, "/rest/1000/batches/"+runningImport, nil))
		if runningImportBefore["status"] != batchStatusRunning || runningImportBefore["processed"] != json.Number("1") {
			t.Fatalf("the running import is not half done: %v", runningImportBefore)
		}
		before := snapshotOf(t, first)
		first.Close()

		second := openDataDir(t, dir, batchOpts())
		defer second.Close()
		if got := do(t, second, http.MethodGet, imports, nil).Body.String(); got != importsBefore {
			t.Errorf("imports after restart:\n%s\nbefore:\n%s", got, importsBefore)
		}
		if !strings.Contains(importsBefore, `"id":"`+notUploaded+`"`) || !strings.Contains(importsBefore, `"identityColumn":"email"`) {
			t.Errorf("the listing lacks the import not uploaded: %s", importsBefore)
		}
		// Every batch reads the same but the import the restore finished.
		after := decodeArray(t, do(t, second, http.MethodGet, batches, nil))
		if len(after) != 4 {
			t.Fatalf("batches after restart = %v", after)
		}
		for i, b := range after {
			if b["id"] == json.Number(runningImport) {
				continue
			}
			if diff := cmp.Diff(batchesBefore[i], b); diff != "" {
				t.Errorf("batch %v after restart (-before +after):\n%s", b["id"], diff)
			}
		}
		failed := decodeObject(t, do(t, second, http.MethodGet, "/rest/1000/batches/"+runningImport, nil))
		wantEnd := json.Number(strconv.FormatInt(time.Now().UnixMilli(), 10))
		if failed["status"] != batchStatusFinished || failed["processed"] != json.Number("1") || failed["total"] != json.Number("2") || failed["endTime"] != wantEnd ||
			!strings.Contains(failed["error"].(string), "the emulator restarted while this import was running: 1 of its 2 rows were applied") {
			t.Errorf("running import after restart = %v", failed)
		}
		// Its first row stays applied, the second was not.
		if got := contactsOf(t, second, list); got["r1"] == "" || got["r2"] != "" {
			t.Errorf("contacts after restart = %v, want r1 and not r2", got)
		}
		// The finished export serves the same file (and a failed import none).
		if got := resultBytes(t, second, doneExport); got != wantFile {
			t.Errorf("export file after restart:\n%s\nbefore:\n%s", got, wantFile)
		}
		if !strings.Contains(wantFile, "Spring, sales") || !strings.HasSuffix(wantFile, "3,synthetic row 3,synthetic row 3,synthetic row 3\n") {
			t.Errorf("export file = %q", wantFile)
		}
		// The running export goes on with the clock and finishes.
		advance(time.Second)
		v := decodeObject(t, do(t, second, http.MethodGet, "/rest/1000/batches/"+runningExport, nil))
		if v["status"] != batchStatusFinished || v["processed"] != v["total"] {
			t.Errorf("running export after restart and its end = %v", v)
		}
		if got := resultBytes(t, second, runningExport); !strings.HasPrefix(got, "listId,name,contacts,unsubscribed,dateCreated,dateModified\n"+list+",Customers,2,0,") {
			t.Errorf("running export's file = %q", got)
		}
		if got := decodeObject(t, do(t, second, http.MethodGet, "/rest/1000/batches/"+doneImport, nil)); got["status"] != batchStatusFinished || got["affected"] != json.Number("2") {
			t.Errorf("finished import = %v", got)
		}
		// Ids continue after every id used before, batches' and imports' too.
		nextID := savedNextID(t, before)
		for _, id := range []string{doneImport, doneExport, notUploaded, runningExport, runningImport} {
			if mustInt(t, id) > nextID {
				t.Errorf("id %s above the saved counter %d", id, nextID)
			}
		}
		if got := mustInt(t, startExport(t, second, "OPTOUTS", "TODAY")); got != nextID+1 {
			t.Errorf("next batch id = %d, want %d", got, nextID+1)
		}
		if got := mustInt(t, createImportOf(t, second, list, map[string]any{"delimiter": "44", "encoding": "UTF8", "type": "ADD"})); got != nextID+2 {
			t.Errorf("next import id = %d, want %d", got, nextID+2)
		}
		// The import not uploaded before the restart can be uploaded after it.
		wantStatus(t, upload(t, second, list, notUploaded, []byte("email\nz@example.com\n")), http.StatusAccepted)
	})
}

// Batches progress with the clock before any request, a GET included; the
// progress reaches the data directory without another change.
func TestDataDirWrittenAfterBatchProgress(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		dir := t.TempDir()
		opts := batchOpts()
		opts.SnapshotDelay = 5 * time.Millisecond
		s := openDataDir(t, dir, opts)
		defer s.Close()
		id := startExport(t, s, "PROJECTS", "TODAY")
		advance(time.Minute)
		do(t, s, http.MethodGet, "/rest/1000/projects", nil) // finishes the export
		advance(opts.SnapshotDelay)                          // the persister's settling delay
		synctest.Wait()                                      // and its write
		state := filepath.Join(dir, StateFileName)
		var doc struct{ Parts map[string]json.RawMessage }
		var part struct {
			Batches []struct {
				ID       int64
				Finished bool
			}
		}
		b, err := os.ReadFile(state)
		if err != nil || json.Unmarshal(b, &doc) != nil || json.Unmarshal(doc.Parts["batches"], &part) != nil ||
			len(part.Batches) != 1 || strconv.FormatInt(part.Batches[0].ID, 10) != id || !part.Batches[0].Finished {
			t.Fatalf("the finished export did not reach %s: %s (%v)", state, b, err)
		}
	})
}

func TestDataDirRefusesDamagedBatchesAndImports(t *testing.T) {
	// The setup runs in a bubble (for its fake clock); subtests cannot.
	var valid string
	synctest.Test(t, func(t *testing.T) {
		src := openDataDir(t, t.TempDir(), batchOpts())
		list := newImportList(t, src)
		runImport(t, src, list, map[string]any{"delimiter": "44", "encoding": "UTF8", "type": "ADD"}, []byte("originalId\na\n"))
		startExport(t, src, "PROJECTS", "TODAY")
		advance(time.Minute)
		mustCreate(t, src, "/rest/1000/projects", map[string]any{"name": "after"}) // brings the batches up to date
		valid = snapshotOf(t, src)
		src.Close()
	})

	// edit changes batches[0] (the import's, id 7), batches[1] (the
	// export's, id 8) and imports[0] (id 6) of a copy of the valid snapshot;
	// the imported contact took id 9 and the project 10.
	edit := func(f func(imp, exp, im map[string]any)) string {
		var doc map[string]any
		if err := json.Unmarshal([]byte(valid), &doc); err != nil {
			t.Fatal(err)
		}
		parts := doc["parts"].(map[string]any)
		bs := parts["batches"].(map[string]any)["batches"].([]any)
		f(bs[0].(map[string]any), bs[1].(map[string]any), parts["imports"].(map[string]any)["imports"].([]any)[0].(map[string]any))
		b, _ := json.Marshal(doc)
		return string(b)
	}
	tests := []struct{ name, state, want string }{
		{"unknown batch type", edit(func(_, e, _ map[string]any) { e["type"] = "BACKUP" }), `restoring batches: batches[1] (id 8): type "BACKUP" is not a batch type`},
		{"batch id above nextId", edit(func(_, e, _ map[string]any) { e["id"] = 99 }), "id 99 is outside 1..nextId of the store (10)"},
		{"batch ids out of order", edit(func(i, _, _ map[string]any) { i["id"] = 8 }), "batches[1]: id 8 is repeated or not in ascending order"},
		{"bad time", edit(func(i, _, _ map[string]any) { i["startAt"] = "soon" }), `startAt "soon" is not an RFC 3339 time`},
		{"times out of order", edit(func(i, _, _ map[string]any) { i["submitted"] = "2030-01-01T00:00:00Z" }), "times out of order"},
		{"processed above total", edit(func(_, e, _ map[string]any) { e["processed"] = 50 }), "counts out of range: processed 50 (of total 3)"},
		{"export without request", edit(func(_, e, _ map[string]any) { delete(e, "export") }), `a STAT_EXPORT batch needs an "export" object`},
		{"export row too narrow", edit(func(_, e, _ map[string]any) {
			e["export"].(map[string]any)["rows"] = []any{[]any{"1"}}
		}), "export.rows[0] has 1 fields; the header has 4"},
		{"export period", edit(func(_, e, _ map[string]any) { e["export"].(map[string]any)["period"] = "EVER" }), `export.period "EVER" is not one of TODAY`},
		{"import type", edit(func(i, _, _ map[string]any) { i["import"].(map[string]any)["importType"] = "MERGE" }), `import.importType "MERGE" is not one of ADD`},
		{"unknown field", edit(func(i, _, _ map[string]any) { i["colour"] = "red" }), `restoring batches: json: unknown field "colour"`},
		{"import encoding", edit(func(_, _, im map[string]any) { im["encoding"] = "EBCDIC" }), `restoring imports: imports[0] (id 6): encoding "EBCDIC" is not one of UTF8`},
		{"import delimiter", edit(func(_, _, im map[string]any) { im["delimiter"] = 10 }), "delimiter 10: delimiter"},
		{"import of another batch", edit(func(_, _, im map[string]any) { im["batchId"] = 8 }), "batchId 8 is not an IMPORT batch of this import"},
		{"import date", edit(func(_, _, im map[string]any) { im["dateCreated"] = "yesterday" }), `dateCreated "yesterday" is not an RFC 3339 time`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			wantRefusedState(t, tt.state, tt.want)
		})
	}
}
