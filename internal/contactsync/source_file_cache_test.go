package contactsync

import (
	"os"
	"path/filepath"
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
