package profile

import (
	"fmt"
	"os"
	"path/filepath"
	"runtime"
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
		// The heap grows by 160 MiB; the test waits, on the file itself,
		// until the sampler has written the profile again (a busy machine
		// may take many ticks), and fails only after a minute.
		for range 40 {
			growing = append(growing, make([]byte, 4<<20))
		}
		rewritten := func() bool {
			later, err := os.Stat(name)
			return err == nil && (later.ModTime().After(first.ModTime()) || later.Size() != first.Size())
		}
		ok := rewritten()
		for deadline := time.Now().Add(time.Minute); !ok && time.Now().Before(deadline); ok = rewritten() {
			runtime.Gosched()
		}
		stop()
		stop() // twice is harmless
		if !ok {
			t.Fatal("the profile was not written again as the heap grew")
		}
		later, err := os.Stat(name) // stopped: no write is under way
		if err != nil {
			t.Fatal(err)
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
