package emulator

import (
	"bytes"
	"fmt"
	"os"
	"path/filepath"
	"sync"
	"time"
)

// StateFileName is the file in Options.DataDir that holds the account's
// snapshot (snapshot.go).
const StateFileName = "state.json"

// DefaultSnapshotDelay is how long after a change the data directory is
// written when Options.SnapshotDelay is zero: changes closer together than
// this are written once.
const DefaultSnapshotDelay = 200 * time.Millisecond

// changed tells the persister, if any, that the account changed. It never
// blocks: changes that come while a write is pending are written together.
func (s *Server) changed() {
	if s.persist != nil {
		select {
		case s.persist.kick <- struct{}{}:
		default:
		}
	}
}

// persister writes the account's snapshot to its state file after changes,
// at most once per delay, and a last time when stopped.
type persister struct {
	s     *Server
	path  string
	delay time.Duration
	kick  chan struct{} // one pending change signal at most
	stop  chan struct{}
	done  chan struct{}
	once  sync.Once
	err   error // of the final write, read after done is closed
}

func newPersister(s *Server, path string, delay time.Duration) *persister {
	if delay <= 0 {
		delay = DefaultSnapshotDelay
	}
	return &persister{s: s, path: path, delay: delay,
		kick: make(chan struct{}, 1), stop: make(chan struct{}), done: make(chan struct{})}
}

func (p *persister) run() {
	defer close(p.done)
	for {
		select {
		case <-p.kick:
		case <-p.stop:
			p.err = p.write()
			return
		}
		// Let a burst of changes (a terraform apply) settle into one write.
		t := time.NewTimer(p.delay)
		select {
		case <-t.C:
		case <-p.stop:
			t.Stop()
			p.err = p.write()
			return
		}
		if err := p.write(); err != nil {
			p.s.log.Error("writing the data directory", "error", err)
		}
	}
}

// close writes the state a last time and stops; it returns that write's
// error. Safe to call more than once.
func (p *persister) close() error {
	p.once.Do(func() { close(p.stop) })
	<-p.done
	return p.err
}

// write replaces the state file atomically: a snapshot goes to a temporary
// file in the same directory, is synced, and is renamed over the old one,
// so a crash leaves either the old state or the new, never half a file.
func (p *persister) write() error {
	var buf bytes.Buffer
	if err := p.s.WriteSnapshot(&buf); err != nil {
		return fmt.Errorf("emulator: snapshot: %w", err)
	}
	dir := filepath.Dir(p.path)
	tmp, err := os.CreateTemp(dir, ".state-*.json")
	if err != nil {
		return fmt.Errorf("emulator: writing the state: %w", err)
	}
	defer func() { _ = os.Remove(tmp.Name()) }() // no-op after the rename
	if _, err := tmp.Write(buf.Bytes()); err != nil {
		_ = tmp.Close()
		return fmt.Errorf("emulator: writing %s: %w", tmp.Name(), err)
	}
	if err := tmp.Sync(); err != nil {
		_ = tmp.Close()
		return fmt.Errorf("emulator: syncing %s: %w", tmp.Name(), err)
	}
	if err := tmp.Close(); err != nil {
		return fmt.Errorf("emulator: writing %s: %w", tmp.Name(), err)
	}
	if err := os.Rename(tmp.Name(), p.path); err != nil {
		return fmt.Errorf("emulator: replacing the state: %w", err)
	}
	return nil
}
