package profile

import (
	"fmt"
	"os"
	"runtime"
	"runtime/metrics"
	"runtime/pprof"
	"sync"
	"time"
)

// memoryVariable names a file prefix for a heap profile of the provider
// process at its peak, for contributors measuring where a large list's
// memory goes (BENCHMARKS.md). A profile written when the process ends
// shows what is live then, not what made the peak: the heap is sampled
// every tick instead, and the profile is written again each time live
// objects grow a tenth past the largest seen, so the file holds the
// profile of the peak (to a tenth).
const memoryVariable = "RMS_MEM_PROFILE"

// memoryTick is how often the heap is sampled.
const memoryTick = 50 * time.Millisecond

// heapObjects is the runtime metric of the bytes live and unswept objects
// take.
const heapObjects = "/memory/classes/heap/objects:bytes"

// StartMemory starts the heap sampling RMS_MEM_PROFILE asks for and
// returns the function that stops it and writes the last profile.
func StartMemory(lookup func(string) (string, bool)) (stop func(), err error) {
	prefix, ok := lookup(memoryVariable)
	if !ok || prefix == "" {
		return func() {}, nil
	}
	p := &peakProfile{name: fmt.Sprintf("%s.%d", prefix, os.Getpid()), done: make(chan struct{})}
	if err := p.write(); err != nil { // at once: an unwritable prefix is said now
		return nil, fmt.Errorf("%s: %w", memoryVariable, err)
	}
	p.wg.Add(1)
	go p.watch()
	return p.stop, nil
}

// peakProfile samples the heap and keeps the profile of its peak.
type peakProfile struct {
	name string
	done chan struct{}
	once sync.Once
	wg   sync.WaitGroup
	peak uint64
}

func (p *peakProfile) watch() {
	defer p.wg.Done()
	sample := []metrics.Sample{{Name: heapObjects}}
	t := time.NewTicker(memoryTick)
	defer t.Stop()
	for {
		select {
		case <-p.done:
			return
		case <-t.C:
		}
		metrics.Read(sample)
		if now := sample[0].Value.Uint64(); now > p.peak+p.peak/10 {
			p.peak = now
			_ = p.write() // best effort: the next peak writes again
		}
	}
}

func (p *peakProfile) stop() {
	p.once.Do(func() {
		close(p.done)
		p.wg.Wait()
	})
}

// write writes the heap profile (in-use and allocated, as the runtime
// samples them) over the file.
func (p *peakProfile) write() error {
	runtime.GC() // the profile counts objects up to the last collection
	f, err := os.Create(p.name)
	if err != nil {
		return err
	}
	if err := pprof.Lookup("heap").WriteTo(f, 0); err != nil {
		_ = f.Close()
		return err
	}
	return f.Close()
}
