package client

import (
	"bufio"
	"context"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"strings"
	"sync"
	"testing"
	"time"
)

// BenchmarkListImport1M imports a generated file of 1,000,000 contacts into
// a list through the client: create the import, stream the file from disk,
// wait for the batch. The emulator runs as a separate process (rms-emulator
// built for the benchmark), so the memory reported is the client's alone:
//
//	peak-heap-MB  the highest live heap seen while importing (sampled)
//	maxrss-MB     the process's peak resident set (getrusage)
//	file-MB       the size of the file, for comparison
//
// Run it with: go test -run '^$' -bench ListImport1M -benchtime 1x ./internal/client/
// The heap stays at a few MB whatever the file's size: the file is never
// held in memory.
func BenchmarkListImport1M(b *testing.B) {
	const rows = 1_000_000
	dir := b.TempDir()
	baseURL := startEmulatorProcess(b, dir)
	c, err := New(Config{BaseURL: baseURL, CustomerID: 1000, Auth: BasicAuth{Username: "rms", Password: "rms-password"}})
	if err != nil {
		b.Fatal(err)
	}
	ctx := context.Background()
	path := filepath.Join(dir, "contacts.csv")
	size := writeContactsFile(b, path, rows)

	runtime.GC()
	peak := startHeapSampler()
	b.ResetTimer()
	for i := range b.N {
		list, err := c.Lists.Create(ctx, ListInput{Name: fmt.Sprintf("bench %d", i)})
		if err != nil {
			b.Fatal(err)
		}
		importID, err := c.Imports.Create(ctx, list.ID.String(), ImportRequest{Delimiter: "44", Encoding: "UTF8", Type: "ADD"})
		if err != nil {
			b.Fatal(err)
		}
		f, err := os.Open(path)
		if err != nil {
			b.Fatal(err)
		}
		batchID, err := c.Imports.Upload(ctx, list.ID.String(), importID.String(), f)
		_ = f.Close()
		if err != nil {
			b.Fatal(err)
		}
		batch, err := c.Batches.Wait(ctx, batchID.String(), PollSchedule{First: 100 * time.Millisecond, Interval: 500 * time.Millisecond}, nil)
		if err != nil {
			b.Fatal(err)
		}
		if batch.Affected != rows {
			b.Fatalf("batch affected %d rows, want %d", batch.Affected, rows)
		}
	}
	b.StopTimer()
	peakHeap := peak()
	b.ReportMetric(float64(peakHeap)/(1<<20), "peak-heap-MB")
	b.ReportMetric(float64(maxRSS())/(1<<20), "maxrss-MB")
	b.ReportMetric(float64(size)/(1<<20), "file-MB")
	b.ReportMetric(float64(rows)*float64(b.N)/b.Elapsed().Seconds(), "rows/s")
	if int64(peakHeap) > size/4 {
		b.Errorf("the client's heap peaked at %d bytes for a %d-byte file: the file is being held in memory", peakHeap, size)
	}
}

// writeContactsFile writes a CSV of n contacts and returns its size.
func writeContactsFile(b *testing.B, path string, n int) int64 {
	b.Helper()
	f, err := os.Create(path)
	if err != nil {
		b.Fatal(err)
	}
	w := bufio.NewWriterSize(f, 1<<20)
	_, _ = w.WriteString("originalId,email,firstname,lastname\n")
	for i := range n {
		_, _ = fmt.Fprintf(w, "customer-%d,customer%d@example.com,First%d,Last%d\n", i, i, i, i)
	}
	if err := w.Flush(); err != nil {
		b.Fatal(err)
	}
	fi, err := f.Stat()
	if err != nil {
		b.Fatal(err)
	}
	if err := f.Close(); err != nil {
		b.Fatal(err)
	}
	return fi.Size()
}

// startEmulatorProcess builds rms-emulator and runs it until the benchmark
// ends; it returns the base URL.
func startEmulatorProcess(b *testing.B, dir string) string {
	b.Helper()
	bin := filepath.Join(dir, "rms-emulator")
	build := exec.Command("go", "build", "-o", bin, "github.com/rms-labs/terraform-provider-rms/cmd/rms-emulator")
	if out, err := build.CombinedOutput(); err != nil {
		b.Fatalf("building rms-emulator: %v\n%s", err, out)
	}
	cmd := exec.Command(bin, "-addr", "127.0.0.1:0")
	stdout, err := cmd.StdoutPipe()
	if err != nil {
		b.Fatal(err)
	}
	if err := cmd.Start(); err != nil {
		b.Fatal(err)
	}
	// The banner's first line names the URL once the emulator listens:
	// reading stdout waits for exactly that. The rest is drained so the
	// emulator never blocks on a full pipe; found is closed at its end.
	found := make(chan string, 1)
	drained := make(chan struct{})
	go func() {
		defer close(drained)
		sc := bufio.NewScanner(stdout)
		for sc.Scan() {
			if u, ok := strings.CutPrefix(sc.Text(), "rms-emulator listening on "); ok {
				found <- u
				break
			}
		}
		close(found)
		_, _ = io.Copy(io.Discard, stdout)
	}()
	b.Cleanup(func() {
		_ = cmd.Process.Signal(os.Interrupt)
		<-drained // Wait closes the pipe: every read must be done first
		_ = cmd.Wait()
	})
	select {
	case u, ok := <-found:
		if !ok {
			b.Fatal("rms-emulator ended its output without the line naming its URL")
		}
		return u
	case <-time.After(30 * time.Second):
		b.Fatal("rms-emulator did not say it was listening within 30s")
		return ""
	}
}

// startHeapSampler samples the live heap every few milliseconds until the
// returned function is called, which returns the highest value seen.
func startHeapSampler() func() uint64 {
	var (
		mu   sync.Mutex
		peak uint64
		done = make(chan struct{})
		wg   sync.WaitGroup
	)
	sample := func() {
		var ms runtime.MemStats
		runtime.ReadMemStats(&ms)
		mu.Lock()
		peak = max(peak, ms.HeapInuse)
		mu.Unlock()
	}
	wg.Add(1)
	go func() {
		defer wg.Done()
		t := time.NewTicker(5 * time.Millisecond)
		defer t.Stop()
		for {
			select {
			case <-done:
				return
			case <-t.C:
				sample()
			}
		}
	}()
	return func() uint64 {
		close(done)
		wg.Wait()
		sample()
		mu.Lock()
		defer mu.Unlock()
		return peak
	}
}
