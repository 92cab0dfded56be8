package emulator

import (
	"bufio"
	"bytes"
	"encoding/json"
	"fmt"
	"io"
	"maps"
	"slices"
	"strconv"

	"github.com/rms-labs/terraform-provider-rms/internal/emulator/state"
)

// Snapshots: the whole state of an account as one JSON document, so that
// rms-emulator -data-dir can stop and start again where it left off (a
// user's CI applies, restarts the emulator, and plans with no changes).
//
//	{ "format": 1, "customerId": 1000, "savedAt": "2026-11-22T10:00:00Z",
//	  "parts": { "store": { ... }, "<area>": { ... } } }
//
// Each area of the emulator that keeps state contributes one part. The store
// (state/store.go: generic collections and the id counter; state/contacts_store.go:
// contacts; state/store_messages.go: sent messages; webhooks live in the generic
// collections) is the "store" part (state/store_snapshot.go); batches (imports' and
// statistics exports') and the imports of lists are the "batches" and
// "imports" parts (batches_snapshot.go, with the work of each kind of batch
// in imports_snapshot.go and exports_snapshot.go).
//
// # The data directory: a snapshot and a journal
//
// A data directory holds the snapshot, state.json, and, for an account with
// many contacts, journal.jsonl: the changes since the snapshot (journal.go).
// The snapshot is written whole (format 1, the same document as before there
// was a journal, so every state.json written before still restores) when
// the directory is new, after changes to an account of few contacts (which
// costs little), and when the journal has grown larger than the snapshot
// (compaction). Otherwise a save appends one record to the journal: the
// small parts whole (everything but contacts: a few kilobytes) and the
// contacts added or changed since the last save, so saving one changed
// contact of a million writes a few hundred bytes, and a stop with nothing
// waiting to be saved writes nothing. A compaction runs in the persister's
// goroutine, from contacts captured under the lock (stored contacts are
// immutable, so none are copied) but written outside it, and gives way to a
// stop: it is abandoned, and the journal, complete, stays.
//
// Both are streamed: the snapshot is written record by record to its file
// and read token by token (encoding/json's Decoder), its contacts one
// record at a time into the store (snapshot_contacts.go, state/store_records.go);
// the journal is read line by line. Neither is ever held in memory whole. A crash mid-save leaves a restorable directory: the
// snapshot is replaced by renaming a synced temporary file over it, and a
// journal record ends with an "end" line, so a record cut short by a crash
// (the last one) is ignored with a log line when the directory is restored,
// and cut off before the next save appends. When a compaction has renamed
// the new snapshot but not yet removed the journal, the journal's records
// replay to exactly the snapshot's state (its last record was written from
// the same capture), so restoring both is still right.
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

// snapshotParts lists, in restore order, every area whose state a snapshot
// keeps besides the store, which comes first. Add one line per area (see
// "Adding an area's state" above).
func (s *Server) snapshotParts() []snapshotPart {
	return []snapshotPart{
		// batches_snapshot.go; batches before imports, which refer to them.
		{name: "batches", save: s.batchesAPI.saveBatches, restore: s.batchesAPI.restoreBatches},
		{name: "imports", save: s.importsAPI.saveImports, restore: s.importsAPI.restoreImports},
	}
}

// capture takes the account's state: with full every list's contacts, with
// delta the changes since the last save (which are then no longer pending).
func (s *Server) capture(full, delta bool) (*stateCapture, error) {
	c := &stateCapture{savedAt: s.now(), parts: map[string]json.RawMessage{}}
	st := s.store
	if delta {
		st.Lock()
	} else {
		st.RLock()
	}
	var lists []state.ListCapture
	c.store, lists = st.CaptureLocked(full)
	if full {
		c.lists = lists
	}
	if delta {
		c.delta = st.TakeDeltaLocked()
		st.Unlock()
	} else {
		st.RUnlock()
	}
	for _, p := range s.snapshotParts() {
		v, err := p.save()
		if err != nil {
			return nil, fmt.Errorf("saving %s: %w", p.name, err)
		}
		raw, err := json.Marshal(v)
		if err != nil {
			return nil, fmt.Errorf("encoding %s: %w", p.name, err)
		}
		c.parts[p.name] = raw
	}
	return c, nil
}

// WriteSnapshot writes the account's whole state as a JSON snapshot, the
// form -data-dir keeps in its state file. Each part is taken under its own
// lock; a request answered while the snapshot is written may be in it or not.
func (s *Server) WriteSnapshot(w io.Writer) error {
	c, err := s.capture(true, false)
	if err != nil {
		return err
	}
	return s.writeSnapshot(w, c, nil)
}

// writeSnapshot streams c as a snapshot document; stop, when not nil, is
// asked now and then whether to give up (with errAbandoned).
func (s *Server) writeSnapshot(w io.Writer, c *stateCapture, stop func() bool) error {
	bw := bufio.NewWriterSize(w, 1<<16)
	b := fmt.Appendf(nil, "{\n \"format\": %d,\n \"customerId\": %d,\n \"savedAt\": %s,\n \"parts\": {\n", snapshotFormat, s.opts.CustomerID, state.AppendJSONString(nil, c.savedAt))
	for _, name := range slices.Sorted(maps.Keys(c.parts)) {
		b = state.AppendJSONString(append(b, "  "...), name)
		b = append(b, ": "...)
		b = appendIndented(b, c.parts[name], "  ")
		b = append(b, ",\n"...)
	}
	small, err := json.MarshalIndent(c.store, "  ", " ")
	if err != nil {
		return fmt.Errorf("encoding store: %w", err)
	}
	// The small part's object, opened again to add the contacts before its
	// closing brace.
	small = bytes.TrimRight(small[:len(small)-1], " \n")
	b = append(append(b, "  \"store\": "...), small...)
	b = append(b, ",\n   \"contacts\": {"...)
	for i, l := range c.lists {
		if i > 0 {
			b = append(b, ',')
		}
		b = append(b, "\n    \""...)
		b = strconv.AppendInt(b, l.ID, 10)
		b = append(b, "\": ["...)
		for j, ct := range l.Contacts {
			if j > 0 {
				b = append(b, ',')
			}
			b = state.AppendContactRecord(append(b, "\n     "...), ct)
			if len(b) >= 1<<16 {
				if _, err := bw.Write(b); err != nil {
					return err
				}
				b = b[:0]
				if stop != nil && j%4096 == 0 && stop() {
					return errAbandoned
				}
			}
		}
		if len(l.Contacts) > 0 {
			b = append(b, "\n    "...)
		}
		b = append(b, ']')
	}
	if len(c.lists) > 0 {
		b = append(b, "\n   "...)
	}
	b = append(b, "}\n  }\n }\n}\n"...)
	if _, err := bw.Write(b); err != nil {
		return err
	}
	return bw.Flush()
}

// appendIndented appends raw JSON indented one step per level below prefix.
func appendIndented(b, raw []byte, prefix string) []byte {
	var out bytes.Buffer
	if err := json.Indent(&out, raw, prefix, " "); err != nil {
		return append(b, raw...) // raw came from json.Marshal: never
	}
	return append(b, out.Bytes()...)
}

// finishRestore installs what a restore read: the store, then the other
// parts in order.
func (s *Server) finishRestore(b *state.Builder, raws map[string]json.RawMessage) error {
	if b.HasSmall || len(b.Contacts) > 0 {
		if err := b.Finish(s.store); err != nil {
			return fmt.Errorf("restoring store: %w", err)
		}
	}
	for _, p := range s.snapshotParts() {
		raw, ok := raws[p.name]
		if !ok {
			continue // written before the part existed: the area starts empty
		}
		if err := p.restore(raw); err != nil {
			return fmt.Errorf("restoring %s: %w", p.name, err)
		}
	}
	return nil
}

// readSnapshot reads a snapshot document token by token: its header is
// checked, the store part goes into b contact by contact, and the other
// (small) parts are kept in raws.
func (s *Server) readSnapshot(r io.Reader, b *state.Builder, raws map[string]json.RawMessage) error {
	dec := newDecoderRef(bufio.NewReaderSize(r, 1<<20))
	notSnapshot := func(err error) error { return fmt.Errorf("not a snapshot of rms-emulator: %w", err) }
	if err := expectDelim(dec.Decoder, '{'); err != nil {
		return notSnapshot(err)
	}
	var doc snapshotDoc
	seen := map[string]bool{}
	for dec.More() {
		key, err := objectKey(dec.Decoder)
		if err != nil {
			return notSnapshot(err)
		}
		seen[key] = true
		switch key {
		case "format":
			if err := dec.Decode(&doc.Format); err != nil {
				return notSnapshot(err)
			}
			if err := checkFormat(doc.Format); err != nil {
				return err
			}
		case "customerId":
			err = dec.Decode(&doc.CustomerID)
		case "savedAt":
			err = dec.Decode(&doc.SavedAt)
		case "parts":
			err = s.readParts(dec, b, raws)
		default:
			return notSnapshot(fmt.Errorf("json: unknown field %q", key))
		}
		if err != nil {
			return notSnapshot(err)
		}
	}
	if err := expectDelim(dec.Decoder, '}'); err != nil {
		return notSnapshot(err)
	}
	if err := checkFormat(doc.Format); err != nil {
		return err
	}
	if doc.CustomerID != s.opts.CustomerID {
		return fmt.Errorf("the snapshot holds account %d, not %d: start with -customer-id %d, or use another data directory", doc.CustomerID, s.opts.CustomerID, doc.CustomerID)
	}
	return nil
}

func checkFormat(format int) error {
	if format != snapshotFormat {
		return fmt.Errorf("snapshot format %d; this rms-emulator reads format %d only", format, snapshotFormat)
	}
	return nil
}

// readParts reads the "parts" object.
func (s *Server) readParts(dec *decoderRef, b *state.Builder, raws map[string]json.RawMessage) error {
	if null, err := openOrNull(dec.Decoder, '{'); err != nil || null {
		return err
	}
	known := s.knownParts()
	for dec.More() {
		name, err := objectKey(dec.Decoder)
		if err != nil {
			return err
		}
		if !known[name] {
			// Restoring the rest would lose this part at the next save.
			return fmt.Errorf("the snapshot has a part %q this rms-emulator does not know; it was written by a newer version", name)
		}
		if name == storePart {
			if err := readStorePart(dec, b); err != nil {
				return fmt.Errorf("restoring store: %w", err)
			}
			continue
		}
		var raw json.RawMessage
		if err := dec.Decode(&raw); err != nil {
			return err
		}
		raws[name] = raw
	}
	return expectDelim(dec.Decoder, '}')
}

// knownParts names the parts this emulator restores.
func (s *Server) knownParts() map[string]bool {
	known := map[string]bool{storePart: true}
	for _, p := range s.snapshotParts() {
		known[p.name] = true
	}
	return known
}

// readStorePart reads the store part into b, the contacts one at a time.
func readStorePart(dec *decoderRef, b *state.Builder) error {
	if null, err := openOrNull(dec.Decoder, '{'); err != nil || null {
		return err
	}
	b.HasSmall = true
	for dec.More() {
		key, err := objectKey(dec.Decoder)
		if err != nil {
			return err
		}
		switch key {
		case "nextId":
			err = dec.Decode(&b.Snap.NextID)
		case "collections":
			err = dec.Decode(&b.Snap.Collections)
		case "messages":
			err = dec.Decode(&b.Snap.Messages)
		case "contacts":
			err = readContactsFast(dec, b)
		default:
			var skip json.RawMessage
			err = dec.Decode(&skip)
		}
		if err != nil {
			return err
		}
	}
	return expectDelim(dec.Decoder, '}')
}

// openOrNull reads the opening delimiter want, or null (an absent value).
func openOrNull(dec *json.Decoder, want json.Delim) (null bool, err error) {
	tok, err := dec.Token()
	if err != nil {
		return false, err
	}
	if tok == nil {
		return true, nil
	}
	if d, ok := tok.(json.Delim); !ok || d != want {
		return false, fmt.Errorf("json: %v where %v was expected", tok, want)
	}
	return false, nil
}
