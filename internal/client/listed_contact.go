package client

import (
	"encoding/json"
	"fmt"
	"maps"
	"slices"
)

// ListedContact is a contact as a listing compares it: its key, its
// properties and its two statuses. Dates and the numeric id are not read,
// and the statuses the service names are the package's constants, so a
// million listed contacts hold no million copies of "SUBSCRIBED".
type ListedContact struct {
	OriginalID   string         `json:"originalId"`
	Properties   PropertyValues `json:"properties"` // keyed by attribute name or id, as the service answers
	Status       string         `json:"status"`
	MobileStatus string         `json:"mobileStatus"`
	// Pairs holds the properties instead of Properties in a listing by
	// pairs (ListingOptions.Pairs): what Properties would hold, each key
	// once, in no promised order; nil where Properties would be nil (null
	// or absent), empty where it would be empty. The pairs of a chunk's
	// contacts share one array, so a chunk costs one allocation for them,
	// not a map per contact.
	Pairs []PropertyPair `json:"-"`
}

// PropertyPair is one property of a listed contact: its key as the service
// answered it (an attribute's name or id) and its value.
type PropertyPair struct {
	Key, Value string
}

// internStatus returns the package's constant for a status it names.
func internStatus(s []byte) string {
	switch string(s) { // no allocation: a switch on the bytes
	case StatusSubscribed:
		return StatusSubscribed
	case StatusUnsubscribed:
		return StatusUnsubscribed
	}
	return string(s)
}

func internStatusString(s string) string {
	switch s {
	case StatusSubscribed:
		return StatusSubscribed
	case StatusUnsubscribed:
		return StatusUnsubscribed
	}
	return s
}

// decodeListedContact reads one element of a listing: the scanner reads
// the shape services send, encoding/json anything else, so the result is
// always encoding/json's.
//
// With arena (a listing by pairs) the properties are appended to it as
// Pairs instead of making Properties.
func decodeListedContact(b []byte, keys internKeys, arena *[]PropertyPair) (ListedContact, error) {
	if c, ok := scanListedContact(b, keys, arena); ok {
		return c, nil
	}
	var c ListedContact
	if err := json.Unmarshal(b, &c); err != nil {
		return ListedContact{}, fmt.Errorf("decoding a contact: %w", err)
	}
	c.Status = internStatusString(c.Status)
	c.MobileStatus = internStatusString(c.MobileStatus)
	if arena != nil && c.Properties != nil {
		start := len(*arena)
		for _, k := range slices.Sorted(maps.Keys(c.Properties)) {
			*arena = append(*arena, PropertyPair{Key: k, Value: c.Properties[k]})
		}
		end := len(*arena)
		c.Pairs, c.Properties = (*arena)[start:end:end], nil
	}
	return c, nil
}

// scanListedContact reads a contact object of plain keys whose four fields
// are strings or null (the properties an object or null); other keys may
// hold any valid JSON. ok is false for anything else.
func scanListedContact(b []byte, keys internKeys, arena *[]PropertyPair) (c ListedContact, ok bool) {
	c, end, ok := scanListedContactAt(b, skipSpace(b, 0), keys, arena)
	return c, ok && wholeValue(b, end)
}

// scanListedContactAt is scanListedContact of the object at b[i], with
// what follows it left unread: it returns the index after the object. ok
// is false for an object b does not hold whole, so a listing tries it on
// whatever of the answer it has buffered before it looks for the end of
// the element (contactArray.chunks).
func scanListedContactAt(b []byte, i int, keys internKeys, arena *[]PropertyPair) (c ListedContact, end int, ok bool) {
	if i >= len(b) || b[i] != '{' {
		return c, 0, false
	}
	i = skipSpace(b, i+1)
	if i < len(b) && b[i] == '}' {
		return c, i + 1, true
	}
	for {
		k, j, ok := plainString(b, i)
		if !ok {
			return c, 0, false
		}
		if i = skipSpace(b, j); i >= len(b) || b[i] != ':' {
			return c, 0, false
		}
		i = skipSpace(b, i+1)
		switch string(k) {
		case "originalId":
			i, ok = scanStringField(b, i, &c.OriginalID, false)
		case "status":
			i, ok = scanStringField(b, i, &c.Status, true)
		case "mobileStatus":
			i, ok = scanStringField(b, i, &c.MobileStatus, true)
		case "properties":
			if arena != nil {
				// A key given twice: its last properties count, as the
				// last value of a property does.
				if len(c.Pairs) > 0 {
					*arena = (*arena)[:len(*arena)-len(c.Pairs)]
				}
				c.Pairs, i, ok = scanPropertyPairs(b, i, keys, arena)
			} else {
				c.Properties, i, ok = scanProperties(b, i, keys)
			}
		default:
			if foldsToField(k) {
				return c, 0, false
			}
			i, ok = skipValue(b, i, 0)
		}
		if !ok {
			return c, 0, false
		}
		if i = skipSpace(b, i); i >= len(b) {
			return c, 0, false
		}
		switch b[i] {
		case ',':
			i = skipSpace(b, i+1)
		case '}':
			return c, i + 1, true
		default:
			return c, 0, false
		}
	}
}

// scanStringField reads a string field's value into dst; null leaves dst
// as it is, as encoding/json does.
func scanStringField(b []byte, i int, dst *string, status bool) (int, bool) {
	if i < len(b) && b[i] == 'n' {
		return scalarEnd(b, i)
	}
	if status {
		if raw, next, ok := plainString(b, i); ok {
			*dst = internStatus(raw)
			return next, true
		}
	}
	s, next, ok := stringValue(b, i)
	if ok {
		*dst = s
		if status {
			*dst = internStatusString(s)
		}
	}
	return next, ok
}
