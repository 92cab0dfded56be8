package contactsync

import (
	"bytes"
	"cmp"
	"encoding/binary"
	"fmt"
	"hash/maphash"
	"math"
	"slices"
	"sync"
	"unsafe"

	"github.com/rms-labs/terraform-provider-rms/internal/client"
)

// A Book is what the input of rms_list_contacts wants, sorted by id. A map
// input (a few thousand contacts at most: Terraform holds the map itself)
// keeps its contacts as they are. A source file may name a million
// contacts, so its contacts are packed into one byte arena: per contact
// its id, its values in column order and its two statuses, with no map and
// no string of its own. A contact's properties are made into a map only
// where a change needs them (Contact), so a plan of a list whose contacts
// are as the file wants them holds about the file's own size.
type Book struct {
	// Columns are the attribute names a file manages, sorted ("" for a map
	// input, whose contacts each name their own attributes).
	Columns []string
	// UnknownColumns are the columns of a file that named no attribute of
	// the account when it was read, kept under their own name in Columns:
	// the plan warns, and the apply refuses the file unless each exists by
	// then (an attribute made earlier in the same apply).
	UnknownColumns []string

	file bool      // packed in the arena (a source file)
	list []Desired // a map input

	arena []byte   // a file input: the packed contacts
	offs  []uint32 // start of each contact in arena, in id order
	rows  []uint32 // the file row of each contact, in the order of offs

	seed  maphash.Seed
	index []int32 // open addressing: book index + 1, 0 empty

	digestOnce sync.Once
	digest     string // DesiredDigest
}

// Entry is a contact of a book without its properties.
type Entry struct {
	ID            string
	Email, Mobile string
}

// BookOf is the book of a map input's contacts; desired must be sorted by
// id.
func BookOf(desired []Desired) *Book {
	b := &Book{list: desired}
	b.buildIndex()
	return b
}

// Len is the number of contacts.
func (b *Book) Len() int {
	if b == nil {
		return 0
	}
	if !b.file {
		return len(b.list)
	}
	return len(b.offs)
}

// ID is the id of contact i. For a file input it shares the arena's
// bytes, which never change once the book is made.
func (b *Book) ID(i int) string {
	if !b.file {
		return b.list[i].ID
	}
	id, _ := b.field(int(b.offs[i]))
	return id
}

// Entry is contact i without its properties.
func (b *Book) Entry(i int) Entry {
	if !b.file {
		w := b.list[i]
		return Entry{ID: w.ID, Email: w.Email, Mobile: w.Mobile}
	}
	p := int(b.offs[i])
	id, p := b.field(p)
	for range b.Columns {
		_, p = b.field(p)
	}
	return Entry{ID: id, Email: statusOfCode(b.arena[p]), Mobile: statusOfCode(b.arena[p+1])}
}

// Contact is contact i with its properties, keyed by attribute name (an
// empty value: the contact must not have one).
func (b *Book) Contact(i int) Desired {
	if !b.file {
		return b.list[i]
	}
	p := int(b.offs[i])
	var w Desired
	w.ID, p = b.field(p)
	w.Props = make(map[string]string, len(b.Columns))
	for _, c := range b.Columns {
		var v string
		v, p = b.field(p)
		w.Props[c] = v
	}
	w.Email, w.Mobile = statusOfCode(b.arena[p]), statusOfCode(b.arena[p+1])
	return w
}

// eachValue calls fn with each column of contact i of a file's book and
// its value ("" included), in column order, without a map.
func (b *Book) eachValue(i int, fn func(k, v string)) {
	p := int(b.offs[i])
	_, p = b.field(p)
	for _, c := range b.Columns {
		var v string
		v, p = b.field(p)
		fn(c, v)
	}
}

// Contacts are all the contacts, with their properties: for tests and
// small inputs only.
func (b *Book) Contacts() []Desired {
	out := make([]Desired, b.Len())
	for i := range out {
		out[i] = b.Contact(i)
	}
	return out
}

// Index is the position of the contact with this id.
func (b *Book) Index(id string) (int, bool) {
	if b.Len() == 0 {
		return 0, false
	}
	mask := len(b.index) - 1
	for h := int(maphash.String(b.seed, id)) & mask; ; h = (h + 1) & mask {
		v := b.index[h]
		if v == 0 {
			return 0, false
		}
		if b.ID(int(v-1)) == id {
			return int(v - 1), true
		}
	}
}

// Has reports whether the book names the contact.
func (b *Book) Has(id string) bool {
	_, ok := b.Index(id)
	return ok
}

// sameValues reports whether props (the service's, keyed by attribute
// name) hold exactly contact i's values for the book's columns (absent
// counts as empty), as Compare would find: then the contact needs no
// property change. Attributes the file does not manage are not compared.
// Only a file's book can tell without a map; for a map input it is always
// false, and the comparison goes by Contact.
func (b *Book) sameValues(i int, props client.PropertyValues) bool {
	return b.sameAs(i, func(column string) string { return props[column] })
}

// samePairs is sameValues of pairs keyed by attribute name, the last
// value of a key counting, without a map.
func (b *Book) samePairs(i int, pairs []client.PropertyPair) bool {
	return b.sameAs(i, func(column string) string { return pairValue(pairs, column) })
}

// sameAs reports whether value gives contact i's value of each of the
// book's columns ("" for none): sameValues and samePairs.
func (b *Book) sameAs(i int, value func(column string) string) bool {
	if !b.file {
		return false
	}
	_, p := b.field(int(b.offs[i]))
	for _, c := range b.Columns {
		var v string
		v, p = b.field(p)
		if value(c) != v {
			return false
		}
	}
	return true
}

// pairValue is the last value pairs give key ("" for none). A contact has
// a handful of properties: a search is cheaper than a map.
func pairValue(pairs []client.PropertyPair, key string) string {
	for j := len(pairs) - 1; j >= 0; j-- {
		if pairs[j].Key == key {
			return pairs[j].Value
		}
	}
	return ""
}

// field reads one length-prefixed field of the arena at p, and where the
// next begins.
func (b *Book) field(p int) (string, int) {
	n, w := binary.Uvarint(b.arena[p:])
	start := p + w
	end := start + int(n)
	if n == 0 {
		return "", end
	}
	return unsafe.String(&b.arena[start], int(n)), end
}

// bookWriter packs a file's contacts into a book.
type bookWriter struct {
	b *Book
}

// newBookWriter starts a book of columns; size is the source's size in
// bytes (0: unknown), which the arena starts at.
func newBookWriter(columns []string, size int64) *bookWriter {
	b := &Book{Columns: columns, file: true}
	if size > 0 && size < maxBookBytes {
		// A packed row is two bytes longer than its line (a length byte
		// per field for the delimiters and the newline, and two status
		// bytes): the arena starts a quarter larger than the file, so that
		// it is not copied near its end, when the old and the new would
		// both be live (a ten-million-row file: 427 and 534 MiB at once).
		// What it does not fill is never touched, so it is not resident.
		b.arena = make([]byte, 0, min(size+size/4, maxBookBytes))
	}
	return &bookWriter{b: b}
}

// reserve makes room in the book's offsets and rows for about n contacts
// in all, at once, instead of growing them by doubling (ten million rows
// allocated 192 MiB each for 38 MiB kept).
func (w *bookWriter) reserve(n int) {
	if more := n - len(w.b.offs); more > 0 {
		w.b.offs = slices.Grow(w.b.offs, more)
		w.b.rows = slices.Grow(w.b.rows, more)
	}
}

// maxBookBytes bounds a book's arena, whose offsets are 32 bits: some
// 4 GiB, seventy times a million-contact file of four attributes. Where an
// int is 32 bits (386, arm) no slice reaches that, so the bound there is the
// largest int; it is an untyped constant that fits an int on every platform.
const maxBookBytes = min(math.MaxUint32, math.MaxInt)

// add packs one contact: values in the order of the book's columns.
func (w *bookWriter) add(row int, id string, values []string, email, mobile string) error {
	b := w.b
	need := binary.MaxVarintLen64 + len(id) + 2
	for _, v := range values {
		need += binary.MaxVarintLen64 + len(v)
	}
	// Subtracted rather than added: where an int is 32 bits the sum may
	// overflow.
	if need > maxBookBytes-len(b.arena) {
		return fmt.Errorf("row %d: the file's contacts take more than %d MiB, more than one resource can hold; split the list's contacts over several lists", row, maxBookBytes>>20)
	}
	b.offs = append(b.offs, uint32(len(b.arena)))
	b.rows = append(b.rows, uint32(row))
	b.arena = binary.AppendUvarint(b.arena, uint64(len(id)))
	b.arena = append(b.arena, id...)
	for _, v := range values {
		b.arena = binary.AppendUvarint(b.arena, uint64(len(v)))
		b.arena = append(b.arena, v...)
	}
	b.arena = append(b.arena, statusCode(email), statusCode(mobile))
	return nil
}

// finish sorts the contacts by id and indexes them. Two rows naming one
// contact are refused, naming both rows.
func (w *bookWriter) finish() (*Book, error) {
	b := w.b
	b.arena = slices.Clip(b.arena)
	idAt := func(off uint32) []byte {
		n, k := binary.Uvarint(b.arena[off:])
		return b.arena[int(off)+k : int(off)+k+int(n)]
	}
	// Sorted by eight bytes of the id first (one integer comparison), the
	// eight after the prefix every id shares ("customer-"), where most ids
	// differ; then by the whole id, and the row.
	common := 0
	if len(b.offs) > 0 {
		first := idAt(b.offs[0])
		common = len(first)
		for _, off := range b.offs[1:] {
			id := idAt(off)
			n := 0
			for n < common && n < len(id) && id[n] == first[n] {
				n++
			}
			common = n
		}
	}
	keys := make([]sortKey, len(b.offs))
	for i, off := range b.offs {
		var k [8]byte
		copy(k[:], idAt(off)[common:])
		keys[i] = sortKey{prefix: binary.BigEndian.Uint64(k[:]), i: int32(i)}
	}
	less := func(x, y sortKey) int {
		if x.prefix != y.prefix {
			return cmp.Compare(x.prefix, y.prefix)
		}
		if c := bytes.Compare(idAt(b.offs[x.i]), idAt(b.offs[y.i])); c != 0 {
			return c
		}
		return cmp.Compare(b.rows[x.i], b.rows[y.i])
	}
	if !slices.IsSortedFunc(keys, less) {
		slices.SortFunc(keys, less)
		offs, rows := make([]uint32, len(keys)), make([]uint32, len(keys))
		for i, k := range keys {
			offs[i], rows[i] = b.offs[k.i], b.rows[k.i]
		}
		b.offs, b.rows = offs, rows
	}
	for i := 1; i < len(b.offs); i++ {
		if id := idAt(b.offs[i]); bytes.Equal(idAt(b.offs[i-1]), id) {
			return nil, fmt.Errorf("rows %d and %d both name contact %q; each contact may appear once", b.rows[i-1], b.rows[i], id)
		}
	}
	b.rows = nil
	b.buildIndex()
	return b, nil
}

// sortKey is a contact of a book being sorted: eight bytes of its id after
// the prefix all ids share, big-endian (a shorter id padded with zero
// bytes, which sort first as a shorter prefix does), and its index.
type sortKey struct {
	prefix uint64
	i      int32
}

// buildIndex makes the open addressing index of ids, at most two thirds
// full: a lookup of an id the book does not name probes about five slots
// at worst, and ten million ids take 64 MiB, not 128 (a listing in the
// book's order does not look them up at all: ServiceList.bookIndex).
func (b *Book) buildIndex() {
	n := b.Len()
	size := 1
	for size < n+n/2+1 { // never full: a lookup of an absent id ends at an empty slot
		size <<= 1
	}
	b.seed = maphash.MakeSeed()
	b.index = make([]int32, size)
	mask := size - 1
	for i := range n {
		h := int(maphash.String(b.seed, b.ID(i))) & mask
		for b.index[h] != 0 {
			h = (h + 1) & mask
		}
		b.index[h] = int32(i + 1)
	}
}

// Status codes of the arena.
const (
	codeNone byte = iota
	codeSubscribed
	codeUnsubscribed
)

func statusCode(s string) byte {
	switch s {
	case client.StatusSubscribed:
		return codeSubscribed
	case client.StatusUnsubscribed:
		return codeUnsubscribed
	}
	return codeNone
}

func statusOfCode(c byte) string {
	switch c {
	case codeSubscribed:
		return client.StatusSubscribed
	case codeUnsubscribed:
		return client.StatusUnsubscribed
	}
	return ""
}
