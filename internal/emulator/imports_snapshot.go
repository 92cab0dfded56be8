package emulator

// The imports' share of a snapshot: an IMPORT batch's work, and the "imports"
// part. What is kept of an import and why is told in batches_snapshot.go.

import (
	"cmp"
	"encoding/json"
	"fmt"
	"slices"
	"strconv"
	"strings"
	"time"
)

func (s *importsAPI) importWorkFromRecord(rec batchRecord, nextID int64) (batchWork, error) {
	r := rec.Import
	switch {
	case r == nil || rec.Export != nil:
		return nil, fmt.Errorf("an IMPORT batch needs an \"import\" object and no \"export\"")
	case r.ListID <= 0:
		return nil, fmt.Errorf("import.listId %d is not a list id", r.ListID)
	case r.ImportID <= 0 || r.ImportID > nextID:
		return nil, fmt.Errorf("import.importId %d is outside 1..nextId of the store (%d)", r.ImportID, nextID)
	case !slices.Contains(importTypes, r.ImportType):
		return nil, fmt.Errorf("import.importType %q is not one of %s", r.ImportType, strings.Join(importTypes, ", "))
	case r.Total < 0:
		return nil, fmt.Errorf("import.total %d is negative", r.Total)
	}
	if len(r.FailedRows) > maxFailedRowsShown {
		return nil, fmt.Errorf("import.failedRows has %d rows; a batch names at most %d", len(r.FailedRows), maxFailedRowsShown)
	}
	return &importJob{s: s, listID: r.ListID, importID: r.ImportID, typ: r.ImportType, rows: importRows{n: r.Total}, failedRows: r.FailedRows}, nil
}

// importsSnapshot is the "imports" part: every import made by step 1, in id
// order, with the request as the service holds it. An upload in progress at
// the save is not recorded: the import is kept free to be uploaded again.
type importsSnapshot struct {
	Imports []importRecord `json:"imports"`
}

type importRecord struct {
	ID        int64  `json:"id"`
	ListID    int64  `json:"listId"`
	Delimiter int    `json:"delimiter"` // decimal code
	Encoding  string `json:"encoding"`
	Type      string `json:"type"`
	// IdentityColumn is as the request gave it; null when it was left out.
	IdentityColumn *string `json:"identityColumn"`
	DateCreated    string  `json:"dateCreated"`
	BatchID        int64   `json:"batchId,omitempty"` // 0 until uploaded
}

func (s *importsAPI) saveImports() (any, error) {
	s.imports.mu.Lock()
	defer s.imports.mu.Unlock()
	snap := importsSnapshot{Imports: make([]importRecord, 0, len(s.imports.byID))}
	for _, imp := range s.imports.byID {
		rec := importRecord{ID: imp.id, ListID: imp.listID, Delimiter: int(imp.delimiter), Encoding: imp.encoding,
			Type: imp.typ, DateCreated: imp.created, BatchID: imp.batchID}
		if imp.identityGiven != "" {
			given := imp.identityGiven
			rec.IdentityColumn = &given
		}
		snap.Imports = append(snap.Imports, rec)
	}
	slices.SortFunc(snap.Imports, func(a, b importRecord) int { return cmp.Compare(a.ID, b.ID) })
	return snap, nil
}

// restoreImports replaces the account's imports with the part's, after
// checking them as step 1 checks a request, and that an uploaded import's
// batch is an IMPORT batch of this import (the batches part is restored
// first).
func (s *importsAPI) restoreImports(raw json.RawMessage) error {
	var snap importsSnapshot
	if err := decodeStrict(raw, &snap); err != nil {
		return err
	}
	nextID := s.store.LastID()
	byID := map[int64]*listImport{}
	var prev int64
	for i, rec := range snap.Imports {
		where := fmt.Sprintf("imports[%d] (id %d)", i, rec.ID)
		if rec.ID <= 0 || rec.ID > nextID {
			return fmt.Errorf("%s: id is outside 1..nextId of the store (%d)", where, nextID)
		}
		if rec.ID <= prev {
			return fmt.Errorf("%s: id is repeated or not in ascending order", where)
		}
		prev = rec.ID
		if rec.ListID <= 0 {
			return fmt.Errorf("%s: listId %d is not a list id", where, rec.ListID)
		}
		if _, err := delimiterField(map[string]any{"delimiter": strconv.Itoa(rec.Delimiter)}); err != nil {
			return fmt.Errorf("%s: delimiter %d: %s", where, rec.Delimiter, err.Message)
		}
		if !slices.Contains(importEncodings, rec.Encoding) {
			return fmt.Errorf("%s: encoding %q is not one of %s", where, rec.Encoding, strings.Join(importEncodings, ", "))
		}
		if !slices.Contains(importTypes, rec.Type) {
			return fmt.Errorf("%s: type %q is not one of %s", where, rec.Type, strings.Join(importTypes, ", "))
		}
		if _, err := time.Parse(time.RFC3339, rec.DateCreated); err != nil {
			return fmt.Errorf("%s: dateCreated %q is not an RFC 3339 time", where, rec.DateCreated)
		}
		imp := &listImport{id: rec.ID, listID: rec.ListID, delimiter: rune(rec.Delimiter), encoding: rec.Encoding,
			typ: rec.Type, identity: defaultIdentityColumn, created: rec.DateCreated, batchID: rec.BatchID}
		if rec.IdentityColumn != nil {
			v := strings.TrimSpace(*rec.IdentityColumn)
			if v == "" {
				return fmt.Errorf("%s: identityColumn is blank; null when the request left it out", where)
			}
			imp.identity, imp.identityGiven = v, v
		}
		if rec.BatchID != 0 {
			s.batchesAPI.batches.mu.Lock()
			b, ok := s.batchesAPI.batches.byID[rec.BatchID]
			s.batchesAPI.batches.mu.Unlock()
			job, isImport := (*importJob)(nil), false
			if ok {
				job, isImport = b.work.(*importJob)
			}
			if !isImport || job.importID != rec.ID || job.listID != rec.ListID {
				return fmt.Errorf("%s: batchId %d is not an IMPORT batch of this import in the batches part", where, rec.BatchID)
			}
		}
		byID[imp.id] = imp
	}
	s.imports.mu.Lock()
	defer s.imports.mu.Unlock()
	s.imports.byID = byID
	return nil
}

// recordInto writes the import's part of its batch's record.
func (j *importJob) recordInto(rec *batchRecord) {
	rec.Import = &importBatchRecord{ListID: j.listID, ImportID: j.importID, ImportType: j.typ, Total: j.total(), FailedRows: j.failedRows}
}

// cutByRestart ends an import that still had rows to apply, or a REPLACE
// not yet applied: its rows were not kept over the restart.
func (j *importJob) cutByRestart(processed int64, failure string) (string, bool) {
	if processed >= j.total() && (j.typ != "REPLACE" || failure != "") {
		return "", false
	}
	if j.typ == "REPLACE" {
		return fmt.Sprintf("the emulator restarted while this import was running: the REPLACE was not applied (%d of its %d rows had been read); upload the file again with a new import", processed, j.total()), true
	}
	return fmt.Sprintf("the emulator restarted while this import was running: %d of its %d rows were applied, the rest were not; upload the file again with a new import", processed, j.total()), true
}
