package emulator

import (
	"bytes"
	"log/slog"
	"net/http"
	"net/url"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"testing/synctest"
	"time"

	"github.com/google/go-cmp/cmp"
)

// journaled is the options of a data directory that journals every change
// (as one of many contacts does), with a short settling delay.
func journaled() Options {
	return Options{SnapshotDelay: 5 * time.Millisecond, journalAbove: -1}
}

// changeContacts changes the contacts of a list in every way a journal
// records: creates, property changes, status changes, a replace of another
// list, and a list deleted with its contacts.
func changeContacts(t *testing.T, s *Server, step int) {
	t.Helper()
	list := idOf(t, mustCreate(t, s, "/rest/1000/lists", map[string]any{"name": "L" + strconv.Itoa(step)}))
	base := "/rest/1000/lists/" + list + "/contacts"
	for i := range 3 {
		mustCreate(t, s, base, map[string]any{"originalId": "c" + strconv.Itoa(i), "properties": map[string]any{"email": "c" + strconv.Itoa(i) + "@example.com", "firstname": "Ada \"the first\" ü"}})
	}
	wantStatus(t, do(t, s, http.MethodPut, base+"/c1", map[string]any{"properties": map[string]any{"firstname": "Grace", "email": nil}}), http.StatusOK)
	wantStatus(t, do(t, s, http.MethodPut, base+"/c2/subscriptionstatus", map[string]any{"status": "UNSUBSCRIBED"}), http.StatusOK)
	other := idOf(t, mustCreate(t, s, "/rest/1000/lists", map[string]any{"name": "R" + strconv.Itoa(step)}))
	id := mustInt(t, other)
	if err := s.UpsertContacts(id, []Contact{{OriginalID: "x"}, {OriginalID: "y"}}); err != nil {
		t.Fatal(err)
	}
	if err := s.ReplaceContacts(id, []Contact{{OriginalID: "y", Properties: map[string]string{"lastname": "kept"}}, {OriginalID: "z"}}); err != nil {
		t.Fatal(err)
	}
	gone := idOf(t, mustCreate(t, s, "/rest/1000/lists", map[string]any{"name": "gone" + strconv.Itoa(step)}))
	mustCreate(t, s, "/rest/1000/lists/"+gone+"/contacts", map[string]any{"originalId": "lost"})
	wantStatus(t, do(t, s, http.MethodDelete, "/rest/1000/lists/"+gone, nil), http.StatusNoContent)
}

// settle lets the persister save what changed.
func settle() {
	advance(10 * time.Millisecond)
	synctest.Wait()
}

// allContacts is every list's contacts as the interface answers them.
func allContacts(t *testing.T, s *Server) string {
	t.Helper()
	var b strings.Builder
	for _, l := range decodeArray(t, do(t, s, http.MethodGet, "/rest/1000/lists?pageSize=1000", nil)) {
		id := idOf(t, l)
		b.WriteString(id + ": " + do(t, s, http.MethodGet, "/rest/1000/lists/"+id+"/contacts", nil).Body.String() + "\n")
	}
	return b.String()
}

func fileSize(t *testing.T, path string) int64 {
	t.Helper()
	info, err := os.Stat(path)
	if err != nil {
		return -1
	}
	return info.Size()
}

// Saves after changes append to the journal and leave the snapshot as it
// was; a restart restores the snapshot and replays the journal to the
// same account.
func TestDataDirRestoresFromTheJournal(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		dir := t.TempDir()
		first := openDataDir(t, dir, journaled())
		state, journal := filepath.Join(dir, StateFileName), filepath.Join(dir, JournalFileName)
		written := fileSize(t, state)
		fillAccount(t, first)
		settle()
		changeContacts(t, first, 1)
		settle()
		changeContacts(t, first, 2)
		if got := fileSize(t, state); got != written {
			t.Errorf("the snapshot changed (%d bytes, was %d): saves should journal", got, written)
		}
		if fileSize(t, journal) <= 0 {
			t.Fatalf("no journal in %s", dir)
		}
		before, contacts := snapshotOf(t, first), allContacts(t, first)
		first.Close() // saves step 2's changes, to the journal too
		if got := fileSize(t, state); got != written {
			t.Errorf("Close rewrote the snapshot")
		}

		second := openDataDir(t, dir, journaled())
		defer second.Close()
		if diff := cmp.Diff(before, snapshotOf(t, second)); diff != "" {
			t.Errorf("snapshot after restart (-before +after):\n%s", diff)
		}
		if got := allContacts(t, second); got != contacts {
			t.Errorf("contacts after restart:\n%s\nbefore:\n%s", got, contacts)
		}
		if !strings.Contains(second.Loaded(), JournalFileName) {
			t.Errorf("Loaded() = %q, want it to name the journal", second.Loaded())
		}
	})
}

// A journal larger than the snapshot is compacted into a new snapshot and
// removed; the account restores from that snapshot alone.
func TestDataDirCompactsTheJournal(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		dir := t.TempDir()
		opts := journaled()
		opts.compactAbove = 1
		first := openDataDir(t, dir, opts)
		fillAccount(t, first)
		settle()
		changeContacts(t, first, 1)
		settle()
		journal := filepath.Join(dir, JournalFileName)
		if _, err := os.Stat(journal); err == nil {
			t.Errorf("the journal was not compacted")
		}
		b, err := os.ReadFile(filepath.Join(dir, StateFileName))
		if err != nil || !strings.Contains(string(b), `"Grace"`) {
			t.Fatalf("the compacted snapshot lacks the changes: %v", err)
		}
		before, contacts := snapshotOf(t, first), allContacts(t, first)
		first.Close()

		second := openDataDir(t, dir, opts)
		defer second.Close()
		if diff := cmp.Diff(before, snapshotOf(t, second)); diff != "" {
			t.Errorf("snapshot after restart (-before +after):\n%s", diff)
		}
		if got := allContacts(t, second); got != contacts {
			t.Errorf("contacts after restart:\n%s\nbefore:\n%s", got, contacts)
		}
	})
}

// A crash after a compaction renamed its snapshot but before it removed
// the journal leaves both: the journal replays to the snapshot's state.
func TestDataDirCompactedSnapshotWithItsJournal(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		dir := t.TempDir()
		s := openDataDir(t, dir, journaled())
		fillAccount(t, s)
		changeContacts(t, s, 1)
		settle()
		before, contacts := snapshotOf(t, s)+"", allContacts(t, s)
		journal := filepath.Join(dir, JournalFileName)
		s.Close()
		// What a compaction leaves: the journal, with a last record written
		// from the capture of the new snapshot.
		old, err := os.ReadFile(journal)
		if err != nil {
			t.Fatal(err)
		}
		var snap bytes.Buffer
		if err := s.WriteSnapshot(&snap); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(filepath.Join(dir, StateFileName), snap.Bytes(), 0o600); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(journal, old, 0o600); err != nil {
			t.Fatal(err)
		}

		second := openDataDir(t, dir, journaled())
		defer second.Close()
		if diff := cmp.Diff(before, snapshotOf(t, second)); diff != "" {
			t.Errorf("snapshot after restart (-before +after):\n%s", diff)
		}
		if got := allContacts(t, second); got != contacts {
			t.Errorf("contacts after restart:\n%s\nbefore:\n%s", got, contacts)
		}
	})
}

// A journal whose last record was cut short (a crash while saving it)
// restores every complete record before it, says so in the log, and is
// cut back so the next save appends after the last complete record.
func TestDataDirIgnoresATornJournalTail(t *testing.T) {
	for _, cut := range []struct {
		name string
		keep func(record string) string
	}{
		{"mid-line", func(r string) string { return r[:len(r)/2] }},
		{"before the end line", func(r string) string { return r[:strings.LastIndex(r, `{"end":`)] }},
	} {
		t.Run(cut.name, func(t *testing.T) {
			synctest.Test(t, func(t *testing.T) {
				dir := t.TempDir()
				journal := filepath.Join(dir, JournalFileName)
				s := openDataDir(t, dir, journaled())
				fillAccount(t, s)
				settle()
				changeContacts(t, s, 1)
				settle()
				before, contacts := snapshotOf(t, s), allContacts(t, s)
				complete := fileSize(t, journal)
				changeContacts(t, s, 2)
				s.Close()
				b, err := os.ReadFile(journal)
				if err != nil {
					t.Fatal(err)
				}
				torn := string(b[:complete]) + cut.keep(string(b[complete:]))
				if err := os.WriteFile(journal, []byte(torn), 0o600); err != nil {
					t.Fatal(err)
				}

				logs := &logRecorder{}
				opts := journaled()
				opts.Logger = slog.New(logs)
				second := openDataDir(t, dir, opts)
				if diff := cmp.Diff(before, snapshotOf(t, second)); diff != "" {
					t.Errorf("snapshot after restart (-before +after):\n%s", diff)
				}
				if got := allContacts(t, second); got != contacts {
					t.Errorf("contacts after restart:\n%s\nbefore:\n%s", got, contacts)
				}
				if w := logs.warnings(); len(w) != 1 || !strings.Contains(w[0], "cut short") {
					t.Errorf("warnings = %q, want one about the record cut short", w)
				}
				if got := fileSize(t, journal); got != complete {
					t.Errorf("journal is %d bytes, want it cut back to %d", got, complete)
				}
				// The next save appends after the last complete record.
				changeContacts(t, second, 3)
				after, contacts := snapshotOf(t, second), allContacts(t, second)
				second.Close()
				third := openDataDir(t, dir, journaled())
				defer third.Close()
				if diff := cmp.Diff(after, snapshotOf(t, third)); diff != "" {
					t.Errorf("snapshot after a further restart (-before +after):\n%s", diff)
				}
				if got := allContacts(t, third); got != contacts {
					t.Errorf("contacts after a further restart:\n%s\nbefore:\n%s", got, contacts)
				}
			})
		})
	}
}

// A stop with nothing waiting to be saved writes nothing, however many
// contacts the account holds. (How long it takes is measured by make bench,
// the emulator scenario.)
func TestDataDirStopWithNothingPending(t *testing.T) {
	dir := t.TempDir()
	// The background save waits an hour after a change, so the test saves
	// when it chooses and nothing is written behind its back.
	s := openDataDir(t, dir, Options{SnapshotDelay: time.Hour, journalAbove: 100})
	list := idOf(t, mustCreate(t, s, "/rest/1000/lists", map[string]any{"name": "big"}))
	contacts := make([]Contact, 50_000)
	for i := range contacts {
		contacts[i] = Contact{OriginalID: "c" + strconv.Itoa(i), Properties: map[string]string{"email": "c" + strconv.Itoa(i) + "@example.com", "firstname": "Ada"}}
	}
	if err := s.ReplaceContacts(mustInt(t, list), contacts); err != nil {
		t.Fatal(err)
	}
	wantStatus(t, do(t, s, http.MethodPut, "/rest/1000/lists/"+list+"/contacts/c7", map[string]any{"properties": map[string]any{"firstname": "Grace"}}), http.StatusOK)
	// The save of the changes; run waits out its delay, so this goroutine
	// is the only one writing (close hands over through the stop channel).
	if err := s.persist.Save(); err != nil {
		t.Fatal(err)
	}
	journal := filepath.Join(dir, JournalFileName)
	if b, _ := os.ReadFile(journal); !bytes.Contains(b, []byte(`"Grace"`)) {
		t.Fatal("the save did not journal the change")
	}
	files := func() string {
		var b strings.Builder
		entries, _ := os.ReadDir(dir)
		for _, e := range entries {
			info, _ := e.Info()
			b.WriteString(e.Name() + " " + strconv.FormatInt(info.Size(), 10) + " " + info.ModTime().String() + "\n")
		}
		return b.String()
	}
	before := files()
	if err := s.persist.Close(); err != nil {
		t.Fatal(err)
	}
	s.Close()
	if after := files(); after != before {
		t.Errorf("the stop wrote the data directory:\n%s\nwas:\n%s", after, before)
	}
}

// The account restored from a snapshot and a journal equals the account
// restored from a snapshot alone of the same state: contacts, statuses,
// properties and list membership, whatever the journal holds.
func TestDataDirJournalRestoreEqualsSnapshotRestore(t *testing.T) {
	for _, tt := range []struct {
		name   string
		change func(t *testing.T, s *Server)
	}{
		{"one record of every change", func(t *testing.T, s *Server) { changeContacts(t, s, 1) }},
		{"records over records", func(t *testing.T, s *Server) {
			changeContacts(t, s, 1)
			settle()
			changeContacts(t, s, 2)
		}},
		{"the snapshot's contacts changed", func(t *testing.T, s *Server) {
			base := "/rest/1000/lists/" + idOf(t, decodeArray(t, do(t, s, http.MethodGet, "/rest/1000/lists", nil))[0]) + "/contacts"
			wantStatus(t, do(t, s, http.MethodPut, base+"/second", map[string]any{"properties": map[string]any{"email": "second@example.com"}}), http.StatusOK)
			settle()
			wantStatus(t, do(t, s, http.MethodPut, base+"/a%2Fb%20c/subscriptionstatus", map[string]any{"status": "UNSUBSCRIBED"}), http.StatusOK)
			wantStatus(t, do(t, s, http.MethodPut, base+"/second/subscriptionstatus", map[string]any{"status": "SUBSCRIBED"}), http.StatusOK)
			mustCreate(t, s, base, map[string]any{"originalId": "third", "properties": map[string]any{"email": "ada@example.com"}})
		}},
	} {
		t.Run(tt.name, func(t *testing.T) {
			synctest.Test(t, func(t *testing.T) {
				dir := t.TempDir()
				first := openDataDir(t, dir, journaled())
				fillAccount(t, first)
				first.Close() // the account above as a snapshot
				first = openDataDir(t, dir, journaled())
				tt.change(t, first)
				settle()
				first.Close()
				if fileSize(t, filepath.Join(dir, JournalFileName)) <= 0 {
					t.Fatalf("no journal in %s", dir)
				}

				fromJournal := openDataDir(t, dir, journaled())
				defer fromJournal.Close()
				snapDir := t.TempDir()
				if err := os.WriteFile(filepath.Join(snapDir, StateFileName), []byte(snapshotOf(t, fromJournal)), 0o600); err != nil {
					t.Fatal(err)
				}
				fromSnapshot := openDataDir(t, snapDir, journaled())
				defer fromSnapshot.Close()
				if strings.Contains(fromSnapshot.Loaded(), JournalFileName) || !strings.Contains(fromJournal.Loaded(), JournalFileName) {
					t.Fatalf("restored from %q and %q, want a journal and a snapshot alone", fromJournal.Loaded(), fromSnapshot.Loaded())
				}
				if got, want := allContacts(t, fromJournal), allContacts(t, fromSnapshot); got != want {
					t.Errorf("contacts from the journal:\n%s\nfrom the snapshot:\n%s", got, want)
				}
				// The lookups by originalId the tables serve.
				for _, l := range decodeArray(t, do(t, fromSnapshot, http.MethodGet, "/rest/1000/lists?pageSize=1000", nil)) {
					base := "/rest/1000/lists/" + idOf(t, l) + "/contacts"
					for _, c := range decodeArray(t, do(t, fromSnapshot, http.MethodGet, base, nil)) {
						path := base + "/" + url.PathEscape(c["originalId"].(string))
						if got, want := do(t, fromJournal, http.MethodGet, path, nil).Body.String(), do(t, fromSnapshot, http.MethodGet, path, nil).Body.String(); got != want {
							t.Errorf("GET %s: from the journal %s, from the snapshot %s", path, got, want)
						}
					}
				}
			})
		})
	}
}

// A graceful stop folds a journal larger than the snapshot into a new
// snapshot, so that the next start reads a snapshot; a small journal stays.
func TestDataDirCloseCompactsALargeJournal(t *testing.T) {
	for _, tt := range []struct {
		name         string
		compactAbove int64
		wantJournal  bool
	}{
		{"journal larger than the snapshot", 1, false},
		{"journal under the least size compacted", 1 << 30, true},
	} {
		t.Run(tt.name, func(t *testing.T) {
			synctest.Test(t, func(t *testing.T) {
				dir := t.TempDir()
				opts := journaled()
				opts.compactAbove = tt.compactAbove
				// A delay the changes never see the end of: only the stop saves.
				opts.SnapshotDelay = time.Hour
				first := openDataDir(t, dir, opts)
				state, journal := filepath.Join(dir, StateFileName), filepath.Join(dir, JournalFileName)
				empty := fileSize(t, state)
				list := idOf(t, mustCreate(t, first, "/rest/1000/lists", map[string]any{"name": "L"}))
				for i := range 50 {
					mustCreate(t, first, "/rest/1000/lists/"+list+"/contacts", map[string]any{"originalId": "c" + strconv.Itoa(i),
						"properties": map[string]any{"email": "c" + strconv.Itoa(i) + "@example.com", "firstname": strings.Repeat("x", 100)}})
				}
				contacts := allContacts(t, first)
				first.Close()
				if got := fileSize(t, journal) > 0; got != tt.wantJournal {
					t.Errorf("a journal after the stop: %v, want %v", got, tt.wantJournal)
				}
				if grew := fileSize(t, state) > empty; grew == tt.wantJournal {
					t.Errorf("the snapshot grew on the stop: %v, want %v", grew, !tt.wantJournal)
				}
				second := openDataDir(t, dir, opts)
				defer second.Close()
				if got := strings.Contains(second.Loaded(), JournalFileName); got != tt.wantJournal {
					t.Errorf("Loaded() = %q, want a journal: %v", second.Loaded(), tt.wantJournal)
				}
				if got := allContacts(t, second); got != contacts {
					t.Errorf("contacts after restart:\n%s\nbefore:\n%s", got, contacts)
				}
			})
		})
	}
}
