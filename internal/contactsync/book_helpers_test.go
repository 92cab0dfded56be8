package contactsync

import (
	"slices"
	"testing"
)

// FileContacts are a parsed source file as the tests compare it: the
// contacts sorted by id, with their properties, and the attribute columns.
type FileContacts struct {
	Contacts []Desired
	Columns  []string
}

func fileContactsOf(b *Book) FileContacts {
	if b == nil {
		return FileContacts{}
	}
	return FileContacts{Columns: b.Columns, Contacts: b.Contacts()}
}

// fileBook packs desired (sorted by id, or not) into a file's book of
// these columns, as ParseSourceFile does.
func fileBook(t testing.TB, columns []string, desired []Desired) *Book {
	t.Helper()
	cols := slices.Sorted(slices.Values(columns))
	w := newBookWriter(cols, 0)
	values := make([]string, len(cols))
	for row, d := range desired {
		for i, c := range cols {
			values[i] = d.Props[c]
		}
		if err := w.add(row+2, d.ID, values, d.Email, d.Mobile); err != nil {
			t.Fatal(err)
		}
	}
	b, err := w.finish()
	if err != nil {
		t.Fatal(err)
	}
	return b
}

// listAgainst is service as a listing held against book.
func listAgainst(book *Book, service map[string]ServiceContact) *ServiceList {
	s := NewServiceList(book, false)
	for _, id := range SortedKeys(service) {
		s.Add(id, service[id])
	}
	return s
}
