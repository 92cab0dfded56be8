package contactsync

import (
	"encoding/binary"
	"errors"
	"fmt"
	"hash/fnv"
	"sort"
)

// A Sketch is what a refresh's listing was, contact by contact, in a few
// kilobytes of private state: an invertible Bloom lookup table of one entry
// per contact (a hash of its id, its two statuses, a hash of its
// properties). The plan Terraform makes again inside an apply lists the
// list again; subtracting the two sketches leaves only the contacts that
// moved on in between, and peeling the table gives them back, with the
// statuses the refresh saw, as long as there are fewer of them than the
// table has room for (MovedCapacity). That is what lets the final plan
// count what the reviewed plan counted, from a list that has moved on,
// without holding a copy of a ten-million-contact listing anywhere.
type Sketch []byte

// sketchCells is the size of the table. An entry sits in three cells, one
// in each third; peeling succeeds with high probability up to about 0.8
// entries per cell, and a changed contact is two entries (then and now).
const (
	sketchCells    = 300
	sketchCellSize = 4 + 8 + 8 + 1 + 8 // count, id, props, statuses, check
	// MovedCapacity is about how many contacts may change status (or join
	// the list) between a refresh and the final plan and still be told
	// apart; more is refused.
	MovedCapacity = 60
)

// sketchCell is one cell: the sum of the entries' counts and the XOR of
// their fields.
type sketchCell struct {
	count    int32
	id       uint64
	props    uint64
	statuses uint8
	check    uint64
}

// sketchEntry is one contact as a sketch holds it.
type sketchEntry struct {
	id       uint64
	props    uint64
	statuses uint8
}

func (e sketchEntry) check() uint64 {
	return mix64(e.id ^ mix64(e.props+uint64(e.statuses)+0x9e3779b97f4a7c15))
}

// cells are the three cells of an entry, one per third of the table. They
// follow the whole entry, not the id alone: a contact that changed is two
// entries (then and now) that must not sit in the same cells, or they
// would hide each other.
func cellsOf(check uint64) [3]int {
	third := uint64(sketchCells / 3)
	h := mix64(check + 0x632be59bd9b4e019)
	return [3]int{int(h % third), int(third + (h>>21)%third), int(2*third + (h>>42)%third)}
}

// mix64 is the splitmix generator's 64-bit finaliser: FNV's low bits
// alone would place cells badly.
func mix64(x uint64) uint64 {
	x ^= x >> 30
	x *= 0xbf58476d1ce4e5b9
	x ^= x >> 27
	x *= 0x94d049bb133111eb
	return x ^ x>>31
}

// idHash is the hash a sketch keeps of a contact's id: FNV-1a, written
// out (a refresh hashes every contact of the list).
func idHash(id string) uint64 {
	h := uint64(14695981039346656037)
	for i := 0; i < len(id); i++ {
		h ^= uint64(id[i])
		h *= 1099511628211
	}
	return mix64(h)
}

// statusesCode packs two statuses; ok is false for a status the service
// may show that is none of the known ones (a sketch cannot give it back).
func statusesCode(email, mobile string) (code uint8, ok bool) {
	e, m := statusCode(email), statusCode(mobile)
	ok = (e != codeNone || email == "") && (m != codeNone || mobile == "")
	return e | m<<2, ok
}

// odd marks, in the statuses of an entry, a status a sketch cannot give
// back: such a contact moving on is refused, not guessed.
const oddStatuses = 1 << 7

type sketchTable [sketchCells]sketchCell

func (t *sketchTable) add(e sketchEntry, sign int32) {
	chk := e.check()
	for _, i := range cellsOf(chk) {
		c := &t[i]
		c.count += sign
		c.id ^= e.id
		c.props ^= e.props
		c.statuses ^= e.statuses
		c.check ^= chk
	}
}

// SketchOf is the sketch of a listing. props says which contacts'
// properties it covers, as FingerprintOf does (nil: every contact the
// listing kept properties of; a contact not covered counts by its
// statuses only).
func SketchOf(service *ServiceList, props func(id string) bool) Sketch {
	var t sketchTable
	for id, c := range service.All() {
		t.add(entryOf(id, c, props), 1)
	}
	return t.encode()
}

func entryOf(id string, c ServiceContact, props func(string) bool) sketchEntry {
	e := sketchEntry{id: idHash(id)}
	code, ok := statusesCode(c.Email, c.Mobile)
	e.statuses = code
	if !ok {
		e.statuses |= oddStatuses
	}
	if props == nil || props(id) {
		e.props = propsHash(c)
	}
	return e
}

// propsHash is a hash of a contact's properties as the listing kept them.
func propsHash(c ServiceContact) uint64 {
	h := fnv.New64a()
	buf := []byte{sameByte(c.Same)}
	for _, k := range SortedKeys(c.Props) {
		buf = append(append(append(append(buf, 0), k...), 0), c.Props[k]...)
	}
	_, _ = h.Write(buf)
	return mix64(h.Sum64())
}

func (t *sketchTable) encode() Sketch {
	out := make([]byte, 0, sketchCells*sketchCellSize)
	for _, c := range t {
		out = binary.LittleEndian.AppendUint32(out, uint32(c.count))
		out = binary.LittleEndian.AppendUint64(out, c.id)
		out = binary.LittleEndian.AppendUint64(out, c.props)
		out = append(out, c.statuses)
		out = binary.LittleEndian.AppendUint64(out, c.check)
	}
	return out
}

func (s Sketch) decode() (*sketchTable, bool) {
	if len(s) != sketchCells*sketchCellSize {
		return nil, false
	}
	var t sketchTable
	for i := range t {
		b := s[i*sketchCellSize:]
		t[i] = sketchCell{
			count:    int32(binary.LittleEndian.Uint32(b)),
			id:       binary.LittleEndian.Uint64(b[4:]),
			props:    binary.LittleEndian.Uint64(b[12:]),
			statuses: b[20],
			check:    binary.LittleEndian.Uint64(b[21:]),
		}
	}
	return &t, true
}

// Moved is how a list moved on between a refresh and a later listing:
// the contacts whose statuses changed, with the statuses the refresh saw,
// and the contacts that joined the list. Nothing else can be told apart
// (MovedSince refuses it).
type Moved struct {
	// Then are the statuses the refresh saw ([e-mail, mobile]) of the
	// contacts whose statuses changed since.
	Then map[string][2]string
	// Joined are the contacts listed now that the refresh did not list,
	// sorted.
	Joined []string
}

// Len is the number of contacts that moved on.
func (m Moved) Len() int { return len(m.Then) + len(m.Joined) }

// IDs are the contacts that moved on, sorted.
func (m Moved) IDs() []string {
	ids := append(SortedKeys(m.Then), m.Joined...)
	sort.Strings(ids)
	return ids
}

// Has reports whether id moved on.
func (m Moved) Has(id string) bool {
	if _, ok := m.Then[id]; ok {
		return true
	}
	i := sort.SearchStrings(m.Joined, id)
	return i < len(m.Joined) && m.Joined[i] == id
}

// Reasons MovedSince refuses a list that moved on.
var (
	ErrMovedTooFar  = errors.New("more contacts changed than can be told apart")
	ErrMovedLeft    = errors.New("contacts left the list")
	ErrMovedProps   = errors.New("contacts' properties changed")
	ErrMovedOdd     = errors.New("a contact's status is none the provider knows")
	ErrMovedUnknown = errors.New("the refresh kept no sketch of its listing")
)

// MovedSince is how now differs from the listing s is the sketch of
// (props as given to SketchOf then). A change it cannot give back as a
// Moved (contacts that left, properties changed, unknown statuses, more
// than the sketch has room for) is an error that says which.
func (s Sketch) MovedSince(now *ServiceList, props func(string) bool) (Moved, error) {
	t, ok := s.decode()
	if !ok {
		return Moved{}, ErrMovedUnknown
	}
	for id, c := range now.All() {
		t.add(entryOf(id, c, props), -1)
	}
	then, joined, ok := t.peel()
	if !ok {
		return Moved{}, fmt.Errorf("%w (more than about %d)", ErrMovedTooFar, MovedCapacity)
	}
	if len(then) == 0 && len(joined) == 0 {
		return Moved{}, nil
	}
	m := Moved{Then: map[string][2]string{}}
	byHash := map[uint64]sketchEntry{}
	for _, e := range then {
		byHash[e.id] = e
	}
	nowOf := map[uint64]bool{}
	for _, e := range joined {
		nowOf[e.id] = true
	}
	for id := range now.All() {
		h := idHash(id)
		if !nowOf[h] {
			continue
		}
		old, was := byHash[h]
		switch {
		case !was:
			m.Joined = append(m.Joined, id)
		case old.statuses&oddStatuses != 0:
			return Moved{}, ErrMovedOdd
		default:
			delete(byHash, h)
			c, _ := now.Get(id)
			if entryOf(id, c, props).props != old.props {
				return Moved{}, fmt.Errorf("%w (%s)", ErrMovedProps, id)
			}
			m.Then[id] = [2]string{statusOfCode(old.statuses & 3), statusOfCode(old.statuses >> 2 & 3)}
		}
	}
	if len(byHash) > 0 {
		return Moved{}, fmt.Errorf("%w (%d)", ErrMovedLeft, len(byHash))
	}
	sort.Strings(m.Joined)
	return m, nil
}

// peel takes the table apart: the entries only the earlier listing had
// (count 1) and those only the later one has (count -1). ok is false when
// cells are left that no pure cell explains.
func (t *sketchTable) peel() (then, now []sketchEntry, ok bool) {
	for progress := true; progress; {
		progress = false
		for i := range t {
			c := t[i]
			if c.count != 1 && c.count != -1 {
				continue
			}
			e := sketchEntry{id: c.id, props: c.props, statuses: c.statuses}
			if e.check() != c.check {
				continue
			}
			if c.count == 1 {
				then = append(then, e)
			} else {
				now = append(now, e)
			}
			t.add(e, -c.count)
			progress = true
		}
	}
	for _, c := range t {
		if c != (sketchCell{}) {
			return nil, nil, false
		}
	}
	return then, now, true
}
