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

// The fast reading of contact records gives what encoding/json gives, and
// leaves to it what it does not read itself.
func TestReadRecordMatchesEncodingJSON(t *testing.T) {
	tests := []struct {
		name, raw string
		fast      bool // read without encoding/json
	}{
		{"as written", `{"id":10,"originalId":"a","properties":{"1":"x","3":"y"},"status":"SUBSCRIBED","mobileStatus":"UNSUBSCRIBED","dateCreated":"2000-01-01T00:00:00Z","dateModified":"2000-01-02T00:00:00Z"}`, true},
		{"indented, other order", "{\n \"status\": \"PENDING\",\n \"properties\": {},\n \"id\": 3,\n \"originalId\": \"ü b\"\n}", true},
		{"escapes", `{"id":1,"originalId":"a\"b\\c\u00e9","properties":{"2":"line\nbreak"}}`, false},
		{"unknown key", `{"id":1,"originalId":"a","extra":true}`, false},
		{"repeated key", `{"id":1,"id":2,"originalId":"a"}`, false},
		{"null properties", `{"id":1,"originalId":"a","properties":null}`, false},
		{"key not an id", `{"id":1,"originalId":"a","properties":{"email":"x"}}`, false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			var fast recordFields
			if got := parseContactRecord([]byte(tt.raw), &fast, &recentStrings{}); got != tt.fast {
				t.Errorf("read fast = %v, want %v", got, tt.fast)
			}
			var f recordFields
			if err := readRecord([]byte(tt.raw), &f, &recentStrings{}); err != nil {
				t.Fatal(err)
			}
			var rec contactRecord
			if err := json.Unmarshal([]byte(tt.raw), &rec); err != nil {
				t.Fatal(err)
			}
			want := fieldsOf(&rec)
			opts := cmp.Options{cmp.AllowUnexported(recordFields{}, propPair{}),
				cmp.Transformer("sorted", func(p []propPair) propSet { return packPairs(append([]propPair(nil), p...)) })}
			if diff := cmp.Diff(want, f, opts); diff != "" {
				t.Errorf("read (-encoding/json +readRecord):\n%s", diff)
			}
		})
	}
}
