package main

import (
	"fmt"
	"math"
	"os"
	"runtime/debug"
	"strconv"
	"strings"
)

// defaultMemoryLimit is the emulator's soft memory limit unless
// -memory-limit or GOMEMLIMIT says otherwise. At Go's default the heap of
// a large account may grow to twice what is live between collections, and
// the runtime keeps those pages: ten million contacts (about 1.6 GiB live)
// left 3.5 GiB resident after their import. Near this limit the collector
// works harder instead (a few percent more CPU at that size), and an
// account that holds more than it still grows past it: the limit is soft.
const defaultMemoryLimit = 2304 << 20 // 2.25 GiB: ten million contacts stay under 2.5 GiB resident

// memoryLimitFlag is -memory-limit: a size in GOMEMLIMIT's form (a number
// of bytes with an optional B, KiB, MiB, GiB or TiB), or off.
type memoryLimitFlag struct {
	set   bool
	limit int64 // math.MaxInt64: off
}

func (f *memoryLimitFlag) String() string {
	if f == nil || !f.set {
		return ""
	}
	if f.limit == math.MaxInt64 {
		return "off"
	}
	return strconv.FormatInt(f.limit, 10) + "B"
}

func (f *memoryLimitFlag) Set(s string) error {
	n, err := parseMemoryLimit(s)
	if err != nil {
		return err
	}
	f.set, f.limit = true, n
	return nil
}

// parseMemoryLimit reads a size as GOMEMLIMIT takes it.
func parseMemoryLimit(s string) (int64, error) {
	if s == "off" {
		return math.MaxInt64, nil
	}
	units := []struct {
		suffix string
		shift  uint
	}{{"TiB", 40}, {"GiB", 30}, {"MiB", 20}, {"KiB", 10}, {"B", 0}}
	num, shift := s, uint(0)
	for _, u := range units {
		if rest, ok := strings.CutSuffix(s, u.suffix); ok {
			num, shift = rest, u.shift
			break
		}
	}
	n, err := strconv.ParseInt(num, 10, 64)
	if err != nil || n < 0 || n > math.MaxInt64>>shift {
		return 0, fmt.Errorf("%q is not a size such as 2304MiB, 2GiB or off", s)
	}
	return n << shift, nil
}

// apply sets the process's soft memory limit: the flag's when given, else
// none of its own when the GOMEMLIMIT of the environment set one (the
// runtime read it), else defaultMemoryLimit. It returns the function that
// puts back the limit before it (run is also called within tests).
func (f *memoryLimitFlag) apply() (restore func()) {
	limit := int64(defaultMemoryLimit)
	switch {
	case f.set:
		limit = f.limit
	case os.Getenv("GOMEMLIMIT") != "":
		return func() {}
	}
	prev := debug.SetMemoryLimit(limit)
	return func() { debug.SetMemoryLimit(prev) }
}
