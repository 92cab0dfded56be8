package emulator

import (
	"bytes"
	"encoding/json"
	"net/http"
	"os"
	"path/filepath"
	"testing"
	"testing/synctest"

	"github.com/google/go-cmp/cmp"
)

// testdata/state-format1.json was written by the emulator before contacts
// were stored compactly and the data directory had a journal (fillAccount,
// a contact with a value of an attribute deleted since, at the synctest
// clock's 2000-01-01); state-format1.contacts.json is what that emulator
// answered for the list's contacts after a restart. Today's emulator
// restores the file to the same answers and writes the same document.
func TestDataDirRestoresAFormat1File(t *testing.T) {
	golden, err := os.ReadFile(filepath.Join("testdata", "state-format1.json"))
	if err != nil {
		t.Fatal(err)
	}
	answer, err := os.ReadFile(filepath.Join("testdata", "state-format1.contacts.json"))
	if err != nil {
		t.Fatal(err)
	}
	synctest.Test(t, func(t *testing.T) {
		dir := t.TempDir()
		if err := os.WriteFile(filepath.Join(dir, StateFileName), golden, 0o600); err != nil {
			t.Fatal(err)
		}
		s := openDataDir(t, dir, Options{})
		defer s.Close()
		if got := do(t, s, http.MethodGet, "/rest/1000/lists/9/contacts", nil).Body.String(); got != string(answer) {
			t.Errorf("contacts:\n%s\nwant:\n%s", got, answer)
		}
		var want, got any
		if err := json.Unmarshal(golden, &want); err != nil {
			t.Fatal(err)
		}
		if err := json.Unmarshal([]byte(snapshotOf(t, s)), &got); err != nil {
			t.Fatalf("the written snapshot is not JSON: %v", err)
		}
		if diff := cmp.Diff(want, got); diff != "" {
			t.Errorf("snapshot written after restoring the format-1 file (-file +written):\n%s", diff)
		}
	})
}

// The contacts of a snapshot are read whatever the document's layout:
// on one line, or with each record spread over several.
func TestSnapshotContactsInAnyLayout(t *testing.T) {
	golden, err := os.ReadFile(filepath.Join("testdata", "state-format1.json"))
	if err != nil {
		t.Fatal(err)
	}
	answer, err := os.ReadFile(filepath.Join("testdata", "state-format1.contacts.json"))
	if err != nil {
		t.Fatal(err)
	}
	var doc any
	if err := json.Unmarshal(golden, &doc); err != nil {
		t.Fatal(err)
	}
	compact, _ := json.Marshal(doc)
	tabs, _ := json.MarshalIndent(doc, "", "\t")
	for name, layout := range map[string][]byte{"one line": compact, "tabs": tabs, "no trailing newline": bytes.TrimSpace(golden)} {
		t.Run(name, func(t *testing.T) {
			synctest.Test(t, func(t *testing.T) {
				dir := t.TempDir()
				if err := os.WriteFile(filepath.Join(dir, StateFileName), layout, 0o600); err != nil {
					t.Fatal(err)
				}
				s := openDataDir(t, dir, Options{})
				defer s.Close()
				if got := do(t, s, http.MethodGet, "/rest/1000/lists/9/contacts", nil).Body.String(); got != string(answer) {
					t.Errorf("contacts:\n%s\nwant:\n%s", got, answer)
				}
				if msgs := s.SentMessages(); len(msgs) != 1 {
					t.Errorf("messages after the contacts = %v", msgs)
				}
			})
		})
	}
}
