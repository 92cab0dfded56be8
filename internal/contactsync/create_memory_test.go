package contactsync

import (
	"context"
	"fmt"
	"io"
	"runtime"
	"testing"
)

// createBytesPerContact bounds what a first apply from a source file holds
// per contact while its ADD import is written: the book's row (about 60
// bytes for an id, an address and a name) and its index, and nothing else:
// the plain creates are made from the book as the import is written
// (Diff.All), no Change per contact. Measured: 66 bytes. Before creates
// took their values from the book it was over 600 (a map per contact in
// Compare, a second copy of every change and a set of created ids in
// ImportPlan), and 162 while each create was a Change of 96 bytes.
const createBytesPerContact = 120

// TestCreateMemoryPerContact measures the live heap of a create's apply,
// at the moment its ADD import is written (everything the apply holds is
// live then), for 50,000 and for 500,000 rows: what the second holds more
// than the first, per contact, is within createBytesPerContact, so a ten
// million contact list holds well under a gigabyte, and nothing grows but
// the per-contact cost.
func TestCreateMemoryPerContact(t *testing.T) {
	small, large := liveAtImport(t, 50_000), liveAtImport(t, 500_000)
	per := float64(large-small) / 450_000
	t.Logf("live heap at the ADD import: %d bytes for 50,000 rows, %d for 500,000: %.0f bytes per contact", small, large, per)
	if per > createBytesPerContact {
		t.Errorf("a create holds %.0f bytes per contact, more than %d", per, createBytesPerContact)
	}
}

// liveAtImport runs the apply of a create of n rows against an empty list
// and reports the live heap when the ADD import is written.
func liveAtImport(t *testing.T, n int) uint64 {
	t.Helper()
	desired := make([]Desired, n)
	for i := range desired {
		desired[i] = Desired{ID: fmt.Sprintf("c-%08d", i), Props: map[string]string{"email": fmt.Sprintf("c%d@example.com", i), "firstname": fmt.Sprint("Name ", i)}}
	}
	book := fileBook(t, []string{"email", "firstname"}, desired)
	desired = nil
	port := &measuringPort{fakePort: fakePort{desired: book, service: NewServiceList(book, false)}}
	out := Apply(context.Background(), ApplyInput{ListID: "l", Creating: true, File: true, BatchThreshold: 100}, port)
	if out.End != ApplyDone || port.live == 0 {
		t.Fatalf("the create of %d rows ended %v (%v), import measured: %v", n, out.End, out.Err, port.live != 0)
	}
	runtime.KeepAlive(book)
	return port.live
}

// measuringPort is a fakePort that measures the live heap when the ADD
// import is written.
type measuringPort struct {
	fakePort
	live uint64
}

func (p *measuringPort) Import(ctx context.Context, action string, write func(io.Writer) error, started func(string)) (bool, error) {
	if action == "ADD" {
		runtime.GC()
		var m runtime.MemStats
		runtime.ReadMemStats(&m)
		p.live = m.HeapAlloc
	}
	return p.fakePort.Import(ctx, action, write, started)
}
