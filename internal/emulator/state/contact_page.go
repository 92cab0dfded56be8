package state

import (
	"slices"
	"strconv"
	"strings"
	"time"
)

// A page of a million-contact list is the emulator's most frequent answer:
// a listing asks for a thousand of them. Building a ContactView per contact
// (a map, two formatted dates) made the emulator allocate about half a
// megabyte per page, and with a million contacts held the garbage collector
// then cost more than the answers themselves. A page is therefore written
// straight from the stored contacts, with the same bytes as
// AppendContactsJSON of their views (TestContactsPageJSON).

// PropKey names one attribute in an answer: its id, and the key the answer
// writes for it (its name, or its id under a wire profile that keys
// properties by id).
type PropKey struct {
	ID  int64
	Key string
}

// ContactsPage is one page of a list's contacts as stored. Stored contacts
// are never modified in place, so a page is encoded after the store's lock
// is released.
type ContactsPage struct {
	Contacts []*Contact
	Keys     []PropKey // the account's attributes keyed by name, sorted by key
	Total    int       // contacts in the list
}

// SortPropKeys sorts keys as encoding/json orders a map's keys.
func SortPropKeys(keys []PropKey) {
	slices.SortFunc(keys, func(a, b PropKey) int { return strings.Compare(a.Key, b.Key) })
}

// AppendContactsPageJSON appends the JSON array of contacts to b, each as
// AppendJSON writes its View with the properties named by keys (sorted by
// SortPropKeys); statuses false leaves both subscription states out.
func AppendContactsPageJSON(b []byte, contacts []*Contact, keys []PropKey, statuses bool) []byte {
	b = append(b, '[')
	for i, c := range contacts {
		if i > 0 {
			b = append(b, ',')
		}
		b = c.appendJSON(b, keys, statuses)
	}
	return append(b, ']')
}

func (c *Contact) appendJSON(b []byte, keys []PropKey, statuses bool) []byte {
	b = append(b, `{"id":`...)
	b = strconv.AppendInt(b, c.ID, 10)
	b = append(b, `,"originalId":`...)
	b = appendJSONString(b, c.OriginalID)
	b = append(b, `,"properties":{`...)
	first := true
	for _, k := range keys {
		v, ok := c.Props.lookup(k.ID)
		if !ok {
			continue
		}
		if !first {
			b = append(b, ',')
		}
		first = false
		b = appendJSONString(b, k.Key)
		b = append(b, ':')
		b = appendJSONString(b, v)
	}
	b = append(b, '}')
	if statuses && c.status != codeNone {
		b = append(b, `,"status":`...)
		b = appendJSONString(b, c.Status())
	}
	if statuses && c.mobile != codeNone {
		b = append(b, `,"mobileStatus":`...)
		b = appendJSONString(b, c.MobileStatus())
	}
	b = append(b, `,"dateCreated":`...)
	b = appendStamp(b, int64(c.created))
	b = append(b, `,"dateModified":`...)
	b = appendStamp(b, int64(c.modified))
	return append(b, '}')
}

// appendStamp appends formatStamp(sec) as a JSON string: RFC 3339 in UTC
// holds nothing that needs escaping.
func appendStamp(b []byte, sec int64) []byte {
	b = append(b, '"')
	b = time.Unix(sec, 0).UTC().AppendFormat(b, time.RFC3339)
	return append(b, '"')
}

// lookup returns the value of attribute id.
func (p PropSet) lookup(id int64) (v string, ok bool) {
	p.each(func(got int64, val string) bool {
		if got >= id {
			v, ok = val, got == id
			return false
		}
		return true
	})
	return v, ok
}
