package state

import (
	"bufio"
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
