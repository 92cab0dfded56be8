package contactsync

import (
	"context"
	"errors"
	"fmt"
	"strings"
)

// One set of rules for the header of a contacts file, whichever resource
// reads it: the source_file of rms_list_contacts (ParseSourceFile) and the
// file of rms_list_import and the rms_run_list_import action
// (CheckImportSource). The same file means the same contacts through
// either, or one of them refuses it at plan, saying why:
//
//   - the identity column identifies each contact, and is an attribute too
//     when it names one of the account's;
//   - every other column names an attribute of the account, by name or id,
//     exactly as the account spells it, and each attribute once; a column
//     that is no attribute is refused naming the column and the attributes
//     that exist (the service refuses such a file, or such a contact): an
//     import's at plan, a source file's before the apply's first write,
//     unless the attribute was made earlier in the apply (the plan warns);
//   - email_status and mobile_status are status columns in
//     rms_list_contacts. The service's import has no status columns: it
//     reads every column but the identity as an attribute, and an ADD or
//     REPLACE import cannot set a subscription status. An import refuses
//     them at plan, naming rms_list_contacts (which sets statuses and
//     honours opt-outs) and the UNSUBSCRIBE import as the alternatives,
//     rather than have the service refuse the file after the import was
//     created. Where the account has an attribute of that name the column
//     would mean an attribute to the import and a status to
//     rms_list_contacts: rms_list_contacts refuses it.

// FileUse says which resource reads a file, and so which columns it takes.
type FileUse int

const (
	// UseSourceFile is rms_list_contacts' source_file (status columns).
	UseSourceFile FileUse = iota
	// UseImport is an ADD or REPLACE import (attribute columns only).
	UseImport
)

// fileHeader is a header read by the rules: the identity's and the status
// columns' positions (-1 when absent) and the attribute of each attribute
// column.
type fileHeader struct {
	identity, email, mobile int
	columns                 map[int]string // column index -> attribute name
	unknown                 []string       // source file columns that name no attribute yet, in header order
}

// readHeader applies the rules to a header row. identity is the identity
// column's name (never empty).
func readHeader(ctx context.Context, header []string, delim rune, identity string, use FileUse, attrs AttributeNames) (fileHeader, error) {
	h := fileHeader{identity: -1, email: -1, mobile: -1, columns: map[int]string{}}
	seen := map[string]string{} // attribute name -> the column that named it
	named := func(col, name string) error {
		if first, dup := seen[name]; dup {
			return fmt.Errorf("column %q names attribute %q a second time (column %q names it too); keep one of the two columns", col, name, first)
		}
		seen[name] = col
		return nil
	}
	// The identity column first: a header read with the wrong delimiter is
	// one column, and the error names the delimiter that finds it.
	for i, raw := range header {
		if strings.TrimSpace(raw) == identity {
			h.identity = i
		}
	}
	if h.identity < 0 {
		return fileHeader{}, missingIdentityError(header, delim, identity)
	}
	cols := map[string]bool{}
	for i, raw := range header {
		col := strings.TrimSpace(raw)
		if col == "" {
			return fileHeader{}, fmt.Errorf("column %d of the header row has no name", i+1)
		}
		if cols[col] {
			return fileHeader{}, fmt.Errorf("the header row names column %q twice; each column may appear once", col)
		}
		cols[col] = true
		if col == identity {
			name, ok, err := attrs.AttributeOf(ctx, col)
			if err != nil {
				return fileHeader{}, &attributesUnreadable{err}
			}
			if ok {
				if err := named(col, name); err != nil {
					return fileHeader{}, err
				}
				h.columns[i] = name
			}
			continue
		}
		if isStatusColumn(col) {
			_, isAttr, err := attrs.AttributeOf(ctx, col)
			if err != nil {
				return fileHeader{}, &attributesUnreadable{err}
			}
			switch {
			case use == UseSourceFile && isAttr:
				return fileHeader{}, fmt.Errorf("column %q is ambiguous: in a source_file it holds a subscription status, but the account also has a contact attribute %q, which the service's import of the same file would write instead; rename the attribute in the account, or manage it through contacts (properties) rather than a file", col, col)
			case use == UseSourceFile:
				if col == fileEmailStatusColumn {
					h.email = i
				} else {
					h.mobile = i
				}
				continue
			case !isAttr:
				return fileHeader{}, fmt.Errorf("column %q is a subscription status column, which the service's import does not have: an ADD or REPLACE import reads every column but the identity as a contact attribute, and the account has no attribute %q, so the service would refuse the file. "+
					"An import cannot set subscription statuses. To apply this file with its statuses, use it as the source_file of rms_list_contacts, which sets them (and honours opt-outs); to unsubscribe the contacts of some rows, import their ids with type = \"UNSUBSCRIBE\"; or remove the column", col, col)
			}
		}
		if err := misspelledColumn(ctx, col, identity, use == UseSourceFile, attrs); err != nil {
			return fileHeader{}, err
		}
		name, ok, err := attrs.AttributeOf(ctx, col)
		if err != nil {
			return fileHeader{}, &attributesUnreadable{err}
		}
		if !ok && use == UseImport {
			return fileHeader{}, UnknownColumn(ctx, col, attrs)
		}
		if !ok {
			// A source file's column of an attribute the account lacks
			// now is kept under its own name (Book.UnknownColumns): the
			// attribute may be made earlier in the same apply, and the
			// provider refuses the file before its first write if not.
			name = col
			h.unknown = append(h.unknown, col)
		}
		if err := named(col, name); err != nil {
			return fileHeader{}, err
		}
		h.columns[i] = name
	}
	return h, nil
}

// isStatusColumn reports whether col is a status column's name.
func isStatusColumn(col string) bool {
	return col == fileEmailStatusColumn || col == fileMobileStatusColumn
}

// UnknownColumn is the error for a column that names no attribute of the
// account, naming the attributes that exist, or the one spelled like it
// but for letter case.
func UnknownColumn(ctx context.Context, col string, attrs AttributeNames) *UnknownAttributeError {
	e := &UnknownAttributeError{Subject: fmt.Sprintf("column %q", col), ID: IsAttributeID(col), Known: knownNames(ctx, attrs),
		Advice: "rename the column to one of them, remove it, or add the attribute to the account first"}
	if right, err := attrs.Spelling(ctx, col); err == nil && right != "" {
		e.Spelling = right
		e.Advice = fmt.Sprintf("its attribute %q differs only in letter case (column names are matched exactly, as the service matches them): rename the column to %q", right, right)
	}
	return e
}

// UnknownAttributeError says that a file's column or a contact's property
// key names no attribute of the account. The service refuses such a file or
// contact. An import is refused at plan; the provider's contact resources
// warn at plan (the attribute may be made earlier in the same apply) and
// refuse before the apply's first write when the account still lacks it.
type UnknownAttributeError struct {
	Subject  string   // what names the attribute: key "shoe_size", column "shoe_size"
	ID       bool     // the subject is an attribute id (digits)
	Known    []string // the account's attributes (nil when they could not be listed)
	Spelling string   // the account's attribute spelled like it but for letter case ("" none)
	Advice   string   // what to do
}

// What is what the error says of the subject.
func (e *UnknownAttributeError) What() string {
	if e.ID {
		return e.Subject + " names an attribute id the account does not have"
	}
	return e.Subject + " names no contact attribute of the account"
}

// KnownList names the account's attributes, for a message.
func (e *UnknownAttributeError) KnownList() string {
	if len(e.Known) == 0 {
		return "the account has no contact attributes"
	}
	return "its attributes: " + strings.Join(e.Known, ", ")
}

func (e *UnknownAttributeError) Error() string {
	return fmt.Sprintf("%s (%s); %s", e.What(), e.KnownList(), e.Advice)
}

// knownNames lists the account's attributes for a message, nil when the
// attributes cannot be listed.
func knownNames(ctx context.Context, attrs AttributeNames) []string {
	names, err := attrs.Known(ctx)
	if err != nil {
		return nil
	}
	return names
}

// CheckAttributeKey checks one property key of a contact (rms_list_contacts'
// contacts map): it must name an attribute of the account, by name or id.
// It returns the attribute's name.
func CheckAttributeKey(ctx context.Context, key string, attrs AttributeNames) (string, error) {
	name, ok, err := attrs.AttributeOf(ctx, key)
	if err != nil {
		return "", &attributesUnreadable{err}
	}
	if ok {
		return name, nil
	}
	e := &UnknownAttributeError{Subject: fmt.Sprintf("key %q", key), ID: IsAttributeID(key), Known: knownNames(ctx, attrs),
		Advice: "use one of them, by name or id, or add the attribute to the account first"}
	if right, err := attrs.Spelling(ctx, key); err == nil && right != "" {
		e.Spelling = right
		e.Advice = fmt.Sprintf("its attribute %q differs only in letter case (keys are matched exactly, as the service matches them): write %q", right, right)
	}
	return "", e
}

// IsAttributesUnreadable reports whether err is the account's attributes
// failing to be read (the service unreachable), not the input.
func IsAttributesUnreadable(err error) bool {
	var u *attributesUnreadable
	return errors.As(err, &u)
}
