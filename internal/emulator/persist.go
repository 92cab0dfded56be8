package emulator

import (
	"bytes"
	"errors"
	"fmt"
	"io/fs"
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

// Open returns a Server for opts, with defaults filled, and with
// opts.Fixtures and opts.DataDir applied:
//
//   - with a DataDir that holds a snapshot, the account is restored from it
//     and Fixtures are not applied again (they were, when the directory was
//     first used);
//   - otherwise Fixtures, when given, preload the new account;
//   - with a DataDir, the state is written there at once, again shortly
//     after every change (Options.SnapshotDelay), and on Close.
//
// Open fails when the fixtures or an entry of opts.WebhookAllowHosts are
// invalid, or the data directory cannot be read or written.
func Open(opts Options) (*Server, error) {
	if err := ValidateWebhookAllowHosts(opts.WebhookAllowHosts); err != nil {
		return nil, fmt.Errorf("emulator: %w", err)
	}
	fixtures, dataDir := opts.Fixtures, opts.DataDir
	opts.Fixtures, opts.DataDir = nil, ""
	s := New(opts)
	s.opts.Fixtures, s.opts.DataDir = fixtures, dataDir

	restored := false
	if dataDir != "" {
		var err error
		if restored, err = s.restoreDataDir(dataDir); err != nil {
			s.Close()
			return nil, err
		}
	}
	if fixtures != nil && !restored {
		counts, err := s.applyFixtures(fixtures)
		if err != nil {
			s.Close()
			return nil, fmt.Errorf("emulator: the fixtures are not valid:\n%w", err)
		}
		s.loaded = joinNonEmpty(s.loaded, "loaded fixtures: "+counts.String())
		s.log.Info("loaded fixtures", "counts", counts.String())
	} else if fixtures != nil {
		s.loaded = joinNonEmpty(s.loaded, "fixtures not applied again")
		s.log.Info("data directory holds a snapshot: fixtures not applied again", "dir", dataDir)
	}
	if dataDir != "" {
		p := newPersister(s, filepath.Join(dataDir, StateFileName), opts.SnapshotDelay)
		if err := p.write(); err != nil {
			s.Close()
			return nil, err
		}
		s.persist = p
		go p.run()
	}
	return s, nil
}

// Loaded says where the account's initial state came from (a data
// directory's snapshot, fixtures, both or neither), for a startup banner.
func (s *Server) Loaded() string {
	if s.loaded == "" {
		return "a new, empty account"
	}
	return s.loaded
}

// restoreDataDir restores the account from dir's state file; restored is
// false when there is none yet (a new data directory).
func (s *Server) restoreDataDir(dir string) (restored bool, err error) {
	if err := os.MkdirAll(dir, 0o700); err != nil {
		return false, fmt.Errorf("emulator: data directory: %w", err)
	}
	path := filepath.Join(dir, StateFileName)
	b, err := os.ReadFile(path)
	if errors.Is(err, fs.ErrNotExist) {
		s.loaded = "a new account in data directory " + dir
		return false, nil
	}
	if err != nil {
		return false, fmt.Errorf("emulator: reading the state: %w", err)
	}
	if err := s.restoreSnapshot(bytes.NewReader(b)); err != nil {
		return false, fmt.Errorf("emulator: restoring %s: %w (move the file away to start with an empty account)", path, err)
	}
	s.loaded = "restored from " + path
	s.log.Info("restored the account", "file", path)
	return true, nil
}

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

func joinNonEmpty(a, b string) string {
	if a == "" {
		return b
	}
	return a + "; " + b
}
