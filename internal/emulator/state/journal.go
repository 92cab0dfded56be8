package state

// The journal of a data directory (datadir.go describes when it is
// written): the changes since the snapshot, as records of JSON lines.
//
//	{"seq":3,"savedAt":"...","parts":{"store":{"nextId":..,"collections":..,"messages":..},"batches":..,"imports":..}}
//	{"list":9,"reset":true}
//	{"list":9,"contact":{"id":10,"originalId":"a",...}}
//	{"end":3}
//
// A record begins with the small parts whole, each "list" line (a reset,
// then contacts) carries a contact added or changed since the previous
// record, and the "end" line closes the record: a record without one was
// cut short by a crash and is not applied.

import (
	"bufio"
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"strconv"
)

// JournalFileName is the file in Options.DataDir that holds the changes
// since the snapshot.
const JournalFileName = "journal.jsonl"

// journalLine is any line of the journal.
type journalLine struct {
	Seq     int64                      `json:"seq"`
	SavedAt string                     `json:"savedAt"`
	Parts   map[string]json.RawMessage `json:"parts"`
	List    int64                      `json:"list"`
	Reset   bool                       `json:"reset"`
	Contact *ContactRecord             `json:"contact"`
	End     int64                      `json:"end"`
}

// appendJournalRecord writes c's small parts and delta as record seq.
func appendJournalRecord(w io.Writer, c *stateCapture, seq int64) error {
	bw := bufio.NewWriterSize(w, 1<<16)
	parts := make(map[string]json.RawMessage, len(c.parts)+1)
	for k, v := range c.parts {
		parts[k] = v
	}
	small, err := json.Marshal(c.store)
	if err != nil {
		return fmt.Errorf("encoding store: %w", err)
	}
	parts[storePart] = small
	rawParts, err := json.Marshal(parts)
	if err != nil {
		return fmt.Errorf("encoding the journal record: %w", err)
	}
	// Written by hand, as the other lines are: journalLine, the reader's
	// shape, would give every line every field.
	b := []byte(`{"seq":`)
	b = strconv.AppendInt(b, seq, 10)
	b = append(b, `,"savedAt":`...)
	b = AppendJSONString(b, c.savedAt)
	b = append(b, `,"parts":`...)
	b = append(append(b, rawParts...), "}\n"...)
	for _, d := range c.delta {
		if d.Reset {
			b = append(b, `{"list":`...)
			b = strconv.AppendInt(b, d.ID, 10)
			b = append(b, ",\"reset\":true}\n"...)
		}
		for _, ct := range d.Contacts {
			b = append(b, `{"list":`...)
			b = strconv.AppendInt(b, d.ID, 10)
			b = append(b, `,"contact":`...)
			b = append(AppendContactRecord(b, ct), "}\n"...)
			if len(b) >= 1<<16 {
				if _, err := bw.Write(b); err != nil {
					return err
				}
				b = b[:0]
			}
		}
	}
	b = append(b, `{"end":`...)
	b = append(strconv.AppendInt(b, seq, 10), "}\n"...)
	if _, err := bw.Write(b); err != nil {
		return err
	}
	return bw.Flush()
}

// journalEnd is where the last complete record of the journal at path ends
// (0 when there is none, or no journal), and the last record's seq. A tail
// after it is a record a crash cut short.
func journalEnd(path string) (end, seq int64, tail bool, err error) {
	f, err := os.Open(path)
	if errors.Is(err, fs.ErrNotExist) {
		return 0, 0, false, nil
	}
	if err != nil {
		return 0, 0, false, err
	}
	defer func() { _ = f.Close() }() // read-only
	r := bufio.NewReaderSize(f, 1<<20)
	var off int64
	for {
		line, err := r.ReadSlice('\n')
		off += int64(len(line))
		if err == nil {
			if rest, ok := bytes.CutPrefix(line, []byte(`{"end":`)); ok {
				if n, perr := strconv.ParseInt(string(bytes.TrimSuffix(bytes.TrimSpace(rest), []byte("}"))), 10, 64); perr == nil {
					end, seq = off, n
				}
			}
			continue
		}
		// A line longer than the buffer (not an end line) is skipped whole.
		for errors.Is(err, bufio.ErrBufferFull) {
			line, err = r.ReadSlice('\n')
			off += int64(len(line))
		}
		if err == io.EOF {
			return end, seq, off > end, nil
		}
		if err != nil {
			return 0, 0, false, err
		}
	}
}

// replayJournal applies the journal's complete records (the first end
// bytes of the file) to b and raws, in order; known names the parts this
// emulator restores.
func replayJournal(path string, end int64, b *Builder, raws map[string]json.RawMessage, known map[string]bool) error {
	if end == 0 {
		return nil
	}
	f, err := os.Open(path)
	if err != nil {
		return err
	}
	defer func() { _ = f.Close() }() // read-only
	r := bufio.NewReaderSize(io.LimitReader(f, end), 1<<20)
	inRecord := false
	var rf RecordFields
	var long []byte
	for n := 1; ; n++ {
		// Lines are read in the reader's buffer, without a copy, unless
		// longer than it (a record's first line, with the small parts).
		raw, err := r.ReadSlice('\n')
		if errors.Is(err, bufio.ErrBufferFull) {
			long = append(long[:0], raw...)
			for errors.Is(err, bufio.ErrBufferFull) {
				raw, err = r.ReadSlice('\n')
				long = append(long, raw...)
			}
			raw = long
		}
		if err == io.EOF && len(raw) == 0 {
			return nil
		}
		if err != nil && err != io.EOF {
			return err
		}
		where := func() string { return "journal line " + strconv.Itoa(n) }
		if listID, rec, ok := contactLine(raw); ok && inRecord {
			// The common line, read without reflection.
			if err := ReadRecord(rec, &rf, &b.Recent); err != nil {
				return fmt.Errorf("%s: %w", where(), err)
			}
			if err := b.PutContact(listID, &rf, where); err != nil {
				return err
			}
			continue
		}
		var l journalLine
		if err := json.Unmarshal(raw, &l); err != nil {
			return fmt.Errorf("%s: %w", where(), err)
		}
		switch {
		case l.Parts != nil:
			if err := applyJournalParts(b, raws, l.Parts, known); err != nil {
				return fmt.Errorf("%s: %w", where(), err)
			}
			inRecord = true
		case !inRecord:
			return fmt.Errorf("%s: outside a record", where())
		case l.End != 0:
			inRecord = false
		case l.Reset:
			b.ResetList(l.List)
		case l.Contact != nil:
			rf = FieldsOf(l.Contact)
			if err := b.PutContact(l.List, &rf, where); err != nil {
				return err
			}
		default:
			return fmt.Errorf("%s: not a journal line", where())
		}
	}
}

// contactLine splits a line as appendJournalRecord writes it,
// {"list":ID,"contact":RECORD}, into the list id and the record.
func contactLine(line []byte) (int64, []byte, bool) {
	rest, ok := bytes.CutPrefix(line, []byte(`{"list":`))
	if !ok {
		return 0, nil, false
	}
	digits, rec, ok := bytes.Cut(rest, []byte(`,"contact":`))
	if !ok {
		return 0, nil, false
	}
	listID, err := strconv.ParseInt(string(digits), 10, 64)
	rec = bytes.TrimRight(rec, "\n")
	if err != nil || len(rec) == 0 || rec[len(rec)-1] != '}' {
		return 0, nil, false
	}
	return listID, rec[:len(rec)-1], true
}

// applyJournalParts takes a record's small parts.
func applyJournalParts(b *Builder, raws, parts map[string]json.RawMessage, known map[string]bool) error {
	for name, raw := range parts {
		if !known[name] {
			// Restoring the rest would lose this part at the next save.
			return fmt.Errorf("a part %q this rms-emulator does not know; it was written by a newer version", name)
		}
		if name != storePart {
			raws[name] = raw
			continue
		}
		dec := json.NewDecoder(bytes.NewReader(raw))
		dec.UseNumber() // entity values stay json.Number, as request bodies do
		var snap Snapshot
		if err := dec.Decode(&snap); err != nil {
			return fmt.Errorf("store: %w", err)
		}
		b.SetSmall(snap)
	}
	return nil
}
