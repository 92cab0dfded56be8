package state

import (
	"encoding/binary"
	"slices"
	"strings"
	"time"
)

// Compact forms of a stored contact's fields, so that a list of a million
// contacts fits in a few hundred megabytes: a contact's properties are one
// packed string, its timestamps unix seconds.

// PropSet is a contact's property values keyed by attribute id, packed into
// one string: for each attribute, in increasing id order, the id and the
// value's length as uvarints, then the value. One allocation per contact
// instead of a map; the canonical order makes two equal sets equal strings.
type PropSet string

// each calls fn with every attribute id and value in id order, until fn
// returns false.
func (p PropSet) each(fn func(id int64, v string) bool) {
	s := string(p)
	for len(s) > 0 {
		id, n := uvarintOf(s)
		s = s[n:]
		l, m := uvarintOf(s)
		s = s[m:]
		if !fn(int64(id), s[:l]) {
			return
		}
		s = s[l:]
	}
}

// uvarintOf decodes the uvarint at the start of s and its length; s was
// written by packProps, so it is well formed.
func uvarintOf(s string) (uint64, int) {
	var x uint64
	for i := 0; i < len(s); i++ {
		b := s[i]
		x |= uint64(b&0x7f) << (7 * i)
		if b < 0x80 {
			return x, i + 1
		}
	}
	return x, len(s)
}

// packProps builds a PropSet from values by attribute id.
func packProps(vals map[int64]string) PropSet {
	ids := make([]int64, 0, len(vals))
	size := 0
	for id, v := range vals {
		ids = append(ids, id)
		size += 2*binary.MaxVarintLen64 + len(v)
	}
	slices.Sort(ids)
	var b strings.Builder
	b.Grow(size)
	var tmp [binary.MaxVarintLen64]byte
	for _, id := range ids {
		v := vals[id]
		b.Write(tmp[:binary.PutUvarint(tmp[:], uint64(id))])
		b.Write(tmp[:binary.PutUvarint(tmp[:], uint64(len(v)))])
		b.WriteString(v)
	}
	// A Builder may hold spare capacity; a copy of the exact size does not.
	return PropSet(strings.Clone(b.String()))
}

// share returns s, or the same text within p when it is one of p's values,
// so that a contact whose originalId is its e-mail address keeps it once.
func (p PropSet) share(s string) string {
	out := s
	p.each(func(_ int64, v string) bool {
		if v == s {
			out = v
			return false
		}
		return true
	})
	return out
}

// toMap unpacks p.
func (p PropSet) toMap() map[int64]string {
	m := make(map[int64]string, 4)
	p.each(func(id int64, v string) bool { m[id] = v; return true })
	return m
}

// With returns p With changes merged in: a nil value removes the
// attribute's value.
func (p PropSet) With(changes map[int64]*string) PropSet {
	if len(changes) == 0 {
		return p
	}
	m := p.toMap()
	for id, v := range changes {
		if v == nil {
			delete(m, id)
		} else {
			m[id] = *v
		}
	}
	return packProps(m)
}

// stampOf reads a server timestamp (Server.now: RFC 3339, UTC, whole
// seconds) as unix seconds.
func stampOf(now string) int64 {
	t, err := time.Parse(time.RFC3339, now)
	if err != nil {
		return 0 // never for Server.now; restore checks what it reads
	}
	return t.Unix()
}

// stampNow is stampOf as a contact keeps it: the server's clock is well
// within the years a stamp holds.
func stampNow(now string) stamp { return stamp(stampOf(now)) }

// parseStamp reads a stored timestamp as unix seconds, when it is in the
// one form the emulator writes, so that formatting it again gives it back.
func parseStamp(s string) (int64, bool) {
	t, err := time.Parse(time.RFC3339, s)
	if err != nil || formatStamp(t.Unix()) != s {
		return 0, false
	}
	return t.Unix(), true
}

// formatStamp is the interface's form of a timestamp.
func formatStamp(sec int64) string {
	return time.Unix(sec, 0).UTC().Format(time.RFC3339)
}
