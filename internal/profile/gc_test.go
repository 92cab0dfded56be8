package profile

import (
	"runtime/debug"
	"testing"
)

func TestTuneGC(t *testing.T) {
	before := debug.SetGCPercent(100)
	t.Cleanup(func() { debug.SetGCPercent(before) })
	TuneGC(func(string) (string, bool) { return "", false })
	if got := debug.SetGCPercent(100); got != gcPercent {
		t.Errorf("without GOGC the target is %d, want %d", got, gcPercent)
	}
	TuneGC(func(k string) (string, bool) { return "200", k == "GOGC" })
	if got := debug.SetGCPercent(100); got != 100 {
		t.Errorf("with GOGC set the target was changed to %d", got)
	}
}
