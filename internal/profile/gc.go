package profile

import "runtime/debug"

// gcPercent is the garbage collector's target the provider runs with
// unless GOGC says otherwise: the heap may grow by half of what is live
// before a collection, rather than Go's default of all of it. The
// provider's largest work, a list of a million contacts compared with its
// source file, holds about 80 bytes per contact live and makes as much
// again in short-lived garbage (CSV records, decoded pages); at the
// default a plan's peak memory was twice the live heap. Most provider
// processes are small and spend their time waiting on the service, so the
// extra collections cost nothing they would notice (BENCHMARKS.md, "A
// million contacts").
const gcPercent = 50

// TuneGC sets the garbage collector's target, unless GOGC is set.
func TuneGC(lookup func(string) (string, bool)) {
	if v, ok := lookup("GOGC"); ok && v != "" {
		return
	}
	debug.SetGCPercent(gcPercent)
}
