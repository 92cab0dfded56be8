package contactsync

import (
	"bufio"
	"context"
	"encoding/csv"
	"errors"
	"fmt"
	"io"
	"strings"

	"golang.org/x/text/encoding/charmap"
	"golang.org/x/text/encoding/unicode"
	"golang.org/x/text/transform"

	"github.com/rms-labs/terraform-provider-rms/internal/client"
)

// An ADD or REPLACE import of a file that names contacts the account's
// suppression list holds must not subscribe them: the service's import has
// no status column, and a new contact starts SUBSCRIBED. Those rows are
// held back from the upload (SplitImport finds them, WriteKept writes the
// rest of the file in its own encoding and delimiter) and written by single
// calls with their status. The service numbers refused rows in the file it
// received; ImportSplit.UserRow numbers them in the user's file again.

// HeldRow is a row of an import file held back from the upload.
type HeldRow struct {
	// Row is the row's number in the user's file, the header being row 1.
	Row        int
	OriginalID string
	// Properties are the row's non-empty attribute cells, keyed by
	// attribute name (an ADD import skips empty cells too).
	Properties map[string]string
	// Channels are the channels the suppression list holds it on.
	Channels Channels
}

// Status is the status a held row is written with: a new contact starts
// SUBSCRIBED, so UNSUBSCRIBED on each suppressed channel and nothing on
// the others (the service's own), as rms_contact creates a contact the
// suppression list holds that leaves its statuses to the service
// (PlanContact).
func (h HeldRow) Status() client.SubscriptionStatus {
	return PlanContact(ContactInput{Create: true, SuppressionList: true, Suppressed: h.Channels}).Status()
}

// RowSuppressedFunc answers which channels the suppression list holds for a
// contact, by its original id or its e-mail value (Suppression.Suppressed).
type RowSuppressedFunc func(originalID, email string) (Channels, error)

// ImportSplit is an import file split by SplitImport.
type ImportSplit struct {
	// Held are the rows held back, in file order.
	Held []HeldRow
	// Rows counts the file's rows after the header.
	Rows int
	// held is the set of held row numbers.
	held map[int]bool
}

// UserRow is the number, in the user's file, of row uploaded of the file
// WriteKept wrote (the header being row 1 in both).
func (h *ImportSplit) UserRow(uploaded int) int {
	if h == nil || len(h.held) == 0 || uploaded < 2 {
		return uploaded
	}
	// Walk the user's rows, skipping held ones, until the uploaded row is
	// reached: refused rows are few (the service names ten).
	row := 1
	for kept := 1; kept < uploaded; {
		row++
		if !h.held[row] {
			kept++
		}
	}
	return row
}

// SplitImport reads an ADD or REPLACE import file (UTF-8 after decoding
// opts.Encoding) and finds the rows whose contact suppressed says is held:
// rows the service would import (as many fields as the header, a
// non-empty identity). Bad rows stay in the upload, for the service to
// refuse and report. The header must pass the import's rules (file_columns.go).
func SplitImport(ctx context.Context, r io.Reader, opts FileOptions, attrs AttributeNames, suppressed RowSuppressedFunc) (*ImportSplit, error) {
	delim, err := fileDelimiter(opts.Delimiter)
	if err != nil {
		return nil, err
	}
	identity := opts.IdentityColumn
	if identity == "" {
		identity = "originalId"
	}
	cr := csv.NewReader(bufio.NewReaderSize(decodedReader(r, opts.Encoding), 64<<10))
	cr.Comma = delim
	cr.FieldsPerRecord = -1
	cr.ReuseRecord = true
	header, err := cr.Read()
	if err != nil {
		return nil, fmt.Errorf("reading the header row: %w", withPath(err, opts.Path))
	}
	header = append([]string(nil), header...)
	h, err := readHeader(ctx, header, delim, identity, UseImport, attrs)
	if err != nil {
		return nil, err
	}
	emailCol := -1
	for i, name := range h.columns {
		if name == EmailAttribute {
			emailCol = i
		}
	}
	out := &ImportSplit{held: map[int]bool{}}
	for row := 2; ; row++ {
		rec, err := cr.Read()
		if errors.Is(err, io.EOF) {
			return out, nil
		}
		if err != nil {
			return nil, fmt.Errorf("row %d cannot be read: %w", row, withPath(err, opts.Path))
		}
		out.Rows++
		if len(rec) != len(header) {
			continue
		}
		id := strings.TrimSpace(rec[h.identity])
		if id == "" {
			continue
		}
		email := ""
		if emailCol >= 0 {
			email = rec[emailCol]
		}
		ch, err := suppressed(id, email)
		if err != nil {
			return nil, err
		}
		if !ch.Any() {
			continue
		}
		props := map[string]string{}
		for i, name := range h.columns {
			if v := rec[i]; v != "" {
				props[name] = v
			}
		}
		out.Held = append(out.Held, HeldRow{Row: row, OriginalID: id, Properties: props, Channels: ch})
		out.held[row] = true
	}
}

// WriteKept writes the file r (the same bytes SplitImport read) without
// the held rows to w, in opts.Encoding and under opts.Delimiter, so that
// the service reads it as it would have read the user's file.
func (h *ImportSplit) WriteKept(r io.Reader, opts FileOptions, w io.Writer) error {
	delim, err := fileDelimiter(opts.Delimiter)
	if err != nil {
		return err
	}
	cr := csv.NewReader(bufio.NewReaderSize(decodedReader(r, opts.Encoding), 64<<10))
	cr.Comma = delim
	cr.FieldsPerRecord = -1
	cr.ReuseRecord = true
	enc := encodedWriter(w, opts.Encoding)
	cw := csv.NewWriter(enc)
	cw.Comma = delim
	for row := 1; ; row++ {
		rec, err := cr.Read()
		if errors.Is(err, io.EOF) {
			break
		}
		if err != nil {
			return fmt.Errorf("row %d cannot be read: %w", row, withPath(err, opts.Path))
		}
		if h.held[row] {
			continue
		}
		if err := cw.Write(rec); err != nil {
			return fmt.Errorf("writing row %d: %w", row, err)
		}
	}
	cw.Flush()
	if err := cw.Error(); err != nil {
		return err
	}
	return enc.Close()
}

// encodedWriter encodes UTF-8 written to it in encoding, the way
// decodedReader decodes it (UTF16: little endian with a byte order mark).
func encodedWriter(w io.Writer, encoding string) io.WriteCloser {
	switch encoding {
	case "UTF16":
		return transform.NewWriter(w, unicode.UTF16(unicode.LittleEndian, unicode.UseBOM).NewEncoder())
	case "ISO-8859-1":
		return transform.NewWriter(w, charmap.ISO8859_1.NewEncoder())
	case "ANSI":
		return transform.NewWriter(w, charmap.Windows1252.NewEncoder())
	default:
		return nopCloser{w}
	}
}

type nopCloser struct{ io.Writer }

func (nopCloser) Close() error { return nil }
