package emulator

import (
	"encoding/json"
	"fmt"
	"io"
)

// Snapshots: the whole state of an account as one JSON document, so that
// rms-emulator -data-dir can stop and start again where it left off (a
// user's CI applies, restarts the emulator, and plans with no changes).
//
//	{ "format": 1, "customerId": 1000, "savedAt": "2026-11-22T10:00:00Z",
//	  "parts": { "store": { ... }, "<area>": { ... } } }
//
// Each area of the emulator that keeps state contributes one part. The store
// (store.go: generic collections and the id counter; contacts_store.go:
// contacts; triggers.go: sent messages; webhooks live in the generic
// collections) is the "store" part (store_snapshot.go); batches (imports' and
// statistics exports') and the imports of lists are the "batches" and
// "imports" parts (batches_snapshot.go, with the work of each kind of batch
// in imports_snapshot.go and exports_snapshot.go).
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
// number. If the area changes state other than in a request handler with a
// method other than GET (those are noticed by handle in mux.go), for
// example work that progresses with the clock, it calls s.changed() after
// the change so that the data dir is brought up to date.
//
// What is not kept: webhook deliveries in flight (they are abandoned at
// shutdown, as the service would not replay them to a restarted receiver
// either), export result URLs (short-lived; a client asks for a new one),
// the rows of a running import (batches_snapshot.go), request statistics,
// and the options (pass the same flags again; the customer id is checked).

// snapshotFormat is the version of the snapshot document; a reader refuses
// any other.
const snapshotFormat = 1

// snapshotDoc is the snapshot document.
type snapshotDoc struct {
	Format     int                        `json:"format"`
	CustomerID int64                      `json:"customerId"`
	SavedAt    string                     `json:"savedAt"`
	Parts      map[string]json.RawMessage `json:"parts"`
}

// snapshotPart is one area's share of a snapshot.
type snapshotPart struct {
	name    string
	save    func() (any, error)
	restore func(json.RawMessage) error
}

// snapshotParts lists, in restore order, every area whose state a snapshot
// keeps. Add one line per area (see "Adding an area's state" above).
func (s *Server) snapshotParts() []snapshotPart {
	return []snapshotPart{
		{name: "store", save: s.store.saveSnapshot, restore: s.store.restoreSnapshot},
		// batches_snapshot.go; batches before imports, which refer to them.
		{name: "batches", save: s.saveBatches, restore: s.restoreBatches},
		{name: "imports", save: s.saveImports, restore: s.restoreImports},
	}
}

// WriteSnapshot writes the account's whole state as a JSON snapshot, the
// form -data-dir keeps in its state file. Each part is taken under its own
// lock; a request answered while the snapshot is written may be in it or not.
func (s *Server) WriteSnapshot(w io.Writer) error {
	doc := snapshotDoc{
		Format:     snapshotFormat,
		CustomerID: s.opts.CustomerID,
		SavedAt:    s.now(),
		Parts:      map[string]json.RawMessage{},
	}
	for _, p := range s.snapshotParts() {
		v, err := p.save()
		if err != nil {
			return fmt.Errorf("saving %s: %w", p.name, err)
		}
		raw, err := json.Marshal(v)
		if err != nil {
			return fmt.Errorf("encoding %s: %w", p.name, err)
		}
		doc.Parts[p.name] = raw
	}
	b, err := json.MarshalIndent(doc, "", " ")
	if err != nil {
		return fmt.Errorf("encoding snapshot: %w", err)
	}
	_, err = w.Write(append(b, '\n'))
	return err
}

// restoreSnapshot replaces the state of a new Server with a snapshot's.
func (s *Server) restoreSnapshot(r io.Reader) error {
	var doc snapshotDoc
	dec := json.NewDecoder(r)
	dec.DisallowUnknownFields()
	if err := dec.Decode(&doc); err != nil {
		return fmt.Errorf("not a snapshot of rms-emulator: %w", err)
	}
	if doc.Format != snapshotFormat {
		return fmt.Errorf("snapshot format %d; this rms-emulator reads format %d only", doc.Format, snapshotFormat)
	}
	if doc.CustomerID != s.opts.CustomerID {
		return fmt.Errorf("the snapshot holds account %d, not %d: start with -customer-id %d, or use another data directory", doc.CustomerID, s.opts.CustomerID, doc.CustomerID)
	}
	parts := s.snapshotParts()
	known := map[string]bool{}
	for _, p := range parts {
		known[p.name] = true
	}
	for name := range doc.Parts {
		if !known[name] {
			// Restoring the rest would lose this part at the next save.
			return fmt.Errorf("the snapshot has a part %q this rms-emulator does not know; it was written by a newer version", name)
		}
	}
	for _, p := range parts {
		raw, ok := doc.Parts[p.name]
		if !ok {
			continue // written before the part existed: the area starts empty
		}
		if err := p.restore(raw); err != nil {
			return fmt.Errorf("restoring %s: %w", p.name, err)
		}
	}
	return nil
}
