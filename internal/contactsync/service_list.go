package contactsync

import (
	"iter"
	"sort"

	"github.com/rms-labs/terraform-provider-rms/internal/client"
)

// A ServiceList is one listing of a list's contacts, held as small as the
// comparison with a Book allows. Made against a file's book (List with
// Against), a contact the book names costs one byte: whether the list has
// it, whether its values are the book's own, and its two statuses; its
// properties are kept only where they differ from the book's. Contacts the
// book does not name keep their statuses (what exclusive, the counts and
// the consent record need), not their properties. Made with Props (a map
// input, a few thousand contacts), every contact keeps its properties.
type ServiceList struct {
	book  *Book
	named []uint8 // per book index: namedFound | namedSame | status codes
	odd   map[int32][2]string
	props map[int32]client.PropertyValues
	other map[string]ServiceContact
	count int
	// withProps: contacts keep their properties (a map input): every one,
	// or only those propsFor names; propsUpTo > 0 drops them all once the
	// list holds more contacts (List's ListOptions.For and PropsUpTo).
	withProps bool
	propsFor  *Book
	propsUpTo int
	// next is the book index after the last contact found, and missed the
	// lookups in a row that did not find the contact there (bookIndex).
	next, missed int
}

// inOrderTries is how many contacts in a row bookIndex looks for at the
// next book index before it stops looking there: a listing that does not
// come in the book's order costs at most that many extra reads.
const inOrderTries = 64

// bookIndex finds id in the book. A listing often comes in the book's order
// (the id order of the file a list was imported from): then each contact is
// at the index after the last one, a read of memory already near, instead
// of a lookup in the book's hash table, a cache miss each (ten million
// lookups were 8 s of a plan's 40 s of CPU).
func (s *ServiceList) bookIndex(id string) (int, bool) {
	if s.missed < inOrderTries && s.next < s.book.Len() {
		if s.book.ID(s.next) == id {
			s.next++
			s.missed = 0
			return s.next - 1, true
		}
		s.missed++
	}
	i, ok := s.book.Index(id)
	if ok {
		if i == s.next {
			s.missed = 0 // in order again: look there again
		}
		s.next = i + 1
	}
	return i, ok
}

// Bits of ServiceList.named. The status codes are those of the arena, and
// codeOdd for a status that is none of them (kept in odd).
const (
	namedFound uint8 = 1 << iota
	namedSame
	namedEmailShift  = 2
	namedMobileShift = 4
	codeOdd          = 3
)

// NewServiceList is an empty listing held against a file's book, or, with
// book nil, one whose contacts keep their properties when withProps and
// only their statuses otherwise.
func NewServiceList(book *Book, withProps bool) *ServiceList {
	s := &ServiceList{other: map[string]ServiceContact{}, withProps: withProps && book == nil}
	if book != nil && book.file {
		s.book = book
		s.named = make([]uint8, book.Len())
	}
	return s
}

// ServiceListOf is a listing holding contacts as they are (tests, and
// inputs small enough to hold whole).
func ServiceListOf(contacts map[string]ServiceContact) *ServiceList {
	s := NewServiceList(nil, true)
	for id, c := range contacts {
		s.Add(id, c)
	}
	return s
}

// Add records one contact as the service shows it. props are keyed by
// attribute name; a contact the book names drops them when they are the
// book's values (sameValues).
func (s *ServiceList) Add(id string, c ServiceContact) {
	s.add(id, c, nil, false)
}

// AddPairs is Add of a contact whose properties are pairs keyed by
// attribute name (a listing by pairs, client.ListingOptions.Pairs), in
// place of c.Props: they are compared with the book where they lie, and
// made into a map only for a contact whose properties are kept.
func (s *ServiceList) AddPairs(id string, c ServiceContact, pairs []client.PropertyPair) {
	s.add(id, c, pairs, true)
}

// add is Add, the properties in c.Props or, byPairs, in pairs.
func (s *ServiceList) add(id string, c ServiceContact, pairs []client.PropertyPair, byPairs bool) {
	s.count++
	if s.book != nil {
		if i, ok := s.bookIndex(id); ok {
			if s.named[i]&namedFound != 0 {
				s.count-- // listed twice (a list changing while listed): the later answer counts
			}
			delete(s.odd, int32(i))
			f := namedFound | s.codeOf(i, 0, c.Email)<<namedEmailShift | s.codeOf(i, 1, c.Mobile)<<namedMobileShift
			same := false
			if byPairs {
				same = s.book.samePairs(i, pairs)
			} else {
				same = s.book.sameValues(i, c.Props)
			}
			if same {
				f |= namedSame
				delete(s.props, int32(i))
			} else {
				if s.props == nil {
					s.props = map[int32]client.PropertyValues{}
				}
				if byPairs {
					c.Props = pairsMap(pairs)
				}
				s.props[int32(i)] = c.Props
			}
			s.named[i] = f
			return
		}
	}
	if _, dup := s.other[id]; dup {
		s.count--
	}
	switch {
	case !s.keepsProps(id):
		c.Props = nil
	case byPairs:
		c.Props = pairsMap(pairs)
	}
	s.other[id] = c
	if s.withProps && s.propsUpTo > 0 && s.count > s.propsUpTo {
		s.dropProps()
	}
}

// keepsProps reports whether the listing keeps the properties of a contact
// its book (if any) does not name.
func (s *ServiceList) keepsProps(id string) bool {
	return s.withProps && (s.propsFor == nil || s.propsFor.Has(id))
}

// dropProps forgets every contact's properties: the list is larger than
// propsUpTo.
func (s *ServiceList) dropProps() {
	s.withProps = false
	for id, c := range s.other {
		c.Props = nil
		s.other[id] = c
	}
}

// codeOf is the code of contact i's status on a channel (0 e-mail, 1
// mobile), keeping a status that has none in odd.
func (s *ServiceList) codeOf(i, channel int, status string) uint8 {
	switch status {
	case "", client.StatusSubscribed, client.StatusUnsubscribed:
		return statusCode(status)
	}
	if s.odd == nil {
		s.odd = map[int32][2]string{}
	}
	o := s.odd[int32(i)]
	o[channel] = status
	s.odd[int32(i)] = o
	return codeOdd
}

// Len is the number of contacts listed.
func (s *ServiceList) Len() int {
	if s == nil {
		return 0
	}
	return s.count
}

// Book is the book the listing was held against (nil: none).
func (s *ServiceList) Book() *Book { return s.book }

// Comparable reports whether Compare and ServiceDigest can compare book
// with this listing: it was held against that book, or every contact book
// names kept its properties.
func (s *ServiceList) Comparable(book *Book) bool {
	if s.book != nil {
		return s.book == book
	}
	if !s.withProps {
		return false
	}
	if s.propsFor == nil || s.propsFor == book {
		return true
	}
	for i := range book.Len() {
		if !s.propsFor.Has(book.ID(i)) {
			return false // a contact the listing kept no properties of
		}
	}
	return true
}

// Get is the contact with this id, if the list has it. Its Props are nil
// where the listing did not keep them: Same says they are the book's own
// values.
func (s *ServiceList) Get(id string) (ServiceContact, bool) {
	if s.book != nil {
		if i, ok := s.book.Index(id); ok {
			return s.at(i)
		}
	}
	c, ok := s.other[id]
	return c, ok
}

// at is the contact of book index i.
func (s *ServiceList) at(i int) (ServiceContact, bool) {
	f := s.named[i]
	if f&namedFound == 0 {
		return ServiceContact{}, false
	}
	c := ServiceContact{Same: f&namedSame != 0, Props: s.props[int32(i)]}
	c.Email = s.statusOf(i, (f>>namedEmailShift)&3, 0)
	c.Mobile = s.statusOf(i, (f>>namedMobileShift)&3, 1)
	return c, true
}

func (s *ServiceList) statusOf(i int, code uint8, channel int) string {
	if code != codeOdd {
		return statusOfCode(code)
	}
	return s.odd[int32(i)][channel]
}

// lookup is contact i of book as this listing holds it.
func (s *ServiceList) lookup(book *Book, i int) (ServiceContact, bool) {
	if s.book == book && s.book != nil {
		return s.at(i)
	}
	return s.Get(book.ID(i))
}

// All yields every contact listed: those the book names in id order, then
// the others in no order.
func (s *ServiceList) All() iter.Seq2[string, ServiceContact] {
	return func(yield func(string, ServiceContact) bool) {
		if s == nil {
			return
		}
		for i := range s.named {
			if c, ok := s.at(i); ok && !yield(s.book.ID(i), c) {
				return
			}
		}
		for id, c := range s.other {
			if !yield(id, c) {
				return
			}
		}
	}
}

// Unnamed are the ids of the contacts book does not name, sorted.
func (s *ServiceList) Unnamed(book *Book) []string {
	var ids []string
	against := s.book != nil && s.book == book // other holds exactly the unnamed
	for id := range s.other {
		if against || !book.Has(id) {
			ids = append(ids, id)
		}
	}
	sort.Strings(ids)
	return ids
}

// Rewind sets the listing back to what the refresh m is counted from saw:
// the statuses it showed, without the contacts that joined since. undo
// sets it forward again. The final plan counts from the rewound listing
// what the reviewed plan counted; the apply writes from the listing as it
// is now.
func (s *ServiceList) Rewind(m Moved) (undo func()) {
	saved := map[string]ServiceContact{}
	for id, then := range m.Then {
		c, _ := s.Get(id)
		saved[id] = c
		c.Email, c.Mobile = then[0], then[1]
		s.put(id, c, true)
	}
	for _, id := range m.Joined {
		c, _ := s.Get(id)
		saved[id] = c
		s.put(id, ServiceContact{}, false)
	}
	return func() {
		for id, c := range saved {
			s.put(id, c, true)
		}
	}
}

// put sets contact id as c holds it (Same kept as it is: c is what Get
// gave), or, present false, takes it off the listing.
func (s *ServiceList) put(id string, c ServiceContact, present bool) {
	if s.book != nil {
		if i, ok := s.book.Index(id); ok {
			found := s.named[i]&namedFound != 0
			delete(s.odd, int32(i))
			delete(s.props, int32(i))
			switch {
			case !present:
				if found {
					s.count--
				}
				s.named[i] = 0
				return
			case !found:
				s.count++
			}
			f := namedFound | s.codeOf(i, 0, c.Email)<<namedEmailShift | s.codeOf(i, 1, c.Mobile)<<namedMobileShift
			if c.Same {
				f |= namedSame
			} else if c.Props != nil {
				if s.props == nil {
					s.props = map[int32]client.PropertyValues{}
				}
				s.props[int32(i)] = c.Props
			}
			s.named[i] = f
			return
		}
	}
	_, found := s.other[id]
	switch {
	case !present:
		if found {
			s.count--
			delete(s.other, id)
		}
		return
	case !found:
		s.count++
	}
	s.other[id] = c
}

// pairsMap is the map of a listed contact's pairs, the last value of a key
// counting: nil for nil pairs (the service gave no properties), as the
// listing by map reads them.
func pairsMap(pairs []client.PropertyPair) client.PropertyValues {
	if pairs == nil {
		return nil
	}
	m := make(client.PropertyValues, len(pairs))
	for _, p := range pairs {
		m[p.Key] = p.Value
	}
	return m
}
