package state

import (
	"bufio"
	"strconv"
	"strings"
	"testing"
)

// value reads each JSON value whole, strings with escaped quotes and
// backslashes included, also when a value spans lines or the reader's
// buffer.
func TestLineReaderValue(t *testing.T) {
	long := strings.Repeat("x", 40)
	for _, tt := range []struct {
		name, in string
		want     []string
	}{
		{"a record", `{"a":"b","c":{"1":"x"}} , 12 `, []string{`{"a":"b","c":{"1":"x"}}`, `12`}},
		{"escaped quote and backslash", `"a\"b\\" {"k":"v\\\"}"} "\\"`, []string{`"a\"b\\"`, `{"k":"v\\\"}"}`, `"\\"`}},
		{"braces in strings", `{"a":"}{]["} ["]"]`, []string{`{"a":"}{]["}`, `["]"]`}},
		{"across lines", "{\"a\":\n\"b\"}\n{\"c\":1}", []string{"{\"a\":\n\"b\"}", `{"c":1}`}},
		{"a string longer than the buffer", `{"s":"` + long + `\"` + long + `"} null }`, []string{`{"s":"` + long + `\"` + long + `"}`, `null`}},
		{"literals", `true,false,null,-1.5e3]`, []string{`true`, `false`, `null`, `-1.5e3`}},
	} {
		t.Run(tt.name, func(t *testing.T) {
			l := &lineReader{br: bufio.NewReaderSize(strings.NewReader(tt.in), 16)}
			for i, want := range tt.want {
				if i > 0 {
					if c, _ := l.peek(); c == ',' {
						l.cur = l.cur[1:]
					}
				}
				got, err := l.value()
				if err != nil || string(got) != want {
					t.Fatalf("value %d = %q, %v; want %q", i, got, err, want)
				}
			}
		})
	}
}

// A snapshot's contacts read the same in any layout: a record a line as
// the writer puts them, or several on a line, or one across lines.
func TestReadContactsLayouts(t *testing.T) {
	r := func(id int, oid string) string {
		return `{"id":` + strconv.Itoa(id) + `,"originalId":"` + oid + `","properties":{"1":"` + oid + `@x"},"status":"SUBSCRIBED","mobileStatus":"SUBSCRIBED","dateCreated":"2026-01-02T15:04:05Z","dateModified":"2026-01-02T15:04:05Z"}`
	}
	want := "9: 1 a, 2 b}, 3 c\n"
	for _, tt := range []struct{ name, in string }{
		{"a record a line", ": {\n \"9\": [\n   " + r(1, "a") + ",\n   " + r(2, "b}") + ",\n   " + r(3, "c") + "\n ]\n}\n"},
		{"all on one line", `: {"9": [` + r(1, "a") + "," + r(2, "b}") + "," + r(3, "c") + "]}\n"},
		{"two on a line", ": {\"9\": [\n" + r(1, "a") + ", " + r(2, "b}") + ",\n" + r(3, "c") + "]}\n"},
		{"the last with the bracket", ": {\"9\": [\n" + r(1, "a") + ",\n" + r(2, "b}") + ",\n" + r(3, "c") + "]\n}\n"},
		{"a record across lines", ": {\"9\": [\n" + r(1, "a") + ",\n" + strings.Replace(r(2, "b}"), ",", ",\n", 3) + ",\n" + r(3, "c") + "\n]}\n"},
	} {
		t.Run(tt.name, func(t *testing.T) {
			b := NewBuilder()
			l := &lineReader{br: bufio.NewReaderSize(strings.NewReader(tt.in), 4096)}
			if err := l.readContacts(b); err != nil {
				t.Fatal(err)
			}
			got := ""
			for id, lc := range b.Contacts {
				got += strconv.FormatInt(id, 10) + ":"
				for i, c := range lc.order {
					if i > 0 {
						got += ","
					}
					got += " " + strconv.FormatInt(c.ID, 10) + " " + c.OriginalID
				}
				got += "\n"
			}
			if got != want {
				t.Errorf("read %q, want %q", got, want)
			}
		})
	}
}
