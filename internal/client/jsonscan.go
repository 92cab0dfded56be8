package client

import (
	"bytes"
	"encoding/json"
	"unicode/utf8"
)

// A small JSON scanner for the shapes a contact listing holds, so that a
// page of a thousand contacts is read in one pass instead of through
// encoding/json's reflection and its second pass over every custom field.
// It only ever accepts what encoding/json accepts, with the same result;
// whenever it meets anything else (an escape in a key, a value of an
// unexpected type, a key that differs from a field only in case, invalid
// JSON) it says so and the caller decodes that value with encoding/json,
// which then gives the answer, or the error, it always gave.

// maxScanDepth bounds the nesting the scanner follows in values it skips;
// deeper values go to encoding/json, which has its own limit.
const maxScanDepth = 64

func isSpace(c byte) bool { return c == ' ' || c == '\t' || c == '\n' || c == '\r' }

// skipSpace returns the index of the first byte at or after i that is not
// JSON white space.
func skipSpace(b []byte, i int) int {
	for i < len(b) && isSpace(b[i]) {
		i++
	}
	return i
}

// plainString reads the string whose opening quote is b[i] when it needs no
// unescaping: no backslash, no control character, valid UTF-8 (encoding/json
// would replace invalid bytes). It returns its bytes and the index after
// the closing quote; ok is false for any other string.
func plainString(b []byte, i int) (s []byte, next int, ok bool) {
	if i >= len(b) || b[i] != '"' {
		return nil, 0, false
	}
	start := i + 1
	ascii := true
	for j := start; j < len(b); j++ {
		c := b[j]
		switch {
		case c == '"':
			s = b[start:j]
			if !ascii && !utf8.Valid(s) {
				return nil, 0, false
			}
			return s, j + 1, true
		case c == '\\' || c < 0x20:
			return nil, 0, false
		case c >= utf8.RuneSelf:
			ascii = false
		}
	}
	return nil, 0, false
}

// stringValue reads the string at b[i] as encoding/json does: plain strings
// directly, strings with escapes through encoding/json.
func stringValue(b []byte, i int) (string, int, bool) {
	if raw, next, ok := plainString(b, i); ok {
		return string(raw), next, true
	}
	return escapedString(b, i)
}

// escapedString is stringValue of a string plainString does not read. It
// is a function of its own so that only it moves its result to the heap
// (encoding/json takes its address): in stringValue, that cost every plain
// string of a listing an allocation of its own.
func escapedString(b []byte, i int) (s string, next int, ok bool) {
	end, ok := skipString(b, i)
	if !ok {
		return "", 0, false
	}
	if err := json.Unmarshal(b[i:end], &s); err != nil {
		return "", 0, false
	}
	return s, end, true
}

// skipString returns the index after the valid JSON string at b[i].
func skipString(b []byte, i int) (int, bool) {
	if i >= len(b) || b[i] != '"' {
		return 0, false
	}
	for j := i + 1; j < len(b); j++ {
		switch c := b[j]; {
		case c == '"':
			return j + 1, true
		case c < 0x20:
			return 0, false
		case c == '\\':
			j++
			if j >= len(b) {
				return 0, false
			}
			switch b[j] {
			case '"', '\\', '/', 'b', 'f', 'n', 'r', 't':
			case 'u':
				if j+4 >= len(b) {
					return 0, false
				}
				for _, h := range b[j+1 : j+5] {
					if !isHex(h) {
						return 0, false
					}
				}
				j += 4
			default:
				return 0, false
			}
		}
	}
	return 0, false
}

func isHex(c byte) bool {
	return '0' <= c && c <= '9' || 'a' <= c && c <= 'f' || 'A' <= c && c <= 'F'
}

func isDigit(c byte) bool { return '0' <= c && c <= '9' }

// skipNumber returns the index after the JSON number at b[i].
func skipNumber(b []byte, i int) (int, bool) {
	if i < len(b) && b[i] == '-' {
		i++
	}
	switch {
	case i < len(b) && b[i] == '0':
		i++
	case i < len(b) && '1' <= b[i] && b[i] <= '9':
		for i < len(b) && isDigit(b[i]) {
			i++
		}
	default:
		return 0, false
	}
	if i < len(b) && b[i] == '.' {
		i++
		if i >= len(b) || !isDigit(b[i]) {
			return 0, false
		}
		for i < len(b) && isDigit(b[i]) {
			i++
		}
	}
	if i < len(b) && (b[i] == 'e' || b[i] == 'E') {
		i++
		if i < len(b) && (b[i] == '+' || b[i] == '-') {
			i++
		}
		if i >= len(b) || !isDigit(b[i]) {
			return 0, false
		}
		for i < len(b) && isDigit(b[i]) {
			i++
		}
	}
	return i, true
}

// literal returns the index after the literal lit at b[i].
func literal(b []byte, i int, lit string) (int, bool) {
	if len(b)-i < len(lit) || string(b[i:i+len(lit)]) != lit {
		return 0, false
	}
	return i + len(lit), true
}

// scalarEnd returns the index after the number or literal at b[i]; a
// following byte must end it (white space or a delimiter), as in JSON.
func scalarEnd(b []byte, i int) (int, bool) {
	var end int
	var ok bool
	switch b[i] {
	case 't':
		end, ok = literal(b, i, "true")
	case 'f':
		end, ok = literal(b, i, "false")
	case 'n':
		end, ok = literal(b, i, "null")
	default:
		end, ok = skipNumber(b, i)
	}
	if !ok || end < len(b) && !isSpace(b[end]) && b[end] != ',' && b[end] != '}' && b[end] != ']' {
		return 0, false
	}
	return end, true
}

// skipValue returns the index after the valid JSON value at b[i].
func skipValue(b []byte, i, depth int) (int, bool) {
	if i >= len(b) || depth > maxScanDepth {
		return 0, false
	}
	switch b[i] {
	case '"':
		return skipString(b, i)
	case '{', '[':
		closing := byte('}')
		if b[i] == '[' {
			closing = ']'
		}
		i = skipSpace(b, i+1)
		if i < len(b) && b[i] == closing {
			return i + 1, true
		}
		for {
			var ok bool
			if closing == '}' {
				if i, ok = skipString(b, i); !ok {
					return 0, false
				}
				if i = skipSpace(b, i); i >= len(b) || b[i] != ':' {
					return 0, false
				}
				i = skipSpace(b, i+1)
			}
			if i, ok = skipValue(b, i, depth+1); !ok {
				return 0, false
			}
			if i = skipSpace(b, i); i >= len(b) {
				return 0, false
			}
			switch b[i] {
			case ',':
				i = skipSpace(b, i+1)
			case closing:
				return i + 1, true
			default:
				return 0, false
			}
		}
	default:
		return scalarEnd(b, i)
	}
}

// propertyValue reads one value of a properties object: a string, kept
// as its text; a number or a boolean, kept as its JSON text; null, which
// has no value (isNull). ok is false for an object or an array, which
// encoding/json reads (PropertyValues keeps them as their JSON text too).
func propertyValue(b []byte, i int) (v string, isNull bool, next int, ok bool) {
	if i >= len(b) {
		return "", false, 0, false
	}
	switch c := b[i]; {
	case c == '"':
		v, next, ok = stringValue(b, i)
		return v, false, next, ok
	case c == 'n':
		next, ok = scalarEnd(b, i)
		return "", true, next, ok
	case c == 't' || c == 'f' || c == '-' || isDigit(c):
		next, ok = scalarEnd(b, i)
		if !ok {
			return "", false, 0, false
		}
		return string(b[i:next]), false, next, true
	}
	return "", false, 0, false
}

// internKeys keeps one copy of each property key of a listing: a million
// contacts then share a handful of key strings. It stops learning keys at
// a bound, so a listing of ever new keys cannot grow it without end.
type internKeys map[string]string

const maxInternedKeys = 1024

func (m internKeys) key(b []byte) string {
	if s, ok := m[string(b)]; ok { // no allocation: the compiler looks up by the bytes
		return s
	}
	s := string(b)
	if m != nil && len(m) < maxInternedKeys {
		m[s] = s
	}
	return s
}

// scanProperties reads the properties object at b[i] (or null) in one
// pass, as PropertyValues.UnmarshalJSON defines it. ok is false when the
// object holds anything but plain keys and string, number, boolean or null
// values; encoding/json then reads it.
func scanProperties(b []byte, i int, keys internKeys) (p PropertyValues, next int, ok bool) {
	if i >= len(b) {
		return nil, 0, false
	}
	if b[i] == 'n' {
		next, ok = scalarEnd(b, i)
		return nil, next, ok
	}
	p = make(PropertyValues, 8)
	next, ok = scanPropertyObject(b, i, func(k []byte, v string, isNull bool) {
		if isNull {
			// Of two values of a key the last counts, a null too.
			delete(p, string(k))
		} else {
			p[keys.key(k)] = v
		}
	})
	if !ok {
		return nil, 0, false
	}
	return p, next, true
}

// scanPropertyPairs is scanProperties into pairs appended to *arena (a
// listing by pairs, ListingOptions.Pairs): the contact's pairs are the
// end of *arena, capped so that appending to them cannot reach the next
// contact's. Each key is kept once, with its last value; a null removes it.
func scanPropertyPairs(b []byte, i int, keys internKeys, arena *[]PropertyPair) (p []PropertyPair, next int, ok bool) {
	if i >= len(b) {
		return nil, 0, false
	}
	if b[i] == 'n' {
		next, ok = scalarEnd(b, i)
		return nil, next, ok
	}
	start := len(*arena)
	next, ok = scanPropertyObject(b, i, func(k []byte, v string, isNull bool) {
		own := (*arena)[start:]
		for j := range own {
			if own[j].Key == string(k) {
				if isNull {
					*arena = append((*arena)[:start+j], own[j+1:]...)
				} else {
					own[j].Value = v
				}
				return
			}
		}
		if !isNull {
			*arena = append(*arena, PropertyPair{Key: keys.key(k), Value: v})
		}
	})
	if !ok {
		*arena = (*arena)[:start]
		return nil, 0, false
	}
	end := len(*arena)
	return (*arena)[start:end:end], next, true
}

// scanPropertyObject reads the properties object at b[i], calling set for
// each member in order. ok is false when the object holds anything but
// plain keys and string, number, boolean or null values.
func scanPropertyObject(b []byte, i int, set func(k []byte, v string, isNull bool)) (next int, ok bool) {
	if i >= len(b) || b[i] != '{' {
		return 0, false
	}
	i = skipSpace(b, i+1)
	if i < len(b) && b[i] == '}' {
		return i + 1, true
	}
	for {
		k, j, ok := plainString(b, i)
		if !ok {
			return 0, false
		}
		if i = skipSpace(b, j); i >= len(b) || b[i] != ':' {
			return 0, false
		}
		v, isNull, j, ok := propertyValue(b, skipSpace(b, i+1))
		if !ok {
			return 0, false
		}
		set(k, v, isNull)
		if i = skipSpace(b, j); i >= len(b) {
			return 0, false
		}
		switch b[i] {
		case ',':
			i = skipSpace(b, i+1)
		case '}':
			return i + 1, true
		default:
			return 0, false
		}
	}
}

// wholeValue reports whether only white space follows index i of b.
func wholeValue(b []byte, i int) bool { return skipSpace(b, i) == len(b) }

// fieldNames are the keys a ListedContact reads. encoding/json matches
// keys to fields without regard to case; the scanner leaves a key that
// matches one only that way to encoding/json.
var fieldNames = [...][]byte{[]byte("originalId"), []byte("properties"), []byte("status"), []byte("mobileStatus")}

// foldsToField reports whether key matches a field name of ListedContact
// only when case is ignored.
func foldsToField(key []byte) bool {
	for _, f := range fieldNames {
		if bytes.EqualFold(key, f) {
			return true
		}
	}
	return false
}
