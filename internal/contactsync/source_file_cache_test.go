package contactsync

import (
	"os"
	"path/filepath"
	"runtime/debug"
	"testing"
)

// A run reads a file once while it is unchanged, and again once it has
// changed.
func TestRunSourceFileCache(t *testing.T) {
	path := filepath.Join(t.TempDir(), "contacts.csv")
	if err := os.WriteFile(path, []byte("originalId,email\na,a@x\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	r := &Run{Attributes: LoadedAttributes(map[string]string{"1": "email"})}
	opts := FileOptions{Path: path}
	first, err := r.SourceFile(t.Context(), opts)
	if err != nil {
		t.Fatal(err)
	}
	again, err := r.SourceFile(t.Context(), opts)
	if err != nil || again != first {
		t.Fatalf("second read of an unchanged file: %v, same book %v", err, again == first)
	}
	if err := os.WriteFile(path, []byte("originalId,email\na,a@x\nb,b@x\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	changed, err := r.SourceFile(t.Context(), opts)
	if err != nil || changed == first || changed.Len() != 2 {
		t.Fatalf("read of a changed file: %v, same book %v, %d contacts", err, changed == first, changed.Len())
	}
}

// A run that reads a large file lowers the collector's target; a small one
// leaves it.
func TestRunLargeBookGC(t *testing.T) {
	t.Setenv("GOGC", "")
	before := debug.SetGCPercent(100)
	t.Cleanup(func() { debug.SetGCPercent(before) })
	r := &Run{}
	r.heldLargeBook(&Book{list: make([]Desired, 10)})
	if got := debug.SetGCPercent(100); got != 100 {
		t.Fatalf("a small book set the target to %d", got)
	}
	r.heldLargeBook(&Book{list: make([]Desired, largeBookContacts)})
	if got := debug.SetGCPercent(100); got != largeBookGC {
		t.Fatalf("a large book left the target at %d, want %d", got, largeBookGC)
	}
}
