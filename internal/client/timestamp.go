package client

import (
	"bytes"
	"encoding/json"
	"fmt"
	"math"
	"strconv"
	"strings"
	"time"
)

// Timestamp is a point in time as the service may send it. The interface
// shows batch times as epoch milliseconds and leaves the form of dateCreated
// and dateModified open, so every form a careful service could choose is
// read:
//
//   - RFC 3339 text, with or without a fraction, with "Z" or an offset
//     ("2026-11-22T10:00:00Z", "2026-11-22T12:00:00.123+02:00"), and the
//     same without an offset or with a space for the "T" (read as UTC);
//   - an epoch number, as a JSON number or a digit string: a magnitude of
//     1e11 or more is milliseconds, anything smaller is seconds. 1e11
//     seconds is in the year 5138 and 1e11 milliseconds is March 1973, so
//     no date either unit can mean in practice falls on the wrong side;
//   - null, "", 0 or a text that is none of the above: no time (the zero
//     Timestamp). A time the provider only shows is not worth failing an
//     answer for, and a create whose answer failed to decode would leave
//     what it made behind.
//
// String renders the time as RFC 3339 in UTC, so that every form compares
// equal once read and state always holds one form.
type Timestamp struct {
	time.Time
}

// epochMillisThreshold is the magnitude from which an epoch number is read
// as milliseconds rather than seconds.
const epochMillisThreshold = 1e11

// UnmarshalJSON reads any of the forms above; it fails only on JSON that is
// neither a number nor a string nor null (an object, say).
func (t *Timestamp) UnmarshalJSON(b []byte) error {
	b = bytes.TrimSpace(b)
	t.Time = time.Time{}
	switch {
	case len(b) == 0 || bytes.Equal(b, []byte("null")):
		return nil
	case b[0] == '"':
		var s string
		if err := json.Unmarshal(b, &s); err != nil {
			return err
		}
		t.Time = ParseTimestamp(s)
		return nil
	default:
		var n json.Number
		if err := json.Unmarshal(b, &n); err != nil {
			return fmt.Errorf("a timestamp must be RFC 3339 text or an epoch number, got %s", excerpt(b))
		}
		t.Time = epochTime(n.String())
		return nil
	}
}

// MarshalJSON writes the RFC 3339 form, or null for no time.
func (t Timestamp) MarshalJSON() ([]byte, error) {
	if t.IsZero() {
		return []byte("null"), nil
	}
	return json.Marshal(t.String())
}

// String is the time in RFC 3339, UTC, with a fraction only when it has
// one; "" for no time.
func (t Timestamp) String() string {
	if t.IsZero() {
		return ""
	}
	return t.UTC().Format(time.RFC3339Nano)
}

// timestampLayouts are the text forms read besides epoch digits, most
// likely first.
var timestampLayouts = []string{
	time.RFC3339Nano,
	"2006-01-02T15:04:05.999999999",
	"2006-01-02 15:04:05.999999999Z07:00",
	"2006-01-02 15:04:05.999999999",
	"2006-01-02T15:04:05.999999999Z0700",
}

// ParseTimestamp reads a timestamp text in any form Timestamp accepts; the
// zero time when it is none of them.
func ParseTimestamp(s string) time.Time {
	s = strings.TrimSpace(s)
	if s == "" {
		return time.Time{}
	}
	if isEpochText(s) {
		return epochTime(s)
	}
	for _, layout := range timestampLayouts {
		if t, err := time.Parse(layout, s); err == nil {
			return t.UTC()
		}
	}
	return time.Time{}
}

func isEpochText(s string) bool {
	_, err := strconv.ParseFloat(s, 64)
	return err == nil && !strings.ContainsAny(s, "eEnN") // digits, a sign, a point
}

// epochTime reads an epoch number by magnitude (see Timestamp); zero and
// what does not parse are no time.
func epochTime(s string) time.Time {
	if i, err := strconv.ParseInt(s, 10, 64); err == nil {
		switch {
		case i == 0:
			return time.Time{}
		case i >= epochMillisThreshold || i <= -epochMillisThreshold:
			return time.UnixMilli(i).UTC()
		default:
			return time.Unix(i, 0).UTC()
		}
	}
	f, err := strconv.ParseFloat(s, 64)
	if err != nil || f == 0 || math.IsInf(f, 0) || math.IsNaN(f) {
		return time.Time{}
	}
	if math.Abs(f) >= epochMillisThreshold {
		return time.UnixMilli(int64(f)).UTC()
	}
	sec, frac := math.Modf(f)
	return time.Unix(int64(sec), int64(frac*1e9)).UTC()
}

// TimestampOf reads text as Timestamp does (the zero Timestamp when it is
// no time).
func TimestampOf(s string) Timestamp { return Timestamp{ParseTimestamp(s)} }
