package profile

import (
	"fmt"
	"os"
	"path/filepath"
	"testing"
	"time"
)

// growing keeps what the test allocates live until the profile is read.
var growing [][]byte

func TestStartMemory(t *testing.T) {
	t.Run("unset: nothing is written", func(t *testing.T) {
		stop, err := StartMemory(func(string) (string, bool) { return "", false })
		if err != nil {
			t.Fatal(err)
		}
		stop()
	})
	t.Run("a prefix: the profile is rewritten as the heap grows", func(t *testing.T) {
		prefix := filepath.Join(t.TempDir(), "mem")
		stop, err := StartMemory(func(k string) (string, bool) { return prefix, k == memoryVariable })
		if err != nil {
			t.Fatal(err)
		}
		name := fmt.Sprintf("%s.%d", prefix, os.Getpid())
		first, err := os.Stat(name)
		if err != nil {
			t.Fatal(err)
		}
		for range 40 { // 160 MiB, a tenth at a time and more
			growing = append(growing, make([]byte, 4<<20))
			time.Sleep(2 * memoryTick / 5)
		}
		stop()
		stop() // twice is harmless
		later, err := os.Stat(name)
		if err != nil {
			t.Fatal(err)
		}
		if !later.ModTime().After(first.ModTime()) && later.Size() == first.Size() {
			t.Error("the profile was not written again as the heap grew")
		}
		growing = nil
		if later.Size() == 0 {
			t.Error("the profile is empty")
		}
	})
	t.Run("an unwritable prefix is an error", func(t *testing.T) {
		prefix := filepath.Join(t.TempDir(), "missing", "mem")
		if _, err := StartMemory(func(string) (string, bool) { return prefix, true }); err == nil {
			t.Error("no error")
		}
	})
}
