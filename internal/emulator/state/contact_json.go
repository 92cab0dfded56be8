package state

import (
	"encoding/json"
	"slices"
	"strconv"
)

// A page of a million-contact list is answered a thousand times per
// listing: encoding/json spent most of the emulator's time there, in
// reflection and in sorting each contact's properties through reflect
// values. AppendJSON writes the same bytes directly. Strings that need
// escaping (a quote, a backslash, a control character, <, > or &, anything
// beyond ASCII) go through encoding/json, so the output is byte for byte
// what json.Marshal of the struct writes (TestContactViewJSON).

// MarshalJSON encodes v as json.Marshal would by its struct tags.
func (v ContactView) MarshalJSON() ([]byte, error) {
	return v.AppendJSON(nil), nil
}

// AppendJSON appends v's JSON encoding to b.
func (v ContactView) AppendJSON(b []byte) []byte {
	b = append(b, `{"id":`...)
	b = strconv.AppendInt(b, v.ID, 10)
	b = append(b, `,"originalId":`...)
	b = appendJSONString(b, v.OriginalID)
	b = append(b, `,"properties":`...)
	b = appendStringMap(b, v.Properties)
	if v.Status != "" {
		b = append(b, `,"status":`...)
		b = appendJSONString(b, v.Status)
	}
	if v.MobileStatus != "" {
		b = append(b, `,"mobileStatus":`...)
		b = appendJSONString(b, v.MobileStatus)
	}
	b = append(b, `,"dateCreated":`...)
	b = appendJSONString(b, v.DateCreated)
	b = append(b, `,"dateModified":`...)
	b = appendJSONString(b, v.DateModified)
	return append(b, '}')
}

// AppendContactsJSON appends a JSON array of views to b ("[]" for none).
func AppendContactsJSON(b []byte, views []ContactView) []byte {
	b = append(b, '[')
	for i, v := range views {
		if i > 0 {
			b = append(b, ',')
		}
		b = v.AppendJSON(b)
	}
	return append(b, ']')
}

// appendStringMap appends m with its keys in order, as encoding/json
// writes a map[string]string (null for a nil map).
func appendStringMap(b []byte, m map[string]string) []byte {
	if m == nil {
		return append(b, "null"...)
	}
	var buf [8]string
	keys := buf[:0]
	for k := range m {
		keys = append(keys, k)
	}
	slices.Sort(keys)
	b = append(b, '{')
	for i, k := range keys {
		if i > 0 {
			b = append(b, ',')
		}
		b = appendJSONString(b, k)
		b = append(b, ':')
		b = appendJSONString(b, m[k])
	}
	return append(b, '}')
}

// jsonPlain holds, for each byte, whether encoding/json writes it as it is
// in a string: printable ASCII but a quote, a backslash, <, > and &. One
// lookup a byte instead of seven comparisons: the check was a fifth of the
// emulator's time answering a million-contact listing.
var jsonPlain = func() (t [256]bool) {
	for c := 0x20; c < 0x7f; c++ {
		t[c] = c != '"' && c != '\\' && c != '<' && c != '>' && c != '&'
	}
	return t
}()

// appendJSONString appends s as a JSON string: directly when it holds only
// printable ASCII that encoding/json leaves as it is, else as
// encoding/json writes it.
func appendJSONString(b []byte, s string) []byte {
	for i := 0; i < len(s); i++ {
		if !jsonPlain[s[i]] {
			q, _ := json.Marshal(s) // a string always encodes
			return append(b, q...)
		}
	}
	b = append(b, '"')
	b = append(b, s...)
	return append(b, '"')
}
