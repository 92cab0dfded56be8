package contactsync

import (
	"strings"
	"testing"

	"github.com/rms-labs/terraform-provider-rms/internal/client"
)

// The ADD import of a create from a source file writes each contact's
// values from the book (no map per contact), beside updates' values from
// their Set, and leaves out what goes by single calls.
func TestWriteAddImport(t *testing.T) {
	book := fileBook(t, []string{"email", "firstname"}, []Desired{
		{ID: "a", Props: map[string]string{"email": "a@x", "firstname": "Ann"}},
		{ID: "b", Props: map[string]string{"email": "b@x", "firstname": ""}},
		{ID: "c", Props: map[string]string{"email": "c@x", "firstname": "Cy"}, Email: client.StatusUnsubscribed},
		{ID: "d", Props: map[string]string{"email": "d@x", "firstname": "Dee"}},
	})
	service := listAgainst(book, map[string]ServiceContact{"d": {Props: map[string]string{"email": "d@x", "firstname": "Di"}}})
	diff := Compare(book, service, Options{})
	for _, c := range diff.Changes {
		if c.Create && c.Set != nil {
			t.Errorf("create of %s holds a map of its values", c.ID)
		}
	}
	var b strings.Builder
	if err := WriteAddImport(&b, diff.All()); err != nil {
		t.Fatal(err)
	}
	want := "originalId,email,firstname\na,a@x,Ann\nb,b@x,\nd,,Dee\n"
	if b.String() != want {
		t.Errorf("ADD import\n%s\nwant\n%s", b.String(), want)
	}
	if rows, _ := ImportPlan(diff.All()); rows != 3 {
		t.Errorf("ImportPlan counts %d ADD rows, want 3", rows)
	}
	if got := CreatedBy(diff.All()); len(got) != 2 || !got["a"] || !got["b"] {
		t.Errorf("CreatedBy = %v, want a and b (c starts unsubscribed: a single call)", got)
	}
}
