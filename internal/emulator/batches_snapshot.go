package emulator

// The "batches" part of a snapshot is the state's (state/batches_snapshot.go
// says what is kept of a batch and why); each kind of batch's work writes
// and reads back its own part of a batch's record with its domain
// (imports_snapshot.go, exports_snapshot.go), through the restorers New
// registers.

import "encoding/json"

// restoreBatches replaces the account's batches with the part's
// (state.Batches.Restore); a batch a restart cuts short ends at the
// clock's now.
func (s *batchesAPI) restoreBatches(raw json.RawMessage) error {
	return s.store.Batches.Restore(raw, s.opts.Now(), s.restorers)
}
