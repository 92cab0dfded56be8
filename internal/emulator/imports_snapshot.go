package emulator

// The imports' share of a snapshot: an IMPORT batch's work, and the checks
// of the "imports" part, which the state keeps (state/imports_snapshot.go).
// What is kept of an import's batch and why is told in
// state/batches_snapshot.go.

import (
	"encoding/json"
	"fmt"
	"slices"
	"strconv"
	"strings"

	"github.com/rms-labs/terraform-provider-rms/internal/emulator/state"
)

func (s *importsAPI) importWorkFromRecord(rec state.BatchRecord, nextID int64) (state.Work, error) {
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
	cause := &state.Cause{Kind: state.CauseImport, ImportID: r.ImportID, ImportType: r.ImportType, BatchID: rec.ID}
	return &importJob{s: s, listID: r.ListID, importID: r.ImportID, typ: r.ImportType, rows: importRows{n: r.Total}, failedRows: r.FailedRows, cause: cause}, nil
}

// checkImportRequest checks a restored import's request as step 1 checks
// one (state.Imports.Restore).
func checkImportRequest(imp state.Import) error {
	if _, err := delimiterField(map[string]any{"delimiter": strconv.Itoa(int(imp.Delimiter))}); err != nil {
		return fmt.Errorf("delimiter %d: %s", imp.Delimiter, err.Message)
	}
	if !slices.Contains(importEncodings, imp.Encoding) {
		return fmt.Errorf("encoding %q is not one of %s", imp.Encoding, strings.Join(importEncodings, ", "))
	}
	if !slices.Contains(importTypes, imp.Type) {
		return fmt.Errorf("type %q is not one of %s", imp.Type, strings.Join(importTypes, ", "))
	}
	return nil
}

// checkImportBatch checks that an uploaded import's batch is an IMPORT
// batch of this import (the batches part is restored first).
func (s *importsAPI) checkImportBatch(imp state.Import) error {
	b, ok := s.store.Batches.Get(imp.BatchID)
	job, isImport := (*importJob)(nil), false
	if ok {
		job, isImport = b.Work.(*importJob)
	}
	if !isImport || job.importID != imp.ID || job.listID != imp.ListID {
		return fmt.Errorf("batchId %d is not an IMPORT batch of this import in the batches part", imp.BatchID)
	}
	return nil
}

// restoreImports replaces the account's imports with the part's
// (state.Imports.Restore).
func (s *importsAPI) restoreImports(raw json.RawMessage) error {
	return s.store.Imports.Restore(raw, defaultIdentityColumn, checkImportRequest, s.checkImportBatch)
}

// RecordInto writes the import's part of its batch's record.
func (j *importJob) RecordInto(rec *state.BatchRecord) {
	rec.Import = &state.ImportBatchRecord{ListID: j.listID, ImportID: j.importID, ImportType: j.typ, Total: j.Total(), FailedRows: j.failedRows}
}

// CutByRestart ends an import that still had rows to apply, or a REPLACE
// not yet applied: its rows were not kept over the restart.
func (j *importJob) CutByRestart(processed int64, failure string) (string, bool) {
	if processed >= j.Total() && (j.typ != "REPLACE" || failure != "") {
		return "", false
	}
	if j.typ == "REPLACE" {
		return fmt.Sprintf("the emulator restarted while this import was running: the REPLACE was not applied (%d of its %d rows had been read); upload the file again with a new import", processed, j.Total()), true
	}
	return fmt.Sprintf("the emulator restarted while this import was running: %d of its %d rows were applied, the rest were not; upload the file again with a new import", processed, j.Total()), true
}
