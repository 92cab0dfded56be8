package bench

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

// The scenario's file has a header and n rows of the 4 standard
// attributes, the e-mail (the identity column) unique per row.
func TestWriteScaleCSV(t *testing.T) {
	path := filepath.Join(t.TempDir(), "c.csv")
	size, err := writeScaleCSV(path, 3)
	if err != nil {
		t.Fatal(err)
	}
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	want := "email,mobile,firstname,lastname\n" +
		"c0@example.com,+4915000000000,Ada,Lovelace-0\n" +
		"c1@example.com,+4915000000001,Ada,Lovelace-1\n" +
		"c2@example.com,+4915000000002,Ada,Lovelace-2\n"
	if string(b) != want || size != int64(len(want)) {
		t.Errorf("file (%d bytes):\n%s\nwant:\n%s", size, b, want)
	}
}

// A save is seen when a visible file changes; a temporary file only counts
// as activity while the directory settles.
func TestDirSignature(t *testing.T) {
	dir := t.TempDir()
	write := func(name, content string) {
		t.Helper()
		if err := os.WriteFile(filepath.Join(dir, name), []byte(content), 0o600); err != nil {
			t.Fatal(err)
		}
	}
	write("state.json", "{}")
	visible, all := dirSignature(dir, false), dirSignature(dir, true)
	write(".state-1.json", "partial")
	if dirSignature(dir, false) != visible {
		t.Error("a temporary file changed the visible signature")
	}
	if dirSignature(dir, true) == all {
		t.Error("a temporary file left the full signature as it was")
	}
	write("journal.jsonl", "x\n")
	if !strings.Contains(dirSignature(dir, false), "journal.jsonl") {
		t.Error("a new journal is not in the signature")
	}
	ctx := context.Background()
	if err := waitDirChange(ctx, dir, visible, time.Second); err != nil {
		t.Errorf("waitDirChange: %v", err)
	}
	if err := waitDirChange(ctx, dir, dirSignature(dir, false), 50*time.Millisecond); err == nil {
		t.Error("waitDirChange saw a change where there was none")
	}
	size, err := dirSize(dir)
	if err != nil || size != int64(len("{}")+len("partial")+len("x\n")) {
		t.Errorf("dirSize = %d, %v", size, err)
	}
}
