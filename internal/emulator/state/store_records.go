package state

import (
	"encoding/binary"
	"encoding/json"
	"slices"
	"strconv"
	"strings"
)

// Reading a ContactRecord fast: a restore reads a million of them, and
// encoding/json's reflection (a map per record) costs more than the rest
// of the restore together. parseContactRecord reads the form
// AppendContactRecord writes, in any key order; anything else (an unknown
// key, a value of another type, a repeated key) is left to encoding/json,
// whose errors name the problem. It allocates only what the contact keeps:
// values repeated from record to record (states, timestamps) come from a
// few remembered strings, and property values are packed straight from
// the record's bytes.

// propPair is one property value read from a record; v is only valid
// until the next record is read (packPairs copies it).
type propPair struct {
	id int64
	v  []byte
}

// recentStrings remembers the last few strings made from bytes, so that a
// value every record repeats is made once.
type recentStrings struct {
	s    [8]string
	next int
}

func (r *recentStrings) get(b []byte) string {
	for _, s := range r.s {
		if s == string(b) { // compared without a copy
			return s
		}
	}
	s := string(b)
	r.s[r.next] = s
	r.next = (r.next + 1) % len(r.s)
	return s
}

// RecordFields is a ContactRecord as read, before it is checked.
type RecordFields struct {
	id                               int64
	originalID, status, mobileStatus string
	dateCreated, dateModified        string
	props                            []propPair
	badPropKey                       string // a key that is not an attribute id
	hasBadKey                        bool
}

// FieldsOf is rec as RecordFields.
func FieldsOf(rec *ContactRecord) RecordFields {
	f := RecordFields{id: rec.ID, originalID: rec.OriginalID, status: rec.Status, mobileStatus: rec.MobileStatus,
		dateCreated: rec.DateCreated, dateModified: rec.DateModified}
	for k, v := range rec.Properties {
		pid, err := strconv.ParseInt(k, 10, 64)
		if err != nil {
			f.badPropKey, f.hasBadKey = k, true
			continue
		}
		f.props = append(f.props, propPair{pid, []byte(v)})
	}
	return f
}

// ReadRecord reads one record: fast when it can, else through
// encoding/json.
func ReadRecord(raw []byte, f *RecordFields, recent *recentStrings) error {
	if parseContactRecord(raw, f, recent) {
		return nil
	}
	var rec ContactRecord
	if err := json.Unmarshal(raw, &rec); err != nil {
		return err
	}
	*f = FieldsOf(&rec)
	return nil
}

// recordParser reads one JSON value at a time from b.
type recordParser struct {
	b      []byte
	i      int
	ok     bool
	recent *recentStrings
}

func (p *recordParser) ws() {
	for p.i < len(p.b) {
		switch p.b[p.i] {
		case ' ', '\t', '\n', '\r':
			p.i++
		default:
			return
		}
	}
}

// byte reads c (after white space).
func (p *recordParser) byte(c byte) bool {
	p.ws()
	if p.i < len(p.b) && p.b[p.i] == c {
		p.i++
		return true
	}
	return false
}

// bytes reads a string without escapes, as the bytes of b; anything else
// fails the parse.
func (p *recordParser) bytes() []byte {
	p.ws()
	if p.i >= len(p.b) || p.b[p.i] != '"' {
		p.ok = false
		return nil
	}
	start := p.i + 1
	for j := start; j < len(p.b); j++ {
		switch c := p.b[j]; {
		case c == '"':
			p.i = j + 1
			return p.b[start:j]
		case c == '\\' || c < 0x20:
			p.ok = false
			return nil
		}
	}
	p.ok = false
	return nil
}

// str is bytes as a new string.
func (p *recordParser) str() string { return string(p.bytes()) }

// repeated is bytes as a string remembered from a recent record.
func (p *recordParser) repeated() string { return p.recent.get(p.bytes()) }

// parseContactRecord reads raw into f when it is a plain record.
func parseContactRecord(raw []byte, f *RecordFields, recent *recentStrings) bool {
	*f = RecordFields{props: f.props[:0]}
	p := &recordParser{b: raw, ok: true, recent: recent}
	if !p.byte('{') {
		return false
	}
	seen := 0
	for p.ok && !p.byte('}') {
		if seen > 0 && !p.byte(',') {
			return false
		}
		key := p.bytes()
		if !p.byte(':') {
			return false
		}
		bit := 0
		switch string(key) { // compared without a copy
		case "id":
			bit = 1
			p.ws()
			j := p.i
			for j < len(p.b) && (p.b[j] >= '0' && p.b[j] <= '9' || p.b[j] == '-') {
				j++
			}
			n, err := strconv.ParseInt(string(p.b[p.i:j]), 10, 64)
			if err != nil {
				return false
			}
			f.id, p.i = n, j
		case "originalId":
			bit, f.originalID = 2, p.str()
		case "status":
			bit, f.status = 4, p.repeated()
		case "mobileStatus":
			bit, f.mobileStatus = 8, p.repeated()
		case "dateCreated":
			bit, f.dateCreated = 16, p.repeated()
		case "dateModified":
			bit, f.dateModified = 32, p.repeated()
		case "properties":
			bit = 64
			if !p.props(f) {
				return false
			}
		default:
			return false
		}
		if seen&bit != 0 {
			return false // repeated: encoding/json's rule (the last wins) applies
		}
		seen |= bit
	}
	p.ws()
	return p.ok && p.i == len(p.b)
}

// props reads the properties object, keyed by attribute ids.
func (p *recordParser) props(f *RecordFields) bool {
	if !p.byte('{') {
		return false
	}
	for first := true; p.ok && !p.byte('}'); first = false {
		if !first && !p.byte(',') {
			return false
		}
		key := p.bytes()
		if !p.byte(':') {
			return false
		}
		v := p.bytes()
		pid, err := strconv.ParseInt(string(key), 10, 64)
		if err != nil || !p.ok {
			return false
		}
		if slices.ContainsFunc(f.props, func(q propPair) bool { return q.id == pid }) {
			return false
		}
		f.props = append(f.props, propPair{pid, v})
	}
	return p.ok
}

// packPairs packs property values (unique ids, any order).
func packPairs(pairs []propPair) PropSet {
	slices.SortFunc(pairs, func(a, b propPair) int {
		switch {
		case a.id < b.id:
			return -1
		case a.id > b.id:
			return 1
		}
		return 0
	})
	n := 0
	for _, q := range pairs {
		n += uvarintLen(uint64(q.id)) + uvarintLen(uint64(len(q.v))) + len(q.v)
	}
	// One allocation of the exact size: a Builder's String does not copy.
	var b strings.Builder
	b.Grow(n)
	var tmp [binary.MaxVarintLen64]byte
	for _, q := range pairs {
		b.Write(tmp[:binary.PutUvarint(tmp[:], uint64(q.id))])
		b.Write(tmp[:binary.PutUvarint(tmp[:], uint64(len(q.v)))])
		b.Write(q.v)
	}
	return PropSet(b.String())
}

// uvarintLen is the length of x as a uvarint.
func uvarintLen(x uint64) int {
	n := 1
	for x >= 0x80 {
		x >>= 7
		n++
	}
	return n
}

// ContactRecord is one contact as the snapshot and the journal write it:
// properties by attribute id, timestamps as the interface writes them.
type ContactRecord struct {
	ID           int64             `json:"id"`
	OriginalID   string            `json:"originalId"`
	Properties   map[string]string `json:"properties"` // by attribute id
	Status       string            `json:"status"`
	MobileStatus string            `json:"mobileStatus"`
	DateCreated  string            `json:"dateCreated"`
	DateModified string            `json:"dateModified"`
}
