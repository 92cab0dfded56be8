package state

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"sync"
	"sync/atomic"
	"time"
)

// DefaultSnapshotDelay is how long after a change the data directory is
// written when the delay given is zero: changes closer together than this
// are written once.
const DefaultSnapshotDelay = 200 * time.Millisecond

// defaultJournalAbove is the number of contacts above which changes are
// journaled instead of rewriting the snapshot: up to it a whole rewrite
// takes a few tens of milliseconds.
const defaultJournalAbove = 20000

// defaultCompactAbove is the least journal size that is compacted: below
// it replaying the journal costs less than rewriting the snapshot.
const defaultCompactAbove = 16 << 20

// Changed notes a change to be saved. It never blocks: changes that come
// while a write is pending are written together.
func (p *Persister) Changed() {
	p.pending.Store(true)
	select {
	case p.kick <- struct{}{}:
	default:
	}
}

// Persister brings the data directory up to date after changes, at most
// once per delay, and a last time when stopped (datadir.go describes the
// directory).
type Persister struct {
	d            *DataDir
	path         string // the snapshot
	journal      string
	delay        time.Duration
	journalAbove int           // contacts; negative: always journal
	compactAbove int64         // the least journal size compacted
	kick         chan struct{} // one pending change signal at most
	stop         chan struct{}
	done         chan struct{}
	once         sync.Once
	pending      atomic.Bool // a change not yet saved
	err          error       // of the final write, read after done is closed

	// Owned by the goroutine that writes (run, or Open before it starts).
	snapBytes    int64
	journalBytes int64
	seq          int64
}

// Persister keeps the data directory dir up to date with d, at most once
// per delay (0: DefaultSnapshotDelay). An account of more than journalAbove
// contacts (0: the default; negative: always) has its changes appended to
// the journal, compacted into a new snapshot when it outgrows the snapshot
// and compactAbove bytes (0: the default); a smaller one is written whole.
// From the account restored as r it writes nothing until a change; into a
// new directory it first writes a snapshot. It saves in the background
// until Close.
func (d *DataDir) Persister(dir string, r Restored, delay time.Duration, journalAbove int, compactAbove int64) (*Persister, error) {
	if delay <= 0 {
		delay = DefaultSnapshotDelay
	}
	if journalAbove == 0 {
		journalAbove = defaultJournalAbove
	}
	if compactAbove <= 0 {
		compactAbove = defaultCompactAbove
	}
	p := &Persister{d: d, path: filepath.Join(dir, StateFileName), journal: filepath.Join(dir, JournalFileName),
		delay: delay, journalAbove: journalAbove, compactAbove: compactAbove,
		kick: make(chan struct{}, 1), stop: make(chan struct{}), done: make(chan struct{})}
	if r.Restored {
		// The directory holds the account as restored: nothing to write
		// until it changes.
		p.snapBytes, p.journalBytes, p.seq = r.snapBytes, r.journalEnd, r.seq
	} else if err := p.compact(false); err != nil {
		return nil, err
	}
	go p.run()
	return p, nil
}

func (p *Persister) run() {
	defer close(p.done)
	for {
		select {
		case <-p.kick:
		case <-p.stop:
			p.err = p.last()
			return
		}
		// Let a burst of changes (a terraform apply) settle into one write.
		t := time.NewTimer(p.delay)
		select {
		case <-t.C:
		case <-p.stop:
			t.Stop()
			p.err = p.last()
			return
		}
		if err := p.save(); err != nil {
			p.d.log.Error("writing the data directory", "error", err)
		}
	}
}

// Close saves what is pending and stops; it returns that save's error.
// A journal that has outgrown the snapshot is compacted first, so that the
// next start reads a snapshot. Safe to call more than once.
func (p *Persister) Close() error {
	p.once.Do(func() { close(p.stop) })
	<-p.done
	return p.err
}

// last is the save of a stop: what is pending, then the compaction of a
// journal grown larger than the snapshot, which the running saves leave
// to a stop that comes first (the import of a large list ends with one).
// The stop takes a snapshot's write, and the next start a snapshot's read
// instead of a longer journal's replay.
func (p *Persister) last() error {
	if err := p.save(); err != nil {
		return err
	}
	if p.journalBytes > max(p.snapBytes, p.compactAbove) {
		return p.compact(false)
	}
	return nil
}

// stopping reports whether Close was called.
func (p *Persister) stopping() bool {
	select {
	case <-p.stop:
		return true
	default:
		return false
	}
}

// Save writes what changed since the last save now, without waiting for
// the delay. The background saves go on; call it where nothing else saves
// meanwhile (a test, say).
func (p *Persister) Save() error { return p.save() }

// save writes what changed since the last save, if anything: for an
// account of few contacts a new snapshot, otherwise a journal record,
// compacting the journal into a new snapshot when it has grown larger
// than the snapshot (when stopping, last does that, whole).
func (p *Persister) save() error {
	if !p.pending.Swap(false) {
		return nil
	}
	err := p.saveChanges()
	if err != nil {
		// What the failed save took is saved by the next one, whole.
		p.d.store.Contacts.MarkAllDirty()
		p.pending.Store(true)
	}
	return err
}

func (p *Persister) saveChanges() error {
	if p.journalAbove >= 0 && p.d.store.Contacts.Count() <= p.journalAbove {
		return p.compact(false)
	}
	c, err := p.d.capture(false, true)
	if err != nil {
		return fmt.Errorf("emulator: snapshot: %w", err)
	}
	if err := p.appendJournal(c); err != nil {
		return err
	}
	if p.journalBytes > max(p.snapBytes, p.compactAbove) && !p.stopping() {
		if err := p.compact(true); err != nil && !errors.Is(err, errAbandoned) {
			return err
		}
	}
	return nil
}

// appendJournal appends c's changes as one record, synced.
func (p *Persister) appendJournal(c *stateCapture) error {
	f, err := os.OpenFile(p.journal, os.O_WRONLY|os.O_CREATE|os.O_APPEND, 0o600)
	if err != nil {
		return fmt.Errorf("emulator: writing the journal: %w", err)
	}
	p.seq++
	cw := &sizeWriter{w: f}
	err = appendJournalRecord(cw, c, p.seq)
	p.journalBytes += cw.n
	if err == nil {
		err = f.Sync()
	}
	if cerr := f.Close(); err == nil {
		err = cerr
	}
	if err != nil {
		return fmt.Errorf("emulator: writing %s: %w", p.journal, err)
	}
	return nil
}

// compact writes a new snapshot of the whole account and removes the
// journal. The changes are first journaled from the same capture, so
// whether a crash comes before the rename or after it, the directory
// restores. When abandonable, it gives way to a stop with errAbandoned,
// the journal complete.
func (p *Persister) compact(abandonable bool) error {
	c, err := p.d.capture(true, true)
	if err != nil {
		return fmt.Errorf("emulator: snapshot: %w", err)
	}
	if p.journalBytes > 0 {
		if err := p.appendJournal(c); err != nil {
			return err
		}
	}
	stop := p.stopping
	if !abandonable {
		stop = nil
	}
	n, err := p.writeSnapshotFile(c, stop)
	if err != nil {
		return err
	}
	p.snapBytes = n
	if p.journalBytes > 0 {
		if err := os.Remove(p.journal); err != nil {
			return fmt.Errorf("emulator: removing the compacted journal: %w", err)
		}
		p.journalBytes = 0
	}
	return nil
}

// writeSnapshotFile replaces the state file atomically: the snapshot goes
// to a temporary file in the same directory, is synced, and is renamed
// over the old one, so a crash leaves either the old state or the new,
// never half a file. It returns the file's size.
func (p *Persister) writeSnapshotFile(c *stateCapture, stop func() bool) (int64, error) {
	dir := filepath.Dir(p.path)
	tmp, err := os.CreateTemp(dir, ".state-*.json")
	if err != nil {
		return 0, fmt.Errorf("emulator: writing the state: %w", err)
	}
	defer func() { _ = os.Remove(tmp.Name()) }() // no-op after the rename
	cw := &sizeWriter{w: tmp}
	if err := p.d.writeSnapshot(cw, c, stop); err != nil {
		_ = tmp.Close()
		if errors.Is(err, errAbandoned) {
			return 0, err
		}
		return 0, fmt.Errorf("emulator: writing %s: %w", tmp.Name(), err)
	}
	if err := tmp.Sync(); err != nil {
		_ = tmp.Close()
		return 0, fmt.Errorf("emulator: syncing %s: %w", tmp.Name(), err)
	}
	if err := tmp.Close(); err != nil {
		return 0, fmt.Errorf("emulator: writing %s: %w", tmp.Name(), err)
	}
	if err := os.Rename(tmp.Name(), p.path); err != nil {
		return 0, fmt.Errorf("emulator: replacing the state: %w", err)
	}
	return cw.n, nil
}

// sizeWriter counts what it passes on.
type sizeWriter struct {
	w interface{ Write([]byte) (int, error) }
	n int64
}

func (c *sizeWriter) Write(b []byte) (int, error) {
	n, err := c.w.Write(b)
	c.n += int64(n)
	return n, err
}
