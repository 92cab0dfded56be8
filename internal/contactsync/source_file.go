package contactsync

import (
	"bufio"
	"context"
	"encoding/csv"
	"errors"
	"fmt"
	"io"
	"os"
	"sort"
	"strings"

	"github.com/rms-labs/terraform-provider-rms/internal/client"
)

// The file input of rms_list_contacts: a CSV file whose rows are the
// contacts of the list, in the file options of rms_list_import (delimiter,
// encoding, identity column). Columns email_status and mobile_status, when
// present, hold statuses; every other column but the identity names a
// contact attribute by name or id. The file is read as a stream at plan,
// refresh and apply; only the parsed contacts are held, never the file.

// Column names of the statuses in a source file.
const (
	fileEmailStatusColumn  = "email_status"
	fileMobileStatusColumn = "mobile_status"
)

// AttributeNames resolve a file's columns to contact attributes (the
// attribute cache; a fake in unit tests).
type AttributeNames interface {
	// NameOf is the attribute name of a column: a name stands for itself,
	// an id (digits) for its attribute's name; ok is false for an id the
	// account does not have.
	NameOf(ctx context.Context, key string) (name string, ok bool, err error)
	// AttributeOf is the attribute a column names, ok only when the
	// account has it (the identity column is an attribute only then).
	AttributeOf(ctx context.Context, key string) (name string, ok bool, err error)
	// Spelling is the account's attribute name that differs from name
	// only in letter case ("" when name is an attribute, or none is).
	Spelling(ctx context.Context, name string) (string, error)
	// Known is the account's attribute names, in id order, for messages.
	Known(ctx context.Context) ([]string, error)
}

// ReadSourceFile parses a source file.
func ReadSourceFile(ctx context.Context, opts FileOptions, attrs AttributeNames) (*Book, error) {
	f, err := os.Open(opts.Path)
	if errors.Is(err, os.ErrNotExist) {
		return nil, fmt.Errorf("there is no file at %q; a relative path is relative to the directory Terraform runs in", opts.Path)
	}
	if err != nil {
		return nil, err
	}
	defer func() { _ = f.Close() }() // read-only
	var size int64
	if st, err := f.Stat(); err == nil {
		size = st.Size()
	}
	return parseSourceFile(ctx, bufio.NewReaderSize(f, 1<<16), opts, attrs, size)
}

// ParseSourceFile reads the contacts of a source file into a book, as a
// stream: only the book is held, never the file. The identity column
// is written as an attribute too when it names one of the account's (an
// "email" column), as the service's import does, so that a file means the
// same here and in rms_list_import. Bytes not valid in the encoding fail
// with the file and line (see decodedReader).
func ParseSourceFile(ctx context.Context, r io.Reader, opts FileOptions, attrs AttributeNames) (*Book, error) {
	return parseSourceFile(ctx, r, opts, attrs, 0)
}

// parseSourceFile is ParseSourceFile of a file of about size bytes (0:
// unknown), which the book's arena is sized by: its contacts take about
// the file's own size.
func parseSourceFile(ctx context.Context, r io.Reader, opts FileOptions, attrs AttributeNames, size int64) (*Book, error) {
	delim, err := fileDelimiter(opts.Delimiter)
	if err != nil {
		return nil, err
	}
	cr := csv.NewReader(decodedReader(r, opts.Encoding))
	cr.Comma = delim
	cr.ReuseRecord = true
	header, err := cr.Read()
	if errors.Is(err, io.EOF) {
		return nil, errors.New("the file is empty; its first row must name the columns")
	}
	if err != nil {
		if isInvalidText(err) {
			return nil, withPath(err, opts.Path)
		}
		return nil, fmt.Errorf("reading the header row: %w", err)
	}
	identity := opts.IdentityColumn
	if identity == "" {
		identity = "originalId"
	}
	h, err := readHeader(ctx, header, delim, identity, UseSourceFile, attrs)
	if err != nil {
		return nil, err
	}
	// The book's columns in name order, and the field of each.
	columns := make([]string, 0, len(h.columns))
	for _, name := range h.columns {
		columns = append(columns, name)
	}
	sort.Strings(columns)
	fieldOf := make([]int, len(columns))
	for i, name := range h.columns {
		fieldOf[sort.SearchStrings(columns, name)] = i
	}
	bw := newBookWriter(columns, size)
	const estimateAfterRows = 1000
	values := make([]string, len(columns))
	for row := 2; ; row++ {
		rec, err := cr.Read()
		if errors.Is(err, io.EOF) {
			break
		}
		if err != nil {
			if isInvalidText(err) {
				return nil, withPath(err, opts.Path)
			}
			return nil, fmt.Errorf("row %d: %w", row, err)
		}
		if len(rec) == 1 && rec[0] == "" {
			continue // a blank line
		}
		id := strings.TrimSpace(rec[h.identity])
		if id == "" {
			return nil, fmt.Errorf("row %d has an empty identity (column %q)", row, identity)
		}
		for c, f := range fieldOf {
			values[c] = rec[f]
		}
		email, err := statusCell(rec, h.email, row)
		if err != nil {
			return nil, err
		}
		mobile, err := statusCell(rec, h.mobile, row)
		if err != nil {
			return nil, err
		}
		if err := bw.add(row, id, values, email, mobile); err != nil {
			return nil, err
		}
		if row == estimateAfterRows && size > 0 {
			// The rows to come, from the bytes the first ones took (a
			// tenth more, for rows longer than those), at most a row per
			// 8 bytes: first rows shorter than the rest do not reserve
			// room for contacts the file does not hold.
			if read := cr.InputOffset(); read > 0 {
				bw.reserve(int(min(float64(row)*float64(size)/float64(read)*1.1, float64(size/8))))
			}
		}
	}
	book, err := bw.finish()
	if err != nil {
		return nil, err
	}
	book.UnknownColumns = h.unknown
	return book, nil
}

// Column names are matched exactly, as the service matches an import's
// columns and a contact's attribute names: a column that differs only in
// letter case from the identity column, a status column or an attribute
// of the account would pass the plan and fail at apply (the service's
// "unknown contact attribute"), so it is refused when the file is read,
// naming the right spelling. rms_list_contacts (status columns included)
// and rms_list_import (CheckImportSource) apply the same rule, but for a
// source file's column spelled like an attribute: it is a column of no
// attribute (Book.UnknownColumns), whose messages name the spelling
// (UnknownColumn).

// misspelledColumn refuses a column h that is no attribute of the account
// but differs only in case from the identity column, a status column
// (statuses: the file of rms_list_contacts) or, in an import, an
// attribute.
func misspelledColumn(ctx context.Context, h, identity string, statuses bool, attrs AttributeNames) error {
	if IsAttributeID(h) {
		return nil
	}
	if _, ok, err := attrs.AttributeOf(ctx, h); err != nil {
		return &attributesUnreadable{err}
	} else if ok {
		return nil
	}
	const exactly = "column names are matched exactly, in letter case too, as the service matches them"
	if strings.EqualFold(h, identity) {
		return fmt.Errorf("column %q is not the identity column %q (%s): rename the column to %q, or set identity_column = %q", h, identity, exactly, identity, h)
	}
	if statuses {
		for _, st := range []string{fileEmailStatusColumn, fileMobileStatusColumn} {
			if strings.EqualFold(h, st) {
				return fmt.Errorf("column %q is not the status column %q (%s): rename the column to %q", h, st, exactly, st)
			}
		}
	}
	if statuses {
		// A source file's column of no attribute is kept, to be
		// confirmed at apply (readHeader); UnknownColumn names the
		// spelling.
		return nil
	}
	right, err := attrs.Spelling(ctx, h)
	if err != nil {
		return &attributesUnreadable{err}
	}
	if right != "" {
		return fmt.Errorf("column %q names no contact attribute of the account; its attribute %q differs only in letter case (%s): rename the column to %q", h, right, exactly, right)
	}
	return nil
}

// attributesUnreadable: the account's attributes could not be read to
// check a column's spelling.
type attributesUnreadable struct{ err error }

func (e *attributesUnreadable) Error() string {
	return "reading the account's contact attributes: " + e.err.Error()
}

func (e *attributesUnreadable) Unwrap() error { return e.err }

// statusCell reads a status column: empty leaves the status to the service.
func statusCell(rec []string, idx, row int) (string, error) {
	if idx < 0 {
		return "", nil
	}
	v := strings.ToUpper(strings.TrimSpace(rec[idx]))
	switch v {
	case "", client.StatusSubscribed, client.StatusUnsubscribed:
		return v, nil
	}
	return "", fmt.Errorf("row %d: status %q is neither SUBSCRIBED nor UNSUBSCRIBED (or empty, to leave it to the service)", row, rec[idx])
}
