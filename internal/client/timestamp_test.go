package client

import (
	"encoding/json"
	"fmt"
	"testing"
	"time"
)

// refInstant is the instant most forms below name: 2026-11-22T10:00:00Z.
var refInstant = time.Date(2026, 11, 22, 10, 0, 0, 0, time.UTC)

// Every form the interface leaves open decodes to the instant it names; a
// value that names no time is the zero Timestamp, and only JSON that is
// neither text nor a number nor null fails the decode.
func TestTimestampUnmarshalJSON(t *testing.T) {
	ms := refInstant.UnixMilli() // 1795341600000
	sec := refInstant.Unix()     // 1795341600
	tests := []struct {
		name    string
		json    string
		want    time.Time // zero: no time
		wantErr bool
	}{
		{name: "RFC 3339 Z", json: `"2026-11-22T10:00:00Z"`, want: refInstant},
		{name: "RFC 3339 with fraction", json: `"2026-11-22T10:00:00.123Z"`, want: refInstant.Add(123 * time.Millisecond)},
		{name: "RFC 3339 with nanoseconds", json: `"2026-11-22T10:00:00.000000001Z"`, want: refInstant.Add(time.Nanosecond)},
		{name: "RFC 3339 with offset", json: `"2026-11-22T12:00:00+02:00"`, want: refInstant},
		{name: "RFC 3339 with negative offset and fraction", json: `"2026-11-22T05:00:00.5-05:00"`, want: refInstant.Add(500 * time.Millisecond)},
		{name: "offset without a colon", json: `"2026-11-22T12:00:00+0200"`, want: refInstant},
		{name: "no offset is UTC", json: `"2026-11-22T10:00:00"`, want: refInstant},
		{name: "no offset with fraction", json: `"2026-11-22T10:00:00.25"`, want: refInstant.Add(250 * time.Millisecond)},
		{name: "space separator", json: `"2026-11-22 10:00:00"`, want: refInstant},
		{name: "space separator with offset", json: `"2026-11-22 12:00:00+02:00"`, want: refInstant},
		{name: "surrounding blanks", json: `"  2026-11-22T10:00:00Z "`, want: refInstant},
		{name: "epoch ms number", json: fmt.Sprint(ms), want: refInstant},
		{name: "epoch ms digit string", json: fmt.Sprintf("%q", fmt.Sprint(ms)), want: refInstant},
		{name: "epoch ms with fraction", json: fmt.Sprintf("%d.9", ms), want: refInstant},
		{name: "epoch seconds number", json: fmt.Sprint(sec), want: refInstant},
		{name: "epoch seconds digit string", json: fmt.Sprintf("%q", fmt.Sprint(sec)), want: refInstant},
		{name: "float seconds", json: fmt.Sprintf("%d.5", sec), want: refInstant.Add(500 * time.Millisecond)},
		{name: "float seconds string", json: fmt.Sprintf(`"%d.25"`, sec), want: refInstant.Add(250 * time.Millisecond)},
		{name: "seconds in exponent form", json: `1.7953416e9`, want: refInstant},
		// 1e11 is the boundary: below it seconds (5138 AD), from it milliseconds (1973).
		{name: "just below the boundary is seconds", json: `99999999999`, want: time.Unix(99999999999, 0).UTC()},
		{name: "the boundary is milliseconds", json: `100000000000`, want: time.UnixMilli(100000000000).UTC()},
		{name: "null", json: `null`},
		{name: "empty text", json: `""`},
		{name: "blank text", json: `"   "`},
		{name: "zero", json: `0`},
		{name: "zero text", json: `"0"`},
		{name: "zero float", json: `0.0`},
		{name: "garbage text", json: `"yesterday"`},
		{name: "words and a time", json: `"not-a-date 10:00"`},
		{name: "infinity text", json: `"Inf"`},
		{name: "object", json: `{"seconds":1}`, wantErr: true},
		{name: "array", json: `[1795341600]`, wantErr: true},
		{name: "boolean", json: `true`, wantErr: true},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			// Start from a time, so that "no time" must reset it.
			ts := Timestamp{refInstant.Add(time.Hour)}
			err := json.Unmarshal([]byte(tt.json), &ts)
			if tt.wantErr {
				if err == nil {
					t.Fatalf("Unmarshal(%s) = %v, want an error", tt.json, ts)
				}
				return
			}
			if err != nil {
				t.Fatalf("Unmarshal(%s): %v", tt.json, err)
			}
			if !ts.Equal(tt.want) || ts.IsZero() != tt.want.IsZero() {
				t.Errorf("Unmarshal(%s) = %v, want %v", tt.json, ts.Time, tt.want)
			}
			if !ts.IsZero() && ts.Location() != time.UTC {
				t.Errorf("Unmarshal(%s) location = %v, want UTC", tt.json, ts.Location())
			}
		})
	}
}

// An entity with a timestamp in an unreadable form still decodes: the time
// is lost, the rest is not.
func TestTimestampInEntity(t *testing.T) {
	var p Project
	if err := json.Unmarshal([]byte(`{"id":3,"name":"n","dateCreated":"soon","dateModified":1795341600000}`), &p); err != nil {
		t.Fatal(err)
	}
	if p.ID != "3" || p.Name != "n" || !p.DateCreated.IsZero() || !p.DateModified.Equal(refInstant) {
		t.Errorf("project = %+v", p)
	}
	if err := json.Unmarshal([]byte(`{"id":3,"dateCreated":{"t":1}}`), &p); err == nil {
		t.Error("an object as a timestamp decoded without an error")
	}
}

// ParseTimestamp and TimestampOf read text as UnmarshalJSON reads a JSON
// string.
func TestParseTimestamp(t *testing.T) {
	for in, want := range map[string]time.Time{
		"2026-11-22T10:00:00Z":      refInstant,
		"2026-11-22T11:00:00+01:00": refInstant,
		"2026-11-22 10:00:00":       refInstant,
		"1795341600000":             refInstant,
		"1795341600":                refInstant,
		"+1795341600":               refInstant,
		"":                          {},
		"0":                         {},
		"garbage":                   {},
		"1e9":                       {}, // exponent text is not epoch digits
		"NaN":                       {},
	} {
		if got := ParseTimestamp(in); !got.Equal(want) || got.IsZero() != want.IsZero() {
			t.Errorf("ParseTimestamp(%q) = %v, want %v", in, got, want)
		}
		if got := TimestampOf(in); !got.Equal(want) || got.IsZero() != want.IsZero() {
			t.Errorf("TimestampOf(%q) = %v, want %v", in, got.Time, want)
		}
	}
}

// String renders RFC 3339 in UTC with a fraction only when there is one,
// so that state holds one form whatever the service sent.
func TestTimestampString(t *testing.T) {
	for in, want := range map[string]string{
		`"2026-11-22T12:00:00+02:00"`:     "2026-11-22T10:00:00Z",
		`"2026-11-22T12:00:00.500+02:00"`: "2026-11-22T10:00:00.5Z",
		`"2026-11-22 10:00:00"`:           "2026-11-22T10:00:00Z",
		`1795341600000`:                   "2026-11-22T10:00:00Z",
		`1795341600123`:                   "2026-11-22T10:00:00.123Z",
		`"1795341600"`:                    "2026-11-22T10:00:00Z",
		`null`:                            "",
		`"garbage"`:                       "",
	} {
		var ts Timestamp
		if err := json.Unmarshal([]byte(in), &ts); err != nil {
			t.Fatalf("Unmarshal(%s): %v", in, err)
		}
		if got := ts.String(); got != want {
			t.Errorf("Unmarshal(%s).String() = %q, want %q", in, got, want)
		}
	}
	// A time in another zone is still rendered in UTC.
	berlin := time.FixedZone("CET", 3600)
	if got := (Timestamp{refInstant.In(berlin)}).String(); got != "2026-11-22T10:00:00Z" {
		t.Errorf("String() of a CET time = %q", got)
	}
}

// The same instant in every form reads as equal, and as the same text.
func TestTimestampFormsCompareEqual(t *testing.T) {
	forms := []string{
		`"2026-11-22T10:00:00Z"`, `"2026-11-22T10:00:00.000Z"`, `"2026-11-22T12:00:00+02:00"`,
		`"2026-11-22T04:30:00-05:30"`, `"2026-11-22T10:00:00"`, `"2026-11-22 10:00:00"`,
		`1795341600000`, `"1795341600000"`, `1795341600`, `"1795341600"`, `1795341600.0`,
	}
	var first Timestamp
	for i, f := range forms {
		var ts Timestamp
		if err := json.Unmarshal([]byte(f), &ts); err != nil {
			t.Fatalf("Unmarshal(%s): %v", f, err)
		}
		if i == 0 {
			first = ts
			continue
		}
		if !ts.Equal(first.Time) || ts.String() != first.String() {
			t.Errorf("%s reads as %v (%q), %s as %v (%q)", f, ts.Time, ts, forms[0], first.Time, first)
		}
		if ts != first { // == compares the wall clock and location too
			t.Errorf("%s and %s differ as values: %#v vs %#v", f, forms[0], ts.Time, first.Time)
		}
	}
}

// MarshalJSON writes RFC 3339 (null for no time), which reads back as the
// same instant.
func TestTimestampMarshalJSON(t *testing.T) {
	tests := []struct {
		in   Timestamp
		want string
	}{
		{Timestamp{}, `null`},
		{Timestamp{refInstant}, `"2026-11-22T10:00:00Z"`},
		{Timestamp{refInstant.Add(1500 * time.Microsecond).In(time.FixedZone("X", -7200))}, `"2026-11-22T10:00:00.0015Z"`},
	}
	for _, tt := range tests {
		b, err := json.Marshal(tt.in)
		if err != nil {
			t.Fatalf("Marshal(%v): %v", tt.in.Time, err)
		}
		if string(b) != tt.want {
			t.Errorf("Marshal(%v) = %s, want %s", tt.in.Time, b, tt.want)
		}
		var back Timestamp
		if err := json.Unmarshal(b, &back); err != nil {
			t.Fatalf("Unmarshal(%s): %v", b, err)
		}
		if !back.Equal(tt.in.Time) || back.IsZero() != tt.in.IsZero() {
			t.Errorf("round trip of %v gave %v", tt.in.Time, back.Time)
		}
	}
	// Inside an entity too.
	p := Project{ID: "1", Name: "n", DateCreated: Timestamp{refInstant}}
	b, err := json.Marshal(p)
	if err != nil {
		t.Fatal(err)
	}
	var back Project
	if err := json.Unmarshal(b, &back); err != nil {
		t.Fatal(err)
	}
	if !back.DateCreated.Equal(refInstant) || !back.DateModified.IsZero() {
		t.Errorf("entity round trip: %s -> %+v", b, back)
	}
}
