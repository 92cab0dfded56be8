package state

import (
	"bufio"
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"strings"
)

// Reading a snapshot's contacts without encoding/json's Decoder, which
// scans each of a million records twice and copies it, for most of a
// restore's time. The Decoder reads the document up to the "contacts" key;
// a lineReader then takes the bytes it had not used and the rest of the
// file, reads the contacts object record by record (the writer puts one on
// each line; any layout is read), and hands what follows to a new Decoder,
// primed to be where the first one was: three objects deep (document,
// parts, store).

// decoderRef is the Decoder of a snapshot, replaced after the contacts.
type decoderRef struct {
	*json.Decoder
	src io.Reader // what the Decoder reads
}

func newDecoderRef(src io.Reader) *decoderRef {
	d := &decoderRef{src: src}
	d.Decoder = json.NewDecoder(src)
	d.UseNumber() // entity values stay json.Number, as request bodies do
	return d
}

// storeDepthPrefix opens the objects a store part's key is in, so a new
// Decoder reads the rest of the document as the first one would have.
const storeDepthPrefix = `{"":{"":{"":0`

// readContactsFast reads the store part's contacts, its key just read by
// d, into b, and moves d past them.
func readContactsFast(d *decoderRef, b *Builder) error {
	l := &lineReader{br: bufio.NewReaderSize(io.MultiReader(d.Buffered(), d.src), 1<<20)}
	if err := l.readContacts(b); err != nil {
		return err
	}
	rest := io.MultiReader(strings.NewReader(storeDepthPrefix), bytes.NewReader(bytes.Clone(l.cur)), l.br)
	next := newDecoderRef(rest)
	for range 3 {
		if err := expectDelim(next.Decoder, '{'); err != nil {
			return err
		}
		if _, err := objectKey(next.Decoder); err != nil {
			return err
		}
	}
	var zero int
	if err := next.Decode(&zero); err != nil {
		return err
	}
	*d = *next
	return nil
}

// lineReader reads JSON a line at a time, from the reader's buffer.
type lineReader struct {
	br  *bufio.Reader
	cur []byte // what is left of the current line (the reader's buffer)
	acc []byte // a value that spans lines
}

// fill makes cur non-empty.
func (l *lineReader) fill() error {
	for len(l.cur) == 0 {
		line, err := l.br.ReadSlice('\n')
		if len(line) > 0 {
			l.cur = line // also a part of a line longer than the buffer
			return nil
		}
		if errors.Is(err, io.EOF) {
			return io.ErrUnexpectedEOF
		}
		if err != nil {
			return err
		}
	}
	return nil
}

// peek returns the next byte that is not white space, leaving it.
func (l *lineReader) peek() (byte, error) {
	for {
		if err := l.fill(); err != nil {
			return 0, err
		}
		l.cur = bytes.TrimLeft(l.cur, " \t\r\n")
		if len(l.cur) > 0 {
			return l.cur[0], nil
		}
	}
}

// expect reads c.
func (l *lineReader) expect(c byte) error {
	got, err := l.peek()
	if err != nil {
		return err
	}
	if got != c {
		return fmt.Errorf("json: %q where %q was expected", got, c)
	}
	l.cur = l.cur[1:]
	return nil
}

// null reads null when it comes next.
func (l *lineReader) null() (bool, error) {
	c, err := l.peek()
	if err != nil || c != 'n' {
		return false, err
	}
	v, err := l.value()
	if err != nil {
		return false, err
	}
	if string(v) != "null" {
		return false, fmt.Errorf("json: %q is not a value", v)
	}
	return true, nil
}

// value reads the next JSON value whole, as its bytes: valid until the
// next read.
func (l *lineReader) value() ([]byte, error) {
	if _, err := l.peek(); err != nil {
		return nil, err
	}
	first := l.cur[0]
	depth, inString, escaped, spanning := 0, false, false, false
	l.acc = l.acc[:0]
	for i := 0; ; i++ {
		if i == len(l.cur) {
			l.acc = append(l.acc, l.cur...)
			l.cur, spanning, i = nil, true, 0
			if err := l.fill(); err != nil {
				return nil, err
			}
		}
		c, end := l.cur[i], -1
		switch {
		case inString:
			if escaped {
				escaped = false
				continue
			}
			// Most of a record is the inside of strings: skip to the next
			// quote or backslash at once.
			j := quoteOrBackslash(l.cur[i:])
			if j < 0 {
				i = len(l.cur) - 1 // the string goes on in the next line
				continue
			}
			i += j
			if l.cur[i] == '\\' {
				escaped = true
				continue
			}
			inString = false
			if depth == 0 {
				end = i + 1
			}
		case c == '"':
			inString = true
		case c == '{' || c == '[':
			depth++
		case c == '}' || c == ']':
			if first != '{' && first != '[' && first != '"' {
				end = i // a literal ends before it
			} else if depth--; depth == 0 {
				end = i + 1
			}
		case c == ',' || c == ' ' || c == '\t' || c == '\r' || c == '\n':
			if depth == 0 && first != '"' {
				end = i
			}
		}
		if end < 0 {
			continue
		}
		v := l.cur[:end]
		l.cur = l.cur[end:]
		if spanning {
			l.acc = append(l.acc, v...)
			v = l.acc
		}
		if len(v) == 0 {
			return nil, fmt.Errorf("json: %q where a value was expected", c)
		}
		return v, nil
	}
}

// lineRecord reads the next record into f when it is the rest of its line
// (as the writer puts it, a separator after it at most), without scanning
// it for its end first: the line up to its last '}' is the record if it
// parses as one whole object. Otherwise it reads nothing and returns
// false, for value to find where the record ends.
func (l *lineReader) lineRecord(f *RecordFields, recent *recentStrings) bool {
	if len(l.cur) == 0 || l.cur[0] != '{' || l.cur[len(l.cur)-1] != '\n' {
		return false
	}
	end := bytes.LastIndexByte(l.cur, '}') + 1
	if !parseContactRecord(l.cur[:end], f, recent) {
		return false
	}
	l.cur = l.cur[end:]
	return true
}

// quoteOrBackslash is the index of the first '"' or '\\' in b, or -1.
func quoteOrBackslash(b []byte) int {
	q := bytes.IndexByte(b, '"')
	if q < 0 {
		return bytes.IndexByte(b, '\\')
	}
	if bs := bytes.IndexByte(b[:q], '\\'); bs >= 0 {
		return bs
	}
	return q
}

// readContacts reads ': { "<list id>": [record, ...], ... }' (or null).
func (l *lineReader) readContacts(b *Builder) error {
	if err := l.expect(':'); err != nil {
		return err
	}
	if null, err := l.null(); err != nil || null {
		return err
	}
	if err := l.expect('{'); err != nil {
		return err
	}
	var f RecordFields
	for n := 0; ; n++ {
		if c, err := l.peek(); err != nil {
			return err
		} else if c == '}' {
			l.cur = l.cur[1:]
			return nil
		}
		if n > 0 {
			if err := l.expect(','); err != nil {
				return err
			}
		}
		raw, err := l.value()
		if err != nil {
			return err
		}
		var key string
		if err := json.Unmarshal(raw, &key); err != nil {
			return fmt.Errorf("contacts: a key: %w", err)
		}
		if _, err := b.List(key); err != nil {
			return err
		}
		if err := l.expect(':'); err != nil {
			return err
		}
		if null, err := l.null(); err != nil {
			return err
		} else if null {
			continue
		}
		if err := l.expect('['); err != nil {
			return err
		}
		for i := 0; ; i++ {
			if c, err := l.peek(); err != nil {
				return err
			} else if c == ']' {
				l.cur = l.cur[1:]
				break
			}
			if i > 0 {
				if err := l.expect(','); err != nil {
					return err
				}
			}
			if _, err := l.peek(); err != nil {
				return err
			}
			if !l.lineRecord(&f, &b.Recent) {
				raw, err := l.value()
				if err != nil {
					return err
				}
				if err := ReadRecord(raw, &f, &b.Recent); err != nil {
					return fmt.Errorf("contacts[%q][%d]: %w", key, i, err)
				}
			}
			if err := b.AppendContact(key, i, &f); err != nil {
				return err
			}
		}
	}
}

// objectKey reads the next key of an object.
func objectKey(dec *json.Decoder) (string, error) {
	tok, err := dec.Token()
	if err != nil {
		return "", err
	}
	key, ok := tok.(string)
	if !ok {
		return "", fmt.Errorf("json: %v where a key was expected", tok)
	}
	return key, nil
}

// expectDelim reads the delimiter want.
func expectDelim(dec *json.Decoder, want json.Delim) error {
	tok, err := dec.Token()
	if err != nil {
		if errors.Is(err, io.EOF) {
			return io.ErrUnexpectedEOF
		}
		return err
	}
	if d, ok := tok.(json.Delim); !ok || d != want {
		return fmt.Errorf("json: %v where %v was expected", tok, want)
	}
	return nil
}
