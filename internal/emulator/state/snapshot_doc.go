package state

// The form of a snapshot and of one capture of the account, which
// datadir.go writes and reads and persist.go and journal.go save.

import (
	"encoding/json"
	"errors"
)

// snapshotFormat is the version of the snapshot document; a reader refuses
// any other.
const snapshotFormat = 1

// storePart is the name of the store's part, which is always restored
// first and is streamed (state/store_snapshot.go).
const storePart = "store"

// snapshotDoc is the snapshot document's header, as a reader checks it.
type snapshotDoc struct {
	Format     int                        `json:"format"`
	CustomerID int64                      `json:"customerId"`
	SavedAt    string                     `json:"savedAt"`
	Parts      map[string]json.RawMessage `json:"parts"`
}

// Part is one area's share of a snapshot besides the store: Save returns a
// JSON-encodable value, Restore reads it back into a fresh account whose
// earlier parts are already restored.
type Part struct {
	Name    string
	Save    func() (any, error)
	Restore func(json.RawMessage) error
}

// stateCapture is the account at one moment, ready to be written: the
// small parts encoded, the contacts as pointers to the stored values.
type stateCapture struct {
	savedAt string
	store   Snapshot
	parts   map[string]json.RawMessage // the other parts
	lists   []ListCapture              // every list's contacts, when full
	delta   []ListDelta                // the changes since the last save, when taken
}

// errAbandoned is returned by a write that gave way to a stop.
var errAbandoned = errors.New("abandoned for a stop")
