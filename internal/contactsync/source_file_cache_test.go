package contactsync

import (
	"fmt"
	"os"
	"path/filepath"
	"runtime/debug"
	"strings"
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

	// Before a file is read, by its size: a small file leaves the target,
	// a large one lowers it before the read makes its garbage.
	r = &Run{}
	r.readingLargeFile(largeFileBytes - 1)
	if got := debug.SetGCPercent(100); got != 100 {
		t.Fatalf("a small file set the target to %d", got)
	}
	r.readingLargeFile(largeFileBytes)
	if got := debug.SetGCPercent(100); got != largeBookGC {
		t.Fatalf("a large file left the target at %d before its read, want %d", got, largeBookGC)
	}
}

// The arena of a file's book is made once, a quarter larger than the file,
// so that a row two bytes longer than its line never makes it grow (and be
// copied while the old one is live).
func TestBookArenaNotCopied(t *testing.T) {
	var file strings.Builder
	file.WriteString("originalId,email\n")
	for i := range 20_000 {
		fmt.Fprintf(&file, "c-%05d,c%d@x.io\n", i, i)
	}
	w := newBookWriter([]string{"email"}, int64(file.Len()))
	start := cap(w.b.arena)
	for i := range 20_000 {
		if err := w.add(i+2, fmt.Sprintf("c-%05d", i), []string{fmt.Sprintf("c%d@x.io", i)}, "", ""); err != nil {
			t.Fatal(err)
		}
	}
	if cap(w.b.arena) != start || len(w.b.arena) <= file.Len() {
		t.Errorf("the arena grew from %d to %d bytes for %d packed (the file: %d)", start, cap(w.b.arena), len(w.b.arena), file.Len())
	}
}
