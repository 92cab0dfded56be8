package contactsync

import (
	"bufio"
	"bytes"
	"context"
	"encoding/csv"
	"errors"
	"fmt"
	"io"
	"strings"
	"unicode/utf8"

	"golang.org/x/text/encoding/charmap"
	"golang.org/x/text/encoding/unicode"
	"golang.org/x/text/transform"
)

// The checks a CSV file passes before anything is written: its bytes are
// valid in the declared encoding, and its header names the identity column
// under the declared delimiter. rms_list_contacts reads its source file
// through these (source_file.go); rms_list_import and the
// rms_run_list_import action check their file with CheckImportSource
// before an import is created. Nothing here knows Terraform.

// FileOptions are how a CSV file is read: a source file of
// rms_list_contacts, or the file of an import.
type FileOptions struct {
	Path, Delimiter, Encoding, IdentityColumn string
}

// invalidTextError: the file's bytes are not valid in its declared
// encoding. Line is the physical line (1-based) of the first bad byte.
type invalidTextError struct {
	Path, Encoding string
	Line           int
}

func (e *invalidTextError) Error() string {
	file := "the file"
	if e.Path != "" {
		file = fmt.Sprintf("the file %q", e.Path)
	}
	advice := `If it was saved by Excel or another Windows program, set encoding = "ANSI" (or "ISO-8859-1").`
	if e.Encoding == "UTF16" {
		advice = `Set encoding to the encoding the file was saved in ("UTF8", "ISO-8859-1" or "ANSI").`
	}
	return fmt.Sprintf("%s is not valid %s: line %d holds bytes that are not %s text; nothing was sent to the service. %s",
		file, e.Encoding, e.Line, e.Encoding, advice)
}

// decodedReader turns the file's encoding into UTF-8, as the service reads
// an import of that encoding. UTF8 and UTF16 bytes that are not valid make
// the reader fail with an *invalidTextError (never a replacement
// character); ISO-8859-1 and ANSI decode every byte.
func decodedReader(r io.Reader, encoding string) io.Reader {
	switch encoding {
	case "UTF16":
		return transform.NewReader(r, transform.Chain(&utf16Checker{}, unicode.UTF16(unicode.LittleEndian, unicode.UseBOM).NewDecoder()))
	case "ISO-8859-1":
		return transform.NewReader(r, charmap.ISO8859_1.NewDecoder())
	case "ANSI":
		return transform.NewReader(r, charmap.Windows1252.NewDecoder())
	default: // UTF8: a byte order mark is dropped
		br := bufio.NewReader(r)
		if bom, err := br.Peek(3); err == nil && string(bom) == "\xef\xbb\xbf" {
			_, _ = br.Discard(3) // peeked: cannot fail
		}
		return transform.NewReader(br, &utf8Checker{})
	}
}

// isInvalidText reports whether err is (or wraps) an *invalidTextError.
func isInvalidText(err error) bool {
	var bad *invalidTextError
	return errors.As(err, &bad)
}

// withPath names the file in an encoding error; other errors are returned
// as they are.
func withPath(err error, path string) error {
	var bad *invalidTextError
	if errors.As(err, &bad) && bad.Path == "" {
		named := *bad
		named.Path = path
		return &named
	}
	return err
}

// utf8Checker passes valid UTF-8 through unchanged, counting lines, and
// stops at the first invalid byte.
type utf8Checker struct {
	transform.NopResetter
	lines int // line feeds passed
}

func (c *utf8Checker) Transform(dst, src []byte, atEOF bool) (nDst, nSrc int, err error) {
	// Most of a file is valid: whole runs of complete runes are checked
	// and copied at once (a million-row file is read at every plan), and
	// the loop below takes the rest and finds the line of a bad byte.
	if chunk := src[:completeRunes(src[:min(len(src), len(dst))])]; utf8.Valid(chunk) {
		c.lines += bytes.Count(chunk, []byte{'\n'})
		nDst = copy(dst, chunk)
		nSrc = nDst
	}
	for nSrc < len(src) {
		size := 1
		if b := src[nSrc]; b >= utf8.RuneSelf {
			if !utf8.FullRune(src[nSrc:]) && !atEOF {
				return nDst, nSrc, transform.ErrShortSrc
			}
			var r rune
			if r, size = utf8.DecodeRune(src[nSrc:]); r == utf8.RuneError && size <= 1 {
				return nDst, nSrc, &invalidTextError{Encoding: "UTF8", Line: c.lines + 1}
			}
		} else if b == '\n' {
			c.lines++
		}
		if nDst+size > len(dst) {
			return nDst, nSrc, transform.ErrShortDst
		}
		nDst += copy(dst[nDst:], src[nSrc:nSrc+size])
		nSrc += size
	}
	return nDst, nSrc, nil
}

// completeRunes is the length of b up to its last rune that may be
// incomplete (one cut at the end of a read).
func completeRunes(b []byte) int {
	for i := len(b) - 1; i >= 0 && i >= len(b)-utf8.UTFMax; i-- {
		if utf8.RuneStart(b[i]) {
			if utf8.FullRune(b[i:]) {
				return len(b)
			}
			return i
		}
	}
	return len(b)
}

// utf16Checker passes valid UTF-16 through unchanged (the decoder after it
// turns it into UTF-8), counting lines, and stops at the first unpaired
// surrogate or a trailing odd byte. Its byte order is the decoder's: from
// the byte order mark, little-endian without one.
type utf16Checker struct {
	started, bigEndian bool
	lines              int
}

func (c *utf16Checker) Reset() { *c = utf16Checker{} }

func (c *utf16Checker) Transform(dst, src []byte, atEOF bool) (nDst, nSrc int, err error) {
	unit := func(b []byte) uint16 {
		if c.bigEndian {
			return uint16(b[0])<<8 | uint16(b[1])
		}
		return uint16(b[1])<<8 | uint16(b[0])
	}
	bad := func() error { return &invalidTextError{Encoding: "UTF16", Line: c.lines + 1} }
	for nSrc < len(src) {
		rest := src[nSrc:]
		if len(rest) < 2 {
			if atEOF {
				return nDst, nSrc, bad() // half a code unit
			}
			return nDst, nSrc, transform.ErrShortSrc
		}
		if !c.started {
			c.started = true
			c.bigEndian = rest[0] == 0xFE && rest[1] == 0xFF
		}
		size := 2
		switch u := unit(rest); {
		case u >= 0xD800 && u < 0xDC00: // a high surrogate needs a low one
			if len(rest) < 4 {
				if atEOF {
					return nDst, nSrc, bad()
				}
				return nDst, nSrc, transform.ErrShortSrc
			}
			if low := unit(rest[2:]); low < 0xDC00 || low > 0xDFFF {
				return nDst, nSrc, bad()
			}
			size = 4
		case u >= 0xDC00 && u <= 0xDFFF:
			return nDst, nSrc, bad()
		case u == '\n':
			c.lines++
		}
		if nDst+size > len(dst) {
			return nDst, nSrc, transform.ErrShortDst
		}
		nDst += copy(dst[nDst:], rest[:size])
		nSrc += size
	}
	return nDst, nSrc, nil
}

// fileDelimiter is the delimiter of opts as a rune; "" is a comma.
func fileDelimiter(delimiter string) (rune, error) {
	if delimiter == "" {
		return ',', nil
	}
	r, size := utf8.DecodeRuneInString(delimiter)
	if size != len(delimiter) {
		return 0, fmt.Errorf("the delimiter must be one character, got %q", delimiter)
	}
	return r, nil
}

// otherDelimiters are the delimiters a header is tried with when the
// declared one does not find the identity column.
var otherDelimiters = []rune{',', ';', '\t', '|'}

// delimiterHint says which delimiter would find the identity column in a
// header read with declared ("" when none does): a file saved with ";" and
// read with "," has the whole header in one column.
func delimiterHint(header []string, declared rune, identity string) string {
	line := strings.Join(header, string(declared))
	for _, d := range otherDelimiters {
		if d == declared {
			continue
		}
		cr := csv.NewReader(strings.NewReader(line))
		cr.Comma = d
		cr.LazyQuotes = true
		fields, err := cr.Read()
		if err != nil {
			continue
		}
		for _, f := range fields {
			if strings.TrimSpace(f) == identity {
				return fmt.Sprintf("; with delimiter = %s it has: set delimiter = %s", delimiterLiteral(d), delimiterLiteral(d))
			}
		}
	}
	return ""
}

// delimiterLiteral is a delimiter as HCL writes it.
func delimiterLiteral(d rune) string {
	if d == '\t' {
		return `"\t"`
	}
	return fmt.Sprintf("%q", string(d))
}

// missingIdentityError: the header has no identity column.
func missingIdentityError(header []string, delim rune, identity string) error {
	cols := make([]string, len(header))
	for i, h := range header {
		cols[i] = strings.TrimSpace(h)
	}
	if hint := delimiterHint(header, delim, identity); hint != "" {
		return fmt.Errorf("the header row has no identity column %q under delimiter %s (its columns: %s)%s", identity, delimiterLiteral(delim), strings.Join(cols, ", "), hint)
	}
	for _, c := range cols {
		if strings.EqualFold(c, identity) {
			return fmt.Errorf("the header row has no identity column %q: column %q differs only in letter case (column names are matched exactly, in letter case too, as the service matches them); rename the column to %q, or set identity_column = %q", identity, c, identity, c)
		}
	}
	return fmt.Errorf("the header row has no identity column %q (its columns: %s); set identity_column to the column that identifies contacts", identity, strings.Join(cols, ", "))
}

// CheckImportSource reads an import file once, as a stream: its header must
// name the identity column under the declared delimiter, and (UTF8, UTF16)
// every byte must be valid in the declared encoding. Only the header row is
// parsed; the rest is only decoded. With attrs (an ADD or REPLACE import,
// whose columns name attributes) the header passes the rules of
// rms_list_contacts' source_file for an import (file_columns.go): every
// column names an attribute of the account, exactly as spelled, once, and
// there are no status columns; nil (an UNSUBSCRIBE import, which reads only
// the identity) leaves the columns unchecked. When the attributes cannot be
// read the error says so (IsAttributesUnreadable): the caller decides.
func CheckImportSource(ctx context.Context, r io.Reader, opts FileOptions, attrs AttributeNames) error {
	delim, err := fileDelimiter(opts.Delimiter)
	if err != nil {
		return err
	}
	text := bufio.NewReaderSize(decodedReader(r, opts.Encoding), 64<<10)
	cr := csv.NewReader(text) // reads from text itself: the rest stays in text
	cr.Comma = delim
	cr.FieldsPerRecord = -1
	header, err := cr.Read()
	switch {
	case errors.Is(err, io.EOF):
		return errors.New("the file is empty; its first row must name the columns")
	case err != nil:
		if isInvalidText(err) {
			return withPath(err, opts.Path)
		}
		return fmt.Errorf("reading the header row: %w", err)
	}
	identity := opts.IdentityColumn
	if identity == "" {
		identity = "originalId"
	}
	if attrs == nil {
		found := false
		for _, h := range header {
			found = found || strings.TrimSpace(h) == identity
		}
		if !found {
			return missingIdentityError(header, delim, identity)
		}
	} else if _, err := readHeader(ctx, header, delim, identity, UseImport, attrs); err != nil {
		return err
	}
	if _, err := io.Copy(io.Discard, text); err != nil {
		return withPath(err, opts.Path)
	}
	return nil
}
