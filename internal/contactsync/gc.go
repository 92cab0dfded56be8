package contactsync

import (
	"os"
	"runtime/debug"
)

// A provider process that holds the book of a large source file runs its
// garbage collector at a lower target: the heap may grow by a fifth of
// what is live before a collection, rather than Go's default of all of it.
// Such a book holds about 70 bytes per contact, and reading the file and
// the listing makes as much again in short-lived garbage (CSV records,
// decoded pages): at the default, a plan of a million contacts peaked at
// twice its live heap, and at half (the target before), a plan of ten
// million at 1.1 GiB for 720 MiB live. The book, its index and its offsets
// hold no pointers, so a collection does not scan them, and the extra
// collections cost little. Only a process that reads such a file pays them;
// every other keeps Go's default (BENCHMARKS.md, "A million contacts",
// "Ten million contacts"). GOGC, when set, is left as it is.
const (
	largeBookContacts = 100_000
	largeFileBytes    = 4 << 20
	largeBookGC       = 20
)

// readingLargeFile lowers the garbage collector's target before a file of
// size bytes is read, if it is large.
func (r *Run) readingLargeFile(size int64) {
	if size >= largeFileBytes {
		r.lowerGC()
	}
}

// heldLargeBook lowers the garbage collector's target once, the first time
// this run holds a book of at least largeBookContacts (a file whose size
// could not be read first).
func (r *Run) heldLargeBook(b *Book) {
	if b.Len() >= largeBookContacts {
		r.lowerGC()
	}
}

// lowerGC sets the lower target, once per run.
func (r *Run) lowerGC() {
	r.gcOnce.Do(func() {
		if v, ok := os.LookupEnv("GOGC"); ok && v != "" {
			return
		}
		if before := debug.SetGCPercent(largeBookGC); before >= 0 && before < largeBookGC {
			debug.SetGCPercent(before) // already lower (or off): keep it
		}
	})
}
