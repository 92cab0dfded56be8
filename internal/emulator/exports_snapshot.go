package emulator

// The statistics exports' share of a snapshot: a STAT_EXPORT batch's work.
// What is kept of an export and why is told in state/batches_snapshot.go.

import (
	"fmt"
	"slices"
	"strings"

	"github.com/rms-labs/terraform-provider-rms/internal/emulator/state"
)

func exportWorkFromRecord(rec state.BatchRecord) (*exportJob, error) {
	r := rec.Export
	switch {
	case r == nil || rec.Import != nil:
		return nil, fmt.Errorf("a STAT_EXPORT batch needs an \"export\" object and no \"import\"")
	case !slices.Contains(exportTypes, r.ExportType):
		return nil, fmt.Errorf("export.exportType %q is not one of %s", r.ExportType, strings.Join(exportTypes, ", "))
	case !slices.Contains(periodOrder, r.Period):
		return nil, fmt.Errorf("export.period %q is not one of %s", r.Period, strings.Join(periodOrder, ", "))
	case len(r.Header) == 0:
		return nil, fmt.Errorf("export.header is empty; the file needs its column names")
	case r.ExtraRows < 0:
		return nil, fmt.Errorf("export.extraRows %d is negative", r.ExtraRows)
	}
	for i, row := range r.Rows {
		if len(row) != len(r.Header) {
			return nil, fmt.Errorf("export.rows[%d] has %d fields; the header has %d", i, len(row), len(r.Header))
		}
	}
	rows := r.Rows
	if len(rows) == 0 {
		rows = nil // as the sources make an empty table
	}
	return &exportJob{exportType: r.ExportType, period: r.Period,
		table: statisticsTable{header: r.Header, rows: rows}, extraRows: r.ExtraRows}, nil
}

// RecordInto writes the export's part of its batch's record.
func (j *exportJob) RecordInto(rec *state.BatchRecord) {
	rows := j.table.rows
	if rows == nil {
		rows = [][]string{}
	}
	rec.Export = &state.ExportBatchRecord{ExportType: j.exportType, Period: j.period,
		Header: j.table.header, Rows: rows, ExtraRows: j.extraRows}
}
