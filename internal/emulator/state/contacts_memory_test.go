package state

import (
	"flag"
	"io"
	"log/slog"
	"os"
	"path/filepath"
	"runtime"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"
)

// What a list costs the emulator per contact, held and restored, with
// contacts shaped as the benchmark's scale scenario makes them (the four
// standard attributes, e-mail the identity). The figures for a million and
// ten million contacts come from the benchmarks below, run one at a time:
//
//	go test ./internal/emulator/state -run '^$' -bench 'ContactsHeld$' -benchtime 1x -args -contacts=10000000 -contacts-dir=/tmp/held
//	go test ./internal/emulator/state -run '^$' -bench 'ContactsRestore$' -benchtime 1x -args -contacts-dir=/tmp/held

var (
	heldContacts = flag.Int("contacts", 1_000_000, "contacts of BenchmarkContactsHeld")
	heldDir      = flag.String("contacts-dir", "", "data directory BenchmarkContactsHeld writes and BenchmarkContactsRestore restores (empty: a temporary one, held only)")
)

// maxHeapPerContact bounds the heap a held contact of heldInput's shape
// costs, the list's indexes included: 347 bytes at 200,000 contacts before
// contacts were stored compactly, 165 after.
const maxHeapPerContact = 190

const heldStamp = "2026-01-02T15:04:05Z"

// heldInput is contact i as the scale scenario's CSV makes it.
func heldInput(i int) ContactInput {
	s := strconv.Itoa(i)
	email, mobile := "c"+s+"@example.com", "+4915"+strings.Repeat("0", max(0, 9-len(s)))+s
	first, last := "Ada", "Lovelace-"+s
	return ContactInput{OriginalID: email, Props: map[string]*string{
		"email": &email, "mobile": &mobile, "firstname": &first, "lastname": &last,
	}}
}

// seedHeld makes a store with one list of n contacts.
func seedHeld(tb testing.TB, n int) (*Store, int64) {
	tb.Helper()
	st := NewStore()
	st.PreloadProperties(heldStamp)
	list, _, err := st.Create(nil, ListsKey, map[string]any{"name": "held"}, heldStamp, nil)
	if err != nil {
		tb.Fatal(err)
	}
	listID := list["id"].(int64)
	by := &Cause{Kind: CauseGoAPI}
	st.Seed(func(s *Seeder) {
		s.List(listID)
		for i := range n {
			if dup, err := s.Contact(listID, heldInput(i), heldStamp, s.NextID, by); dup || err != nil {
				tb.Fatalf("contact %d: dup %v, %v", i, dup, err)
			}
		}
	})
	return st, listID
}

// heapInUse is the heap in use after a full collection.
func heapInUse() uint64 {
	runtime.GC()
	runtime.GC()
	var m runtime.MemStats
	runtime.ReadMemStats(&m)
	return m.HeapInuse
}

// cpuTime is the CPU time the process has used, the garbage collector's
// included: on a shared machine it varies less than the wall time.
func cpuTime() time.Duration {
	var ru syscall.Rusage
	if err := syscall.Getrusage(syscall.RUSAGE_SELF, &ru); err != nil {
		return 0
	}
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
}

// peakRSS is the process's VmHWM in bytes (0 where /proc is missing).
func peakRSS() int64 {
	raw, err := os.ReadFile("/proc/self/status")
	if err != nil {
		return 0
	}
	for line := range strings.Lines(string(raw)) {
		if rest, ok := strings.CutPrefix(line, "VmHWM:"); ok {
			kb, _ := strconv.ParseInt(strings.TrimSuffix(strings.TrimSpace(rest), " kB"), 10, 64)
			return kb << 10
		}
	}
	return 0
}

// The heap a list holds per contact stays under maxHeapPerContact, so
// that ten million contacts fit on a CI runner.
func TestContactsHeapPerContact(t *testing.T) {
	const n = 200_000
	before := heapInUse()
	st, listID := seedHeld(t, n)
	per := float64(heapInUse()-before) / n
	if got := st.Contacts.Count(); got != n {
		t.Fatalf("the list holds %d contacts, want %d", got, n)
	}
	t.Logf("%.1f heap bytes per contact of list %d", per, listID)
	if per > maxHeapPerContact {
		t.Errorf("a held contact costs %.1f heap bytes, over the bound of %d", per, maxHeapPerContact)
	}
	runtime.KeepAlive(st)
}

// BenchmarkContactsHeld seeds -contacts contacts and reports their heap
// per contact and the process's peak RSS; with -contacts-dir it writes
// their snapshot there for BenchmarkContactsRestore.
func BenchmarkContactsHeld(b *testing.B) {
	for b.Loop() {
		n := *heldContacts
		before := heapInUse()
		start := time.Now()
		st, _ := seedHeld(b, n)
		seeded := time.Since(start)
		heap := heapInUse() - before
		b.ReportMetric(float64(heap)/float64(n), "heap-B/contact")
		b.ReportMetric(float64(peakRSS())/(1<<20), "peak-RSS-MiB")
		b.ReportMetric(seeded.Seconds(), "seed-s")
		if *heldDir != "" {
			writeHeld(b, st, *heldDir)
		}
		runtime.KeepAlive(st)
	}
}

func writeHeld(b *testing.B, st *Store, dir string) {
	if err := os.MkdirAll(dir, 0o700); err != nil {
		b.Fatal(err)
	}
	f, err := os.Create(filepath.Join(dir, StateFileName))
	if err != nil {
		b.Fatal(err)
	}
	d := NewDataDir(st, 1, func() string { return heldStamp }, func() []Part { return nil }, slog.New(slog.NewTextHandler(io.Discard, nil)))
	if err := d.WriteSnapshot(f); err != nil {
		b.Fatal(err)
	}
	if err := f.Close(); err != nil {
		b.Fatal(err)
	}
}

// BenchmarkContactsRestore restores -contacts-dir and reports the time,
// the heap per contact held and the process's peak RSS.
func BenchmarkContactsRestore(b *testing.B) {
	if *heldDir == "" {
		b.Fatal("BenchmarkContactsRestore restores the -contacts-dir BenchmarkContactsHeld wrote")
	}
	for b.Loop() {
		before := heapInUse()
		st := NewStore()
		d := NewDataDir(st, 1, func() string { return heldStamp }, func() []Part { return nil }, slog.New(slog.NewTextHandler(io.Discard, nil)))
		start, cpu := time.Now(), cpuTime()
		if _, err := d.Restore(*heldDir); err != nil {
			b.Fatal(err)
		}
		took, tookCPU := time.Since(start), cpuTime()-cpu
		n := st.Contacts.Count()
		b.ReportMetric(took.Seconds(), "restore-s")
		b.ReportMetric(tookCPU.Seconds(), "restore-CPU-s")
		b.ReportMetric(float64(heapInUse()-before)/float64(n), "heap-B/contact")
		b.ReportMetric(float64(peakRSS())/(1<<20), "peak-RSS-MiB")
		runtime.KeepAlive(st)
	}
}

// BenchmarkSmallListWrites writes a list of a thousand contacts as
// requests do: each created, looked up, unsubscribed and given a new
// address, so that compact storage is seen not to slow small lists.
func BenchmarkSmallListWrites(b *testing.B) {
	by := &Cause{Kind: CauseCall}
	for b.Loop() {
		st, listID := seedHeld(b, 0)
		cs := st.Contacts
		for i := range 1000 {
			if _, err := cs.Create(listID, heldInput(i), heldStamp, by); err != nil {
				b.Fatal(err)
			}
		}
		for i := range 1000 {
			in := heldInput(i)
			if _, err := cs.Get(listID, in.OriginalID); err != nil {
				b.Fatal(err)
			}
			if _, err := cs.SetStatus(listID, in.OriginalID, StatusUnsubscribed, "", heldStamp, by); err != nil {
				b.Fatal(err)
			}
			email := "new-" + in.OriginalID
			if _, err := cs.UpdateProperties(listID, in.OriginalID, map[string]*string{"email": &email}, heldStamp); err != nil {
				b.Fatal(err)
			}
		}
	}
}
