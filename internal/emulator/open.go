package emulator

// Opening an account: fixtures and a data directory applied on top of New.

import (
	"fmt"

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

	var dir state.Restored
	if dataDir != "" {
		var err error
		if dir, err = s.dataDir.Restore(dataDir); err != nil {
			s.Close()
			return nil, err
		}
		s.loaded = dir.Loaded
	}
	restored := dir.Restored
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
		p, err := s.dataDir.Persister(dataDir, dir, opts.SnapshotDelay, opts.journalAbove, opts.compactAbove)
		if err != nil {
			s.Close()
			return nil, err
		}
		s.persist = p
		s.onChange = p.Changed
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

func joinNonEmpty(a, b string) string {
	if a == "" {
		return b
	}
	return a + "; " + b
}
