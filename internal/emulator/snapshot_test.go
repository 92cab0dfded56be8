package emulator

import (
	"bytes"
	"encoding/json"
	"maps"
	"net/http"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"testing/synctest"
	"time"

	"github.com/google/go-cmp/cmp"
)

// openDataDir opens a Server on dir. Tests call it in a synctest bubble,
// whose fake clock the emulator's default clock (time.Now) reads: time
// passes only when the test advances it, so snapshots taken apart compare
// equal, and every life of a data directory in the test shares one clock.
func openDataDir(t *testing.T, dir string, opts Options) *Server {
	t.Helper()
	opts.DataDir = dir
	s, err := Open(opts)
	if err != nil {
		t.Fatalf("Open: %v", err)
	}
	return s
}

func snapshotOf(t *testing.T, s *Server) string {
	t.Helper()
	var b bytes.Buffer
	if err := s.WriteSnapshot(&b); err != nil {
		t.Fatalf("WriteSnapshot: %v", err)
	}
	return b.String()
}

// fillAccount makes a change in every area a snapshot covers.
func fillAccount(t *testing.T, s *Server) {
	t.Helper()
	proj := mustCreate(t, s, "/rest/1000/projects", map[string]any{"name": "P", "budget": 12.5, "tags": []any{"a", "b"}})
	mustCreate(t, s, "/rest/1000/projects/"+idOf(t, proj)+"/notes", map[string]any{"text": "nested"})
	gone := mustCreate(t, s, "/rest/1000/projects", map[string]any{"name": "deleted"})
	wantStatus(t, do(t, s, http.MethodDelete, "/rest/1000/projects/"+idOf(t, gone), nil), http.StatusNoContent)
	plan := mustCreate(t, s, "/rest/1000/properties", map[string]any{"name": "plan"})
	list := mustCreate(t, s, "/rest/1000/lists", map[string]any{"name": "L", "senderEmail": "news@example.com"})
	lid := idOf(t, list)
	mustCreate(t, s, "/rest/1000/lists/"+lid+"/contacts", map[string]any{
		"originalId": "a/b c", "properties": map[string]any{"email": "ada@example.com", idOf(t, plan): "pro"}, "mobileStatus": "UNSUBSCRIBED",
	})
	mustCreate(t, s, "/rest/1000/lists/"+lid+"/contacts", map[string]any{"originalId": "second"})
	wantStatus(t, do(t, s, http.MethodPut, "/rest/1000/lists/"+lid+"/contacts/second/subscriptionstatus", map[string]any{"status": "UNSUBSCRIBED"}), http.StatusOK)
	// A renamed attribute keeps its values.
	wantStatus(t, do(t, s, http.MethodPut, "/rest/1000/properties/"+idOf(t, plan), map[string]any{"name": "tier"}), http.StatusOK)
	mustCreate(t, s, "/rest/1000/webhooks", map[string]any{"url": "https://hooks.example.com/x", "events": []string{"contact.created"}, "secret": "s3cret"})
	trig := mustCreate(t, s, "/rest/1000/triggers", map[string]any{"name": "T", "channel": "SMS"})
	wantStatus(t, do(t, s, http.MethodPost, "/rest/1000/triggers/"+idOf(t, trig)+"/messages", map[string]any{
		"recipient": map[string]any{"mobile": "+4915112345678"}, "orderRows": []any{map[string]any{"sku": "A1", "qty": 2}},
	}), http.StatusCreated)
	if err := s.UpsertContacts(mustInt(t, lid), []Contact{{OriginalID: "seeded", Properties: map[string]string{"firstname": "Grace"}}}); err != nil {
		t.Fatal(err)
	}
}

// Everything an account holds survives a restart on its data directory:
// the restored account's snapshot is the one written at shutdown, the
// account serves the same answers, and ids continue where they stopped.
func TestDataDirRestoresTheWholeAccount(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		dir := t.TempDir()
		first := openDataDir(t, dir, Options{})
		fillAccount(t, first)
		before := snapshotOf(t, first)
		contactsBefore := do(t, first, http.MethodGet, "/rest/1000/lists/9/contacts", nil).Body.String()
		first.Close()

		second := openDataDir(t, dir, Options{})
		defer second.Close()
		if !strings.HasPrefix(second.Loaded(), "restored from "+filepath.Join(dir, StateFileName)) {
			t.Errorf("Loaded() = %q", second.Loaded())
		}
		if diff := cmp.Diff(before, snapshotOf(t, second)); diff != "" {
			t.Errorf("snapshot after restart (-before +after):\n%s", diff)
		}
		if got := do(t, second, http.MethodGet, "/rest/1000/lists/9/contacts", nil).Body.String(); got != contactsBefore {
			t.Errorf("contacts after restart:\n%s\nbefore:\n%s", got, contactsBefore)
		}
		c := decodeObject(t, do(t, second, http.MethodGet, "/rest/1000/lists/9/contacts/a%2Fb%20c", nil))
		if diff := cmp.Diff(map[string]any{"email": "ada@example.com", "tier": "pro"}, c["properties"]); diff != "" {
			t.Errorf("contact properties (-want +got):\n%s", diff)
		}
		hooks := decodeArray(t, do(t, second, http.MethodGet, "/rest/1000/webhooks", nil))
		if len(hooks) != 1 || hooks[0]["hasSecret"] != true {
			t.Errorf("webhooks = %v", hooks)
		}
		if msgs := second.SentMessages(); len(msgs) != 1 || msgs[0].Channel != "SMS" || msgs[0].Recipient["mobile"] != "+4915112345678" {
			t.Errorf("sent messages = %+v", msgs)
		}
		// Numbers kept exactly; a nested collection survives with its parent.
		p := decodeObject(t, do(t, second, http.MethodGet, "/rest/1000/projects/5", nil))
		if p["budget"] != json.Number("12.5") {
			t.Errorf("project = %v", p)
		}
		wantStatus(t, do(t, second, http.MethodGet, "/rest/1000/projects/5/notes/6", nil), http.StatusOK)
		// The id counter continues: the same next id as without the restart.
		next := mustCreate(t, second, "/rest/1000/projects", map[string]any{"name": "next"})
		nextID := savedNextID(t, before)
		if got := mustInt(t, idOf(t, next)); got != nextID+1 {
			t.Errorf("next id = %d, want %d", got, nextID+1)
		}
	})
}

// Changes reach the data directory shortly after they happen, without a
// clean shutdown (a killed emulator loses at most the last SnapshotDelay),
// through a temporary file that is never left behind.
func TestDataDirWrittenAfterEachChange(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		dir := t.TempDir()
		const delay = 5 * time.Millisecond
		s := openDataDir(t, dir, Options{SnapshotDelay: delay})
		defer s.Close()
		state := filepath.Join(dir, StateFileName)
		if _, err := os.Stat(state); err != nil {
			t.Fatalf("the state is written at once on open: %v", err)
		}
		mustCreate(t, s, "/rest/1000/projects", map[string]any{"name": "persisted early"})
		advance(delay)  // the persister's settling delay
		synctest.Wait() // and its write
		if b, err := os.ReadFile(state); err != nil || !strings.Contains(string(b), "persisted early") {
			t.Fatalf("the change did not reach %s: %s (%v)", state, b, err)
		}
		// Reads do not rewrite the file: long after a GET, with the
		// persister idle (every goroutine of the bubble blocked), the file
		// is the one written before.
		info, _ := os.Stat(state)
		do(t, s, http.MethodGet, "/rest/1000/projects", nil)
		advance(time.Minute)
		synctest.Wait()
		if again, _ := os.Stat(state); !again.ModTime().Equal(info.ModTime()) {
			t.Errorf("a GET rewrote the state")
		}
		entries, err := os.ReadDir(dir)
		if err != nil {
			t.Fatal(err)
		}
		if len(entries) != 1 || entries[0].Name() != StateFileName {
			t.Errorf("data directory holds %v, want only %s", entries, StateFileName)
		}
	})
}

func TestDataDirRefusesWhatItCannotRestore(t *testing.T) {
	// A valid snapshot to break in different ways, made in a bubble (the
	// cases below are subtests, which a bubble does not allow).
	var valid string
	synctest.Test(t, func(t *testing.T) {
		src := openDataDir(t, t.TempDir(), Options{})
		fillAccount(t, src)
		valid = snapshotOf(t, src)
		src.Close()
	})

	edit := func(f func(doc map[string]any, store map[string]any)) string {
		var doc map[string]any
		if err := json.Unmarshal([]byte(valid), &doc); err != nil {
			t.Fatal(err)
		}
		store := doc["parts"].(map[string]any)["store"].(map[string]any)
		f(doc, store)
		b, _ := json.Marshal(doc)
		return string(b)
	}
	tests := []struct{ name, state, want string }{
		{"not JSON", "{", "not a snapshot of rms-emulator"},
		{"other format", edit(func(d, _ map[string]any) { d["format"] = 2 }), "snapshot format 2"},
		{"other account", edit(func(d, _ map[string]any) { d["customerId"] = 7 }), "holds account 7, not 1000: start with -customer-id 7"},
		{"newer part", edit(func(d, _ map[string]any) { d["parts"].(map[string]any)["holograms"] = map[string]any{} }), `part "holograms" this rms-emulator does not know`},
		{"id above nextId", edit(func(_, st map[string]any) { st["nextId"] = 3 }), "is outside 1..nextId (3)"},
		{"id twice", edit(func(_, st map[string]any) {
			c := st["collections"].(map[string]any)
			c["campaigns"] = []any{map[string]any{"id": 1, "dateCreated": "x", "dateModified": "x"}}
		}), "id 1 is also the id of"},
		{"contacts of a missing list", edit(func(_, st map[string]any) {
			st["contacts"].(map[string]any)["4242"] = []any{}
		}), `contacts["4242"]: no list with id 4242`},
		{"bad contact status", edit(func(_, st map[string]any) {
			for _, recs := range st["contacts"].(map[string]any) {
				recs.([]any)[0].(map[string]any)["status"] = "MAYBE"
			}
		}), `status "MAYBE"`},
		{"originalId twice", edit(func(_, st map[string]any) {
			for key, recs := range st["contacts"].(map[string]any) {
				dup := maps.Clone(recs.([]any)[0].(map[string]any))
				dup["id"] = 9
				st["contacts"].(map[string]any)[key] = append(recs.([]any), dup)
			}
		}), "is empty or repeated"},
		{"contact date before 1970", edit(func(_, st map[string]any) {
			for _, recs := range st["contacts"].(map[string]any) {
				recs.([]any)[0].(map[string]any)["dateCreated"] = "1969-12-31T23:59:59Z"
			}
		}), "not times in UTC from 1970 to 2106"},
		{"entity without timestamps", edit(func(_, st map[string]any) {
			delete(st["collections"].(map[string]any)["projects"].([]any)[0].(map[string]any), "dateCreated")
		}), "dateCreated is missing"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			wantRefusedState(t, tt.state, tt.want)
		})
	}

	t.Run("data dir is a file", func(t *testing.T) {
		file := filepath.Join(t.TempDir(), "file")
		if err := os.WriteFile(file, nil, 0o600); err != nil {
			t.Fatal(err)
		}
		if _, err := Open(Options{DataDir: file}); err == nil || !strings.Contains(err.Error(), "data directory") {
			t.Errorf("err = %v", err)
		}
	})
}

// A snapshot written before an area existed (no part for it) restores, and
// the area starts empty: adding a part needs no new format.
func TestSnapshotWithoutAPartRestores(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		dir := t.TempDir()
		doc := `{"format":1,"customerId":1000,"savedAt":"2026-11-22T10:00:00Z","parts":{}}`
		if err := os.WriteFile(filepath.Join(dir, StateFileName), []byte(doc), 0o600); err != nil {
			t.Fatal(err)
		}
		s := openDataDir(t, dir, Options{})
		defer s.Close()
		// The store part was absent: the account keeps its standard properties.
		if props := decodeArray(t, do(t, s, http.MethodGet, "/rest/1000/properties", nil)); len(props) != len(StandardProperties) {
			t.Errorf("properties = %v", props)
		}
		// So were the batches and imports parts: none of either.
		if items := decodeArray(t, do(t, s, http.MethodGet, "/rest/1000/batches", nil)); len(items) != 0 {
			t.Errorf("batches = %v", items)
		}
		list := newImportList(t, s)
		if items := decodeArray(t, do(t, s, http.MethodGet, "/rest/1000/lists/"+list+"/imports", nil)); len(items) != 0 {
			t.Errorf("imports = %v", items)
		}
	})
}

// Listener closes write the final state, so a restart on the same data
// directory serves what the first listener was told.
func TestListenerWithDataDir(t *testing.T) {
	dir := t.TempDir()
	l, err := Listen("127.0.0.1:0", Options{DataDir: dir, SnapshotDelay: time.Hour})
	if err != nil {
		t.Fatal(err)
	}
	mustCreate(t, l.Server, "/rest/1000/projects", map[string]any{"name": "kept by Close"})
	if err := l.Close(); err != nil {
		t.Fatalf("Close: %v", err)
	}
	l2, err := Listen("127.0.0.1:0", Options{DataDir: dir})
	if err != nil {
		t.Fatal(err)
	}
	defer func() { _ = l2.Close() }()
	if items := decodeArray(t, do(t, l2.Server, http.MethodGet, "/rest/1000/projects", nil)); len(items) != 1 || items[0]["name"] != "kept by Close" {
		t.Errorf("projects = %v", items)
	}
	if _, err := Listen("127.0.0.1:0", Options{Fixtures: &Fixtures{Projects: []map[string]any{{}}}}); err == nil || !strings.Contains(err.Error(), "projects[0].name") {
		t.Errorf("Listen with bad fixtures: %v", err)
	}
}

// wantRefusedState checks that Open refuses a data directory holding state,
// with a message containing want and the way out.
func wantRefusedState(t *testing.T, state, want string) {
	t.Helper()
	dir := t.TempDir()
	if err := os.WriteFile(filepath.Join(dir, StateFileName), []byte(state), 0o600); err != nil {
		t.Fatal(err)
	}
	s, err := Open(Options{DataDir: dir})
	if err == nil {
		s.Close()
		t.Fatal("Open accepted the state")
	}
	if !strings.Contains(err.Error(), want) || !strings.Contains(err.Error(), "move the file away") {
		t.Errorf("err = %v, want one containing %q and the way out", err, want)
	}
}

// savedNextID reads the id counter out of a saved snapshot: ids handed out
// after a restart continue from it.
func savedNextID(t *testing.T, snapshot string) int64 {
	t.Helper()
	var doc struct{ Parts map[string]json.RawMessage }
	if err := json.Unmarshal([]byte(snapshot), &doc); err != nil {
		t.Fatal(err)
	}
	var st struct{ NextID int64 }
	if err := json.Unmarshal(doc.Parts["store"], &st); err != nil {
		t.Fatal(err)
	}
	return st.NextID
}
