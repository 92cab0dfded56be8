package client

import (
	"bytes"
	"errors"
	"fmt"
	"io"
)

// contactArray reads a JSON array of contacts from an answer one element at
// a time, so that an answer of a whole list (a service that ignores paging)
// is never held whole: only the element being read is buffered. It hashes
// exactly the bytes it reads up to the array's end, so that two identical
// answers have the same digest, taken at the same element boundaries.
type contactArray struct {
	r        io.Reader
	buf      []byte
	pos, end int
	eof      bool
	rerr     error
	hash     *pageHash
	keys     internKeys
	pairs    bool           // properties as Pairs (ListingOptions.Pairs)
	arena    []PropertyPair // the pairs of the chunk being read
	maxElem  int            // the largest element buffered
	first    bool
	closed   bool
	discard  bool // elements are only hashed, no longer decoded
	consumed int64
}

func newContactArray(r io.Reader, keys internKeys, h *pageHash) *contactArray {
	return &contactArray{r: r, buf: make([]byte, 32<<10), hash: h, keys: keys, maxElem: maxJSONResponse, first: true}
}

// fill reads more of the answer, keeping the unread bytes; false when
// nothing more comes.
func (a *contactArray) fill() bool {
	if a.eof || a.rerr != nil {
		return false
	}
	if a.pos > 0 {
		a.end = copy(a.buf, a.buf[a.pos:a.end])
		a.pos = 0
	}
	if a.end == len(a.buf) {
		if len(a.buf) >= a.maxElem {
			a.rerr = fmt.Errorf("one contact of the answer is over %d MiB", a.maxElem>>20)
			return false
		}
		a.buf = append(a.buf, make([]byte, len(a.buf))...)
	}
	for {
		n, err := a.r.Read(a.buf[a.end:])
		a.end += n
		if errors.Is(err, io.EOF) {
			a.eof = true
		} else if err != nil {
			a.rerr = err
		}
		if n > 0 || err != nil {
			return n > 0
		}
	}
}

// consume hands n bytes of the buffer to the digest.
func (a *contactArray) consume(n int) {
	a.hash.Write(a.buf[a.pos : a.pos+n]) //nolint:errcheck // a hash never fails
	a.pos += n
	a.consumed += int64(n)
}

// peek skips white space and returns the next byte.
func (a *contactArray) peek() (byte, error) {
	for {
		i := skipSpace(a.buf[:a.end], a.pos)
		a.consume(i - a.pos)
		if a.pos < a.end {
			return a.buf[a.pos], nil
		}
		if !a.fill() {
			return 0, a.endErr()
		}
	}
}

// endErr is why the answer stopped before the array's end.
func (a *contactArray) endErr() error {
	if a.rerr != nil {
		return a.rerr
	}
	if a.consumed == 0 {
		return io.EOF
	}
	return io.ErrUnexpectedEOF
}

// open reads up to the array's first element. A null answer is an empty
// array, as encoding/json reads it into a slice.
func (a *contactArray) open() error {
	c, err := a.peek()
	if err != nil {
		return err
	}
	switch c {
	case '[':
		a.consume(1)
		return nil
	case 'n':
		for a.end-a.pos < 4 && a.fill() {
		}
		if end, ok := literal(a.buf[:a.end], a.pos, "null"); ok {
			a.consume(end - a.pos)
			a.closed = true
			return nil
		}
	}
	return fmt.Errorf("the answer is not an array of contacts (it starts with %q)", c)
}

// advance reads up to the next element, past the comma before it; false
// at the array's end.
func (a *contactArray) advance() (bool, error) {
	if a.closed {
		return false, nil
	}
	c, err := a.peek()
	if err != nil {
		return false, err
	}
	switch {
	case c == ']':
		a.consume(1)
		a.closed = true
		return false, nil
	case a.first:
		a.first = false
	case c == ',':
		a.consume(1)
		if _, err := a.peek(); err != nil {
			return false, err
		}
	default:
		return false, fmt.Errorf("invalid character %q after a contact of the array", c)
	}
	return true, nil
}

// element returns the bytes of the element advance reached, valid until
// the next call.
func (a *contactArray) element() ([]byte, error) {
	for {
		n, complete, err := elementEnd(a.buf[a.pos:a.end], a.eof)
		if err != nil {
			return nil, err
		}
		if complete {
			el := a.buf[a.pos : a.pos+n]
			a.consume(n)
			return el, nil
		}
		if !a.fill() {
			return nil, a.endErr()
		}
	}
}

// newArena starts the pairs of a new chunk, as large as the last chunk's
// were (the chunk handed on keeps the old array).
func (a *contactArray) newArena() {
	if a.pairs {
		a.arena = make([]PropertyPair, 0, max(len(a.arena), 1024))
	}
}

// pairsArena is where the pairs of the contact being read go, nil when
// properties are read into maps.
func (a *contactArray) pairsArena() *[]PropertyPair {
	if !a.pairs {
		return nil
	}
	return &a.arena
}

// chunks reads the rest of the array. It calls emit with every chunk of
// size contacts that more contacts follow, and returns the last chunk,
// which may be full or empty, and the count of contacts read. While
// discard is set (emit may set it) elements are counted, not decoded.
func (a *contactArray) chunks(size int, emit func([]ListedContact) error) (last []ListedContact, n int, err error) {
	chunk := make([]ListedContact, 0, min(size, 1024))
	a.newArena()
	for {
		more, err := a.advance()
		if err != nil {
			return nil, n, err
		}
		if !more {
			return chunk, n, nil
		}
		if len(chunk) == size {
			if err := emit(chunk); err != nil {
				return nil, n, err
			}
			chunk = make([]ListedContact, 0, min(size, 1024))
			a.newArena()
		}
		n++
		if !a.discard {
			// Most contacts are read in one pass: scanned where they lie
			// in the buffer. Only one the buffer does not hold whole, or
			// of a shape the scanner leaves to encoding/json, is first
			// measured (element) and then decoded; measuring every
			// contact first took a fifth of a listing's decoding.
			if lc, end, ok := scanListedContactAt(a.buf[a.pos:a.end], 0, a.keys, a.pairsArena()); ok {
				a.consume(end)
				chunk = append(chunk, lc)
				continue
			}
		}
		el, err := a.element()
		if err != nil {
			return nil, n, err
		}
		if a.discard {
			continue
		}
		lc, err := decodeListedContact(el, a.keys, a.pairsArena())
		if err != nil {
			return nil, n, fmt.Errorf("contact %d of the answer: %w", n-1, err)
		}
		chunk = append(chunk, lc)
	}
}

// digest is the digest of the bytes read so far.
func (a *contactArray) digest() pageDigest { return a.hash.Sum() }

// drain reads a little past the array so that the connection can serve
// the next request; the digest does not cover it.
func (a *contactArray) drain() {
	_, _ = io.Copy(io.Discard, io.LimitReader(a.r, 4<<10))
}

// elementEnd finds the end of the JSON value that starts b without
// checking it (the decoder does): the length of the value and whether b
// holds all of it. A number or literal at the end of b is complete only at
// the end of the answer.
func elementEnd(b []byte, atEOF bool) (n int, complete bool, err error) {
	if len(b) == 0 {
		return 0, false, nil
	}
	switch b[0] {
	case '{', '[':
		depth := 0
		for i := 0; i < len(b); i++ {
			switch b[i] {
			case '"':
				// Most of a contact's bytes are in its strings: their ends
				// are found by IndexByte, a word or a vector at a time.
				end, ok := stringEnd(b, i)
				if !ok {
					return 0, false, nil
				}
				i = end - 1
			case '{', '[':
				depth++
			case '}', ']':
				depth--
				if depth == 0 {
					return i + 1, true, nil
				}
			}
		}
		return 0, false, nil
	case '"':
		end, ok := stringEnd(b, 0)
		return end, ok, nil
	case '}', ']', ',', ':':
		return 0, false, fmt.Errorf("invalid character %q where a contact was expected", b[0])
	}
	for i, c := range b {
		if isSpace(c) || c == ',' || c == ']' || c == '}' {
			return i, true, nil
		}
	}
	return len(b), atEOF, nil
}

// stringEnd is the index after the closing quote of the string that b[i]
// opens, unchecked (the decoder checks it); false when b ends first. A
// quote closes the string unless an odd number of backslashes precede it.
func stringEnd(b []byte, i int) (int, bool) {
	for j := i + 1; ; j++ {
		k := bytes.IndexByte(b[j:], '"')
		if k < 0 {
			return 0, false
		}
		j += k
		escapes := 0
		for p := j - 1; p > i && b[p] == '\\'; p-- {
			escapes++
		}
		if escapes%2 == 0 {
			return j + 1, true
		}
	}
}
