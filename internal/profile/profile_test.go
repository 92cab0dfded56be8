package profile

import (
	"fmt"
	"os"
	"path/filepath"
	"testing"
)

func TestStartCPU(t *testing.T) {
	t.Run("unset: nothing is written", func(t *testing.T) {
		stop, err := StartCPU(func(string) (string, bool) { return "", false })
		if err != nil {
			t.Fatal(err)
		}
		stop()
	})
	t.Run("a prefix: one profile per process", func(t *testing.T) {
		prefix := filepath.Join(t.TempDir(), "cpu")
		stop, err := StartCPU(func(k string) (string, bool) { return prefix, k == profileVariable })
		if err != nil {
			t.Fatal(err)
		}
		stop()
		fi, err := os.Stat(fmt.Sprintf("%s.%d", prefix, os.Getpid()))
		if err != nil {
			t.Fatal(err)
		}
		if fi.Size() == 0 {
			t.Error("the profile is empty")
		}
	})
	t.Run("an unwritable prefix is an error", func(t *testing.T) {
		prefix := filepath.Join(t.TempDir(), "missing", "cpu")
		if _, err := StartCPU(func(string) (string, bool) { return prefix, true }); err == nil {
			t.Error("no error")
		}
	})
}
