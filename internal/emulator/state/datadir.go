package state

import (
	"bufio"
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"log/slog"
	"maps"
	"os"
	"path/filepath"
	"slices"
	"strconv"
)

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
// waiting to be saved writes nothing. A compaction runs in the Persister's
// goroutine, from contacts captured under the lock (stored contacts are
// immutable, so none are copied) but written outside it, and gives way to a
// stop: it is abandoned, and the stop (Persister.Close) then compacts the
// journal whole, so that the next start reads a snapshot. A crash leaves
// the journal; its contacts are replayed by appending them to their lists,
// each list's tables built once at the end (ListContacts.buildTables), so
// a journal replays about as fast as a snapshot of the same contacts.
//
// Both are streamed: the snapshot is written record by record to its file
// and read token by token (encoding/json's Decoder), its contacts one
// record at a time into the store (snapshot_contacts.go, store_records.go);
// the journal is read line by line. Neither is ever held in memory whole.
// A crash mid-save leaves a restorable directory: the
// snapshot is replaced by renaming a synced temporary file over it, and a
// journal record ends with an "end" line, so a record cut short by a crash
// (the last one) is ignored with a log line when the directory is restored,
// and cut off before the next save appends. When a compaction has renamed
// the new snapshot but not yet removed the journal, the journal's records
// replay to exactly the snapshot's state (its last record was written from
// the same capture), so restoring both is still right.
//
// The emulator's snapshot.go says which parts an account has and how an
// area adds one.

// DataDir is the account as the data directory keeps it: the store, and
// the parts that other areas keep beside it (the emulator's batches and
// imports), in one snapshot document and a journal of changes after it
// (journal.go); a Persister keeps the directory up to date.
type DataDir struct {
	store      *Store
	customerID int64
	now        func() string
	parts      func() []Part
	log        *slog.Logger
}

// NewDataDir returns the data directory form of store; parts lists, in
// restore order, the other areas' parts, which come after the store's.
func NewDataDir(store *Store, customerID int64, now func() string, parts func() []Part, log *slog.Logger) *DataDir {
	return &DataDir{store: store, customerID: customerID, now: now, parts: parts, log: log}
}

// capture takes the account's state: with full every list's contacts, with
// delta the changes since the last save (which are then no longer pending).
func (d *DataDir) capture(full, delta bool) (*stateCapture, error) {
	c := &stateCapture{savedAt: d.now(), parts: map[string]json.RawMessage{}}
	st := d.store
	if delta {
		st.mu.Lock()
	} else {
		st.mu.RLock()
	}
	var lists []ListCapture
	c.store, lists = st.CaptureLocked(full)
	if full {
		c.lists = lists
	}
	if delta {
		c.delta = st.TakeDeltaLocked()
		st.mu.Unlock()
	} else {
		st.mu.RUnlock()
	}
	for _, p := range d.parts() {
		v, err := p.Save()
		if err != nil {
			return nil, fmt.Errorf("saving %s: %w", p.Name, err)
		}
		raw, err := json.Marshal(v)
		if err != nil {
			return nil, fmt.Errorf("encoding %s: %w", p.Name, err)
		}
		c.parts[p.Name] = raw
	}
	return c, nil
}

// writeSnapshot streams c as a snapshot document; stop, when not nil, is
// asked now and then whether to give up (with errAbandoned).
func (d *DataDir) writeSnapshot(w io.Writer, c *stateCapture, stop func() bool) error {
	bw := bufio.NewWriterSize(w, 1<<16)
	b := fmt.Appendf(nil, "{\n \"format\": %d,\n \"customerId\": %d,\n \"savedAt\": %s,\n \"parts\": {\n", snapshotFormat, d.customerID, AppendJSONString(nil, c.savedAt))
	for _, name := range slices.Sorted(maps.Keys(c.parts)) {
		b = AppendJSONString(append(b, "  "...), name)
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
			b = AppendContactRecord(append(b, "\n     "...), ct)
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
func (d *DataDir) finishRestore(b *Builder, raws map[string]json.RawMessage) error {
	if b.HasSmall || len(b.Contacts) > 0 {
		if err := b.Finish(d.store); err != nil {
			return fmt.Errorf("restoring store: %w", err)
		}
	}
	for _, p := range d.parts() {
		raw, ok := raws[p.Name]
		if !ok {
			continue // written before the part existed: the area starts empty
		}
		if err := p.Restore(raw); err != nil {
			return fmt.Errorf("restoring %s: %w", p.Name, err)
		}
	}
	return nil
}

// readSnapshot reads a snapshot document token by token: its header is
// checked, the store part goes into b contact by contact, and the other
// (small) parts are kept in raws.
func (d *DataDir) readSnapshot(r io.Reader, b *Builder, raws map[string]json.RawMessage) error {
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
			err = d.readParts(dec, b, raws)
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
	if doc.CustomerID != d.customerID {
		return fmt.Errorf("the snapshot holds account %d, not %d: start with -customer-id %d, or use another data directory", doc.CustomerID, d.customerID, doc.CustomerID)
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
func (d *DataDir) readParts(dec *decoderRef, b *Builder, raws map[string]json.RawMessage) error {
	if null, err := openOrNull(dec.Decoder, '{'); err != nil || null {
		return err
	}
	known := d.knownParts()
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
func (d *DataDir) knownParts() map[string]bool {
	known := map[string]bool{storePart: true}
	for _, p := range d.parts() {
		known[p.Name] = true
	}
	return known
}

// readStorePart reads the store part into b, the contacts one at a time.
func readStorePart(dec *decoderRef, b *Builder) error {
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

// Restored is what restoring a data directory found.
type Restored struct {
	// Restored is false when there was no snapshot yet (a new data
	// directory).
	Restored bool
	// Loaded says where the account came from, for a startup banner.
	Loaded     string
	snapBytes  int64 // the snapshot's size
	journalEnd int64 // where the journal's last complete record ends
	seq        int64 // that record's number
}

// Restore restores the account from dir's snapshot and journal. A journal
// record cut short by a crash is logged, ignored and cut off, so the next
// save appends after the last complete one.
func (d *DataDir) Restore(dir string) (Restored, error) {
	var ds Restored
	if err := os.MkdirAll(dir, 0o700); err != nil {
		return ds, fmt.Errorf("emulator: data directory: %w", err)
	}
	path := filepath.Join(dir, StateFileName)
	f, err := os.Open(path)
	if errors.Is(err, fs.ErrNotExist) {
		ds.Loaded = "a new account in data directory " + dir
		return ds, nil
	}
	if err != nil {
		return ds, fmt.Errorf("emulator: reading the state: %w", err)
	}
	defer func() { _ = f.Close() }() // read-only
	if info, err := f.Stat(); err == nil {
		ds.snapBytes = info.Size()
	}
	b := NewBuilder()
	raws := map[string]json.RawMessage{}
	if err := d.readSnapshot(f, b, raws); err != nil {
		return ds, fmt.Errorf("emulator: restoring %s: %w (move the file away to start with an empty account)", path, err)
	}
	jpath := filepath.Join(dir, JournalFileName)
	end, seq, tail, err := journalEnd(jpath)
	if err != nil {
		return ds, fmt.Errorf("emulator: reading the journal: %w", err)
	}
	if tail {
		d.log.Warn("the journal ends with a record cut short (the emulator stopped while saving it): restoring the records before it", "file", jpath, "complete bytes", end)
		if err := os.Truncate(jpath, end); err != nil {
			return ds, fmt.Errorf("emulator: cutting the incomplete record off the journal: %w", err)
		}
	}
	if err := replayJournal(jpath, end, b, raws, d.knownParts()); err != nil {
		return ds, fmt.Errorf("emulator: restoring %s: %w (move it and %s away to start with an empty account)", jpath, err, path)
	}
	if err := d.finishRestore(b, raws); err != nil {
		return ds, fmt.Errorf("emulator: restoring %s: %w (move the file away to start with an empty account)", path, err)
	}
	ds.Restored, ds.journalEnd, ds.seq = true, end, seq
	ds.Loaded = "restored from " + path
	if end > 0 {
		ds.Loaded += " and " + jpath
	}
	d.log.Info("restored the account", "file", path, "journal bytes", end)
	return ds, nil
}

// WriteSnapshot writes the account's whole state as a snapshot document.
// Each part is taken under its own lock; a request answered while the
// snapshot is written may be in it or not.
func (d *DataDir) WriteSnapshot(w io.Writer) error {
	c, err := d.capture(true, false)
	if err != nil {
		return err
	}
	return d.writeSnapshot(w, c, nil)
}

// StateFileName is the file of a data directory that holds the account's
// snapshot; JournalFileName (journal.go) the changes since.
const StateFileName = "state.json"
