package emulator

import (
	"io"

	"github.com/rms-labs/terraform-provider-rms/internal/emulator/state"
)

// Snapshots: the whole state of an account as one JSON document, so that
// rms-emulator -data-dir can stop and start again where it left off (a
// user's CI applies, restarts the emulator, and plans with no changes).
//
//	{ "format": 1, "customerId": 1000, "savedAt": "2026-11-22T10:00:00Z",
//	  "parts": { "store": { ... }, "<area>": { ... } } }
//
// Each area of the emulator that keeps state contributes one part. The
// package state's Store (generic collections and the id counter, contacts,
// sent messages; webhooks live in the generic collections) is the "store"
// part (state/store_snapshot.go); batches (imports' and statistics
// exports') and the imports of lists are the "batches" and "imports" parts
// (batches_snapshot.go, with the work of each kind of batch in
// imports_snapshot.go and exports_snapshot.go; the imports of lists are
// the state's, state.Imports, saved by state/imports_snapshot.go).
//
// How the data directory keeps them (a snapshot and a journal of changes
// after it, each streamed, and a crash mid-save leaving a restorable
// directory) is the package state's: state/datadir.go.
//
// # Adding an area's state
//
// An area that keeps state outside the store (batches, imports, ...) adds
// one entry to snapshotParts below: a name, a save function returning a
// JSON-encodable value, and a restore function that reads it back into a
// fresh Server (whose earlier parts are already restored, so it may refer
// to lists and contacts). Restore must check what it reads and return an
// error naming the problem: the file may be damaged or hand-edited. A
// snapshot written before the part existed has no entry for it, and the
// area then simply starts empty; so adding a part needs no new format
// number. Such a part is small, and is saved whole with every journal
// record. If the area changes state other than in a request handler with a
// method other than GET (those are noticed by handle in mux.go), for
// example work that progresses with the clock, it calls s.changed() after
// the change so that the data dir is brought up to date.
//
// What is not kept: webhook deliveries in flight (they are abandoned at
// shutdown, as the service would not replay them to a restarted receiver
// either), export result URLs (short-lived; a client asks for a new one),
// the rows of a running import (batches_snapshot.go), request statistics,
// and the options (pass the same flags again; the customer id is checked).

// StateFileName is the file in Options.DataDir that holds the account's
// snapshot; JournalFileName the changes since (the package state writes
// both).
const (
	StateFileName   = state.StateFileName
	JournalFileName = state.JournalFileName
)

// DefaultSnapshotDelay is how long after a change the data directory is
// written when Options.SnapshotDelay is zero: changes closer together than
// this are written once.
const DefaultSnapshotDelay = state.DefaultSnapshotDelay

// snapshotParts lists, in restore order, every area whose state a snapshot
// keeps besides the store, which comes first. Add one line per area (see
// "Adding an area's state" above).
func (s *Server) snapshotParts() []state.Part {
	return []state.Part{
		// state/batches_snapshot.go; batches before imports, which refer
		// to them.
		{Name: "batches", Save: s.store.Batches.Save, Restore: s.batchesAPI.restoreBatches},
		// state/imports_snapshot.go, checked by imports_snapshot.go.
		{Name: "imports", Save: s.store.Imports.Save, Restore: s.importsAPI.restoreImports},
	}
}

// WriteSnapshot writes the account's whole state as a JSON snapshot, the
// form -data-dir keeps in its state file. Each part is taken under its own
// lock; a request answered while the snapshot is written may be in it or not.
func (s *Server) WriteSnapshot(w io.Writer) error { return s.dataDir.WriteSnapshot(w) }
