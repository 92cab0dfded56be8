package emulator

// Opening an account: fixtures and a data directory applied on top of New.

import (
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"

	"github.com/rms-labs/terraform-provider-rms/internal/emulator/state"
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
	var dir dataDirState
	if dataDir != "" {
		var err error
		if dir, err = s.restoreDataDir(dataDir); err != nil {
			s.Close()
			return nil, err
		}
		restored = dir.restored
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
		p := newPersister(s, s.store, s.log, dataDir, opts.SnapshotDelay, opts.journalAbove, opts.compactAbove)
		if restored {
			// The directory holds the account as restored: nothing to
			// write until it changes.
			p.snapBytes, p.journalBytes, p.seq = dir.snapBytes, dir.journalEnd, dir.seq
		} else if err := p.compact(false); err != nil {
			s.Close()
			return nil, err
		}
		s.persist = p
		s.onChange = p.changed
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

// dataDirState is what restoring a data directory found.
type dataDirState struct {
	restored   bool  // false when there was no snapshot yet (a new data directory)
	snapBytes  int64 // the snapshot's size
	journalEnd int64 // where the journal's last complete record ends
	seq        int64 // that record's number
}

// restoreDataDir restores the account from dir's snapshot and journal. A
// journal record cut short by a crash is logged, ignored and cut off, so
// the next save appends after the last complete one.
func (s *Server) restoreDataDir(dir string) (dataDirState, error) {
	var ds dataDirState
	if err := os.MkdirAll(dir, 0o700); err != nil {
		return ds, fmt.Errorf("emulator: data directory: %w", err)
	}
	path := filepath.Join(dir, StateFileName)
	f, err := os.Open(path)
	if errors.Is(err, fs.ErrNotExist) {
		s.loaded = "a new account in data directory " + dir
		return ds, nil
	}
	if err != nil {
		return ds, fmt.Errorf("emulator: reading the state: %w", err)
	}
	defer func() { _ = f.Close() }() // read-only
	if info, err := f.Stat(); err == nil {
		ds.snapBytes = info.Size()
	}
	b := state.NewBuilder()
	raws := map[string]json.RawMessage{}
	if err := s.readSnapshot(f, b, raws); err != nil {
		return ds, fmt.Errorf("emulator: restoring %s: %w (move the file away to start with an empty account)", path, err)
	}
	jpath := filepath.Join(dir, JournalFileName)
	end, seq, tail, err := journalEnd(jpath)
	if err != nil {
		return ds, fmt.Errorf("emulator: reading the journal: %w", err)
	}
	if tail {
		s.log.Warn("the journal ends with a record cut short (the emulator stopped while saving it): restoring the records before it", "file", jpath, "complete bytes", end)
		if err := os.Truncate(jpath, end); err != nil {
			return ds, fmt.Errorf("emulator: cutting the incomplete record off the journal: %w", err)
		}
	}
	if err := replayJournal(jpath, end, b, raws, s.knownParts()); err != nil {
		return ds, fmt.Errorf("emulator: restoring %s: %w (move it and %s away to start with an empty account)", jpath, err, path)
	}
	if err := s.finishRestore(b, raws); err != nil {
		return ds, fmt.Errorf("emulator: restoring %s: %w (move the file away to start with an empty account)", path, err)
	}
	ds.restored, ds.journalEnd, ds.seq = true, end, seq
	s.loaded = "restored from " + path
	if end > 0 {
		s.loaded += " and " + jpath
	}
	s.log.Info("restored the account", "file", path, "journal bytes", end)
	return ds, nil
}

func joinNonEmpty(a, b string) string {
	if a == "" {
		return b
	}
	return a + "; " + b
}
