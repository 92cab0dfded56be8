package emulator

// Opening an account: fixtures and a data directory applied on top of New.

import (
	"bytes"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
)

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

func joinNonEmpty(a, b string) string {
	if a == "" {
		return b
	}
	return a + "; " + b
}
