package state

import (
	"encoding/json"
	"testing"

	"github.com/google/go-cmp/cmp"
)

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
			var fast RecordFields
			if got := parseContactRecord([]byte(tt.raw), &fast, &recentStrings{}); got != tt.fast {
				t.Errorf("read fast = %v, want %v", got, tt.fast)
			}
			var f RecordFields
			if err := ReadRecord([]byte(tt.raw), &f, &recentStrings{}); err != nil {
				t.Fatal(err)
			}
			var rec ContactRecord
			if err := json.Unmarshal([]byte(tt.raw), &rec); err != nil {
				t.Fatal(err)
			}
			want := FieldsOf(&rec)
			opts := cmp.Options{cmp.AllowUnexported(RecordFields{}, propPair{}),
				cmp.Transformer("sorted", func(p []propPair) PropSet { return packPairs(append([]propPair(nil), p...)) })}
			if diff := cmp.Diff(want, f, opts); diff != "" {
				t.Errorf("read (-encoding/json +readRecord):\n%s", diff)
			}
		})
	}
}
