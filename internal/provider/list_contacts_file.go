package provider

import (
	"bufio"
	"bytes"
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

// fileOptions are how a source file is read.
type fileOptions struct {
	Path, Delimiter, Encoding, IdentityColumn string
}

// fileContacts are a parsed source file: the contacts sorted by id and the
// attribute columns (by name) that the file manages.
type fileContacts struct {
	Contacts []desiredContact
	Columns  []string
}

// attributeNames resolve a file's columns to contact attributes (the
// attribute cache; a fake in unit tests).
type attributeNames interface {
	// nameOf is the attribute name of a column: a name stands for itself,
	// an id (digits) for its attribute's name; ok is false for an id the
	// account does not have.
	nameOf(ctx context.Context, key string) (name string, ok bool, err error)
	// attributeOf is the attribute a column names, ok only when the
	// account has it (the identity column is an attribute only then).
	attributeOf(ctx context.Context, key string) (name string, ok bool, err error)
}

// readSourceFile parses a source file.
func readSourceFile(ctx context.Context, opts fileOptions, attrs attributeNames) (fileContacts, error) {
	f, err := os.Open(opts.Path)
	if errors.Is(err, os.ErrNotExist) {
		return fileContacts{}, fmt.Errorf("there is no file at %q; a relative path is relative to the directory Terraform runs in", opts.Path)
	}
	if err != nil {
		return fileContacts{}, err
	}
	defer func() { _ = f.Close() }() // read-only
	return parseSourceFile(ctx, bufio.NewReader(f), opts, attrs)
}

// parseSourceFile reads the contacts of a source file. The identity column
// is written as an attribute too when it names one of the account's (an
// "email" column), as the service's import does, so that a file means the
// same here and in rms_list_import. Bytes not valid in the encoding fail
// with the file and line (see decodedReader).
func parseSourceFile(ctx context.Context, r io.Reader, opts fileOptions, attrs attributeNames) (fileContacts, error) {
	delim, err := fileDelimiter(opts.Delimiter)
	if err != nil {
		return fileContacts{}, err
	}
	cr := csv.NewReader(decodedReader(r, opts.Encoding))
	cr.Comma = delim
	cr.ReuseRecord = true
	header, err := cr.Read()
	if errors.Is(err, io.EOF) {
		return fileContacts{}, errors.New("the file is empty; its first row must name the columns")
	}
	if err != nil {
		if isInvalidText(err) {
			return fileContacts{}, withPath(err, opts.Path)
		}
		return fileContacts{}, fmt.Errorf("reading the header row: %w", err)
	}
	identity := opts.IdentityColumn
	if identity == "" {
		identity = "originalId"
	}
	idIdx, emailIdx, mobileIdx := -1, -1, -1
	columns := map[int]string{} // column index -> attribute name
	seen := map[string]bool{}
	for i, h := range header {
		h = strings.TrimSpace(h)
		switch h {
		case "":
			return fileContacts{}, fmt.Errorf("column %d of the header row has no name", i+1)
		case identity:
			idIdx = i
			name, ok, err := attrs.attributeOf(ctx, h)
			if err != nil {
				return fileContacts{}, fmt.Errorf("reading the account's contact attributes: %w", err)
			}
			if ok {
				if seen[name] {
					return fileContacts{}, fmt.Errorf("column %q names attribute %q a second time", h, name)
				}
				seen[name] = true
				columns[i] = name
			}
		case fileEmailStatusColumn:
			emailIdx = i
		case fileMobileStatusColumn:
			mobileIdx = i
		default:
			name, ok, err := attrs.nameOf(ctx, h)
			if err != nil {
				return fileContacts{}, fmt.Errorf("reading the account's contact attributes: %w", err)
			}
			if !ok {
				return fileContacts{}, fmt.Errorf("column %q names an attribute id the account does not have", h)
			}
			if seen[name] {
				return fileContacts{}, fmt.Errorf("column %q names attribute %q a second time", h, name)
			}
			seen[name] = true
			columns[i] = name
		}
	}
	if idIdx < 0 {
		return fileContacts{}, missingIdentityError(header, delim, identity)
	}
	out := fileContacts{Columns: make([]string, 0, len(columns))}
	for _, name := range columns {
		out.Columns = append(out.Columns, name)
	}
	sort.Strings(out.Columns)
	ids := map[string]int{}
	for row := 2; ; row++ {
		rec, err := cr.Read()
		if errors.Is(err, io.EOF) {
			break
		}
		if err != nil {
			if isInvalidText(err) {
				return fileContacts{}, withPath(err, opts.Path)
			}
			return fileContacts{}, fmt.Errorf("row %d: %w", row, err)
		}
		if len(rec) == 1 && rec[0] == "" {
			continue // a blank line
		}
		id := strings.TrimSpace(rec[idIdx])
		if id == "" {
			return fileContacts{}, fmt.Errorf("row %d has an empty identity (column %q)", row, identity)
		}
		if first, dup := ids[id]; dup {
			return fileContacts{}, fmt.Errorf("rows %d and %d both name contact %q; each contact may appear once", first, row, id)
		}
		ids[id] = row
		w := desiredContact{ID: id, Props: make(map[string]string, len(columns))}
		for i, name := range columns {
			w.Props[name] = rec[i]
		}
		if w.Email, err = statusCell(rec, emailIdx, row); err != nil {
			return fileContacts{}, err
		}
		if w.Mobile, err = statusCell(rec, mobileIdx, row); err != nil {
			return fileContacts{}, err
		}
		out.Contacts = append(out.Contacts, w)
	}
	sort.Slice(out.Contacts, func(i, j int) bool { return out.Contacts[i].ID < out.Contacts[j].ID })
	return out, nil
}

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

// writeAddImport writes the file of an ADD import: an originalId column and
// one column per attribute set, an empty cell where a contact's value is
// not to change (an ADD import merges only non-empty cells).
func writeAddImport(w io.Writer, changes []contactChange) error {
	colSet := map[string]bool{}
	for _, c := range changes {
		for k := range c.Set {
			colSet[k] = true
		}
	}
	cols := idsOf(colSet)
	cw := csv.NewWriter(w)
	if err := cw.Write(append([]string{"originalId"}, cols...)); err != nil {
		return err
	}
	rec := make([]string, len(cols)+1)
	for _, c := range changes {
		rec[0] = c.ID
		for i, k := range cols {
			rec[i+1] = c.Set[k]
		}
		if err := cw.Write(rec); err != nil {
			return err
		}
	}
	cw.Flush()
	return cw.Error()
}

// writeUnsubscribeImport writes the file of an UNSUBSCRIBE import.
func writeUnsubscribeImport(w io.Writer, ids []string) error {
	var b bytes.Buffer
	cw := csv.NewWriter(&b)
	if err := cw.Write([]string{"originalId"}); err != nil {
		return err
	}
	for _, id := range ids {
		if err := cw.Write([]string{id}); err != nil {
			return err
		}
		if b.Len() > 64<<10 {
			cw.Flush()
			if _, err := w.Write(b.Bytes()); err != nil {
				return err
			}
			b.Reset()
		}
	}
	cw.Flush()
	if err := cw.Error(); err != nil {
		return err
	}
	_, err := w.Write(b.Bytes())
	return err
}
