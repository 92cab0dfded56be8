package emulator

import (
	"errors"
	"fmt"
	"io"
	"log/slog"
	"os"
	"path/filepath"
	"sync"
	"sync/atomic"
	"time"

	"github.com/rms-labs/terraform-provider-rms/internal/emulator/state"
)

// StateFileName is the file in Options.DataDir that holds the account's
// snapshot (snapshot.go); JournalFileName (journal.go) the changes since.
const StateFileName = "state.json"

// DefaultSnapshotDelay is how long after a change the data directory is
// written when Options.SnapshotDelay is zero: changes closer together than
// this are written once.
const DefaultSnapshotDelay = 200 * time.Millisecond

// defaultJournalAbove is the number of contacts above which changes are
// journaled instead of rewriting the snapshot: up to it a whole rewrite
// takes a few tens of milliseconds.
const defaultJournalAbove = 20000

// defaultCompactAbove is the least journal size that is compacted: below
// it replaying the journal costs less than rewriting the snapshot.
const defaultCompactAbove = 16 << 20

// changed notes a change to be saved. It never blocks: changes that come
// while a write is pending are written together.
func (p *persister) changed() {
	p.pending.Store(true)
	select {
	case p.kick <- struct{}{}:
	default:
	}
}

// persister brings the data directory up to date after changes, at most
// once per delay, and a last time when stopped (snapshot.go describes the
// directory).
type persister struct {
	s            snapshotSource
	store        *state.Store
	log          *slog.Logger
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

// snapshotSource is what a persister saves: a Server captures its state and
// writes it as a snapshot (snapshot.go).
type snapshotSource interface {
	capture(full, delta bool) (*stateCapture, error)
	writeSnapshot(w io.Writer, c *stateCapture, stop func() bool) error
}

func newPersister(s snapshotSource, store *state.Store, log *slog.Logger, dir string, delay time.Duration, journalAbove int, compactAbove int64) *persister {
	if delay <= 0 {
		delay = DefaultSnapshotDelay
	}
	if journalAbove == 0 {
		journalAbove = defaultJournalAbove
	}
	if compactAbove <= 0 {
		compactAbove = defaultCompactAbove
	}
	return &persister{s: s, store: store, log: log, path: filepath.Join(dir, StateFileName), journal: filepath.Join(dir, JournalFileName),
		delay: delay, journalAbove: journalAbove, compactAbove: compactAbove,
		kick: make(chan struct{}, 1), stop: make(chan struct{}), done: make(chan struct{})}
}

func (p *persister) run() {
	defer close(p.done)
	for {
		select {
		case <-p.kick:
		case <-p.stop:
			p.err = p.save()
			return
		}
		// Let a burst of changes (a terraform apply) settle into one write.
		t := time.NewTimer(p.delay)
		select {
		case <-t.C:
		case <-p.stop:
			t.Stop()
			p.err = p.save()
			return
		}
		if err := p.save(); err != nil {
			p.log.Error("writing the data directory", "error", err)
		}
	}
}

// close saves what is pending and stops; it returns that save's error.
// Safe to call more than once.
func (p *persister) close() error {
	p.once.Do(func() { close(p.stop) })
	<-p.done
	return p.err
}

// stopping reports whether close was called.
func (p *persister) stopping() bool {
	select {
	case <-p.stop:
		return true
	default:
		return false
	}
}

// save writes what changed since the last save, if anything: for an
// account of few contacts a new snapshot, otherwise a journal record,
// compacting the journal into a new snapshot when it has grown larger
// than the snapshot (unless stopping, which must not wait for that).
func (p *persister) save() error {
	if !p.pending.Swap(false) {
		return nil
	}
	err := p.saveChanges()
	if err != nil {
		// What the failed save took is saved by the next one, whole.
		p.store.MarkAllListsDirty()
		p.pending.Store(true)
	}
	return err
}

func (p *persister) saveChanges() error {
	if p.journalAbove >= 0 && p.store.ContactCount() <= p.journalAbove {
		return p.compact(false)
	}
	c, err := p.s.capture(false, true)
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
func (p *persister) appendJournal(c *stateCapture) error {
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
func (p *persister) compact(abandonable bool) error {
	c, err := p.s.capture(true, true)
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
func (p *persister) writeSnapshotFile(c *stateCapture, stop func() bool) (int64, error) {
	dir := filepath.Dir(p.path)
	tmp, err := os.CreateTemp(dir, ".state-*.json")
	if err != nil {
		return 0, fmt.Errorf("emulator: writing the state: %w", err)
	}
	defer func() { _ = os.Remove(tmp.Name()) }() // no-op after the rename
	cw := &sizeWriter{w: tmp}
	if err := p.s.writeSnapshot(cw, c, stop); err != nil {
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
