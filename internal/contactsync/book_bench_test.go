package contactsync

import (
	"bytes"
	"fmt"
	"maps"
	"math/rand/v2"
	"runtime"
	"slices"
	"testing"

	"github.com/rms-labs/terraform-provider-rms/internal/client"
)

// benchFile is a source file of n rows of four attributes, as the
// largelists scenario of make bench writes it.
func benchFile(n int) []byte {
	var b bytes.Buffer
	b.WriteString("originalId,email,firstname,lastname\n")
	for i := range n {
		// Ids as the largelists scenario writes them: not in id order.
		fmt.Fprintf(&b, "customer-%d,c%d@example.com,First %d,Last\n", i, i, i)
	}
	return b.Bytes()
}

// BenchmarkParseSourceFile reads a 100,000-row file into a book; it
// reports the bytes the book holds per contact (heap in use after, less
// before).
func BenchmarkParseSourceFile(b *testing.B) {
	const n = 100_000
	file := benchFile(n)
	attrs := fakeAttributes{"1": "email", "2": "firstname", "3": "lastname"}
	b.SetBytes(int64(len(file)))
	var held float64
	for b.Loop() {
		runtime.GC()
		var before, after runtime.MemStats
		runtime.ReadMemStats(&before)
		book, err := ParseSourceFile(b.Context(), bytes.NewReader(file), FileOptions{}, attrs)
		if err != nil {
			b.Fatal(err)
		}
		runtime.GC()
		runtime.ReadMemStats(&after)
		held = float64(after.HeapInuse-before.HeapInuse) / n
		runtime.KeepAlive(book)
	}
	b.ReportMetric(held, "held-B/contact")
}

// BenchmarkServiceListAgainst holds a listing of 100,000 contacts, all as
// the file wants them, against the file's book.
func BenchmarkServiceListAgainst(b *testing.B) {
	const n = 100_000
	book, err := ParseSourceFile(b.Context(), bytes.NewReader(benchFile(n)), FileOptions{}, fakeAttributes{"1": "email", "2": "firstname", "3": "lastname"})
	if err != nil {
		b.Fatal(err)
	}
	inOrder := make([]client.Contact, n)
	for i := range inOrder {
		w := book.Contact(i)
		inOrder[i] = client.Contact{OriginalID: w.ID, Properties: w.Props, Status: client.StatusSubscribed}
	}
	shuffled := slices.Clone(inOrder)
	rand.New(rand.NewPCG(1, 2)).Shuffle(n, func(i, j int) { shuffled[i], shuffled[j] = shuffled[j], shuffled[i] })
	for _, bc := range []struct {
		name   string
		listed []client.Contact
	}{{"in the book's order", inOrder}, {"shuffled", shuffled}} {
		b.Run(bc.name, func(b *testing.B) {
			for b.Loop() {
				s := NewServiceList(book, false)
				for _, c := range bc.listed {
					s.Add(c.OriginalID, ServiceContact{Props: c.Properties, Email: c.Status})
				}
				if s.Len() != n {
					b.Fatal(s.Len())
				}
			}
		})
	}
}

// BenchmarkServiceListMapSubset holds a listing of 100,000 contacts for a
// map input: keeping every contact's properties, as a listing did before
// ListOptions.For, and keeping only those of a map of 10. It reports the
// bytes held per listed contact.
func BenchmarkServiceListMapSubset(b *testing.B) {
	const n = 100_000
	listed := make([]ServiceContact, n)
	ids := make([]string, n)
	for i := range listed {
		ids[i] = fmt.Sprintf("customer-%d", i)
		listed[i] = ServiceContact{Email: client.StatusSubscribed, Props: client.PropertyValues{
			"email": fmt.Sprintf("c%d@example.com", i), "firstname": fmt.Sprintf("First %d", i), "lastname": "Last",
		}}
	}
	ten := make([]Desired, 10)
	for i := range ten {
		ten[i] = Desired{ID: ids[i*1000]}
	}
	for _, tc := range []struct {
		name string
		opts ListOptions
	}{
		{"every contact", ListOptions{Props: true}},
		{"a map of 10", ListOptions{Props: true, For: BookOf(ten)}},
	} {
		b.Run(tc.name, func(b *testing.B) {
			var held float64
			for b.Loop() {
				runtime.GC()
				var before, after runtime.MemStats
				runtime.ReadMemStats(&before)
				s := serviceListFor(tc.opts)
				for i, c := range listed {
					// The listing's decoder makes each contact's map afresh.
					if s.keepsProps(ids[i]) {
						c.Props = maps.Clone(c.Props)
					} else {
						c.Props = nil
					}
					s.Add(ids[i], c)
				}
				runtime.GC()
				runtime.ReadMemStats(&after)
				held = float64(after.HeapInuse-before.HeapInuse) / n
				runtime.KeepAlive(s)
			}
			b.ReportMetric(held, "held-B/contact")
		})
	}
}
