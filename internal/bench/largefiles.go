package bench

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"time"

	"github.com/rms-labs/terraform-provider-rms/internal/emulator"
)

// FileRow is one large-file apply: an import of a generated CSV through
// rms_list_import, or a statistics export of as many rows streamed to
// output_path, with the provider process's peak memory.
type FileRow struct {
	Scenario string // "import", "export", or "baseline" (one rms_list)
	Rows     int
	Bytes    int64 // the file imported, or the file the export wrote
	Command  string
	Wall     time.Duration
	PeakRSS  int64
	CPU      time.Duration // provider processes
	Counts   Counts
}

// fileScenarios are the resource types LargeFiles needs.
var fileScenarios = []string{"rms_list_import", "rms_statistics_export"}

// LargeFiles applies, for each row count, an rms_list_import of a generated
// CSV of that many contacts and an rms_statistics_export of as many rows
// with output_path, each against a fresh emulator, and reports the peak
// resident memory of the provider process. A one-list apply gives the
// provider's baseline. It returns ErrPending when the provider lacks the
// resources.
func (b *Bench) LargeFiles(ctx context.Context, rows []int) ([]FileRow, error) {
	for _, typ := range fileScenarios {
		ok, err := b.HasResource(ctx, typ)
		if err != nil {
			return nil, err
		}
		if !ok {
			return nil, fmt.Errorf("%w: the provider has no %s", ErrPending, typ)
		}
	}
	var out []FileRow
	base, err := b.fileApply(ctx, "baseline", 0, emulator.Options{}, func(e *Emulator, _ string) (string, error) {
		return fileProvider(e) + `
resource "rms_list" "l" {
  name = "baseline"
}
`, nil
	})
	if err != nil {
		return nil, err
	}
	out = append(out, base)
	for _, n := range rows {
		row, err := b.fileApply(ctx, "import", n, emulator.Options{}, func(e *Emulator, dir string) (string, error) {
			listID, err := e.CreateList(ctx, "import")
			if err != nil {
				return "", err
			}
			path := filepath.Join(dir, "contacts.csv")
			b.logf("large files: writing %d rows", n)
			if _, err := WriteCSVFile(path, n); err != nil {
				return "", err
			}
			return fileProvider(e) + fmt.Sprintf(`
resource "rms_list_import" "i" {
  list_id = %q
  type    = "ADD"
  file    = %q
}
`, listID, path), nil
		})
		if err != nil {
			return out, err
		}
		out = append(out, row)
		row, err = b.fileApply(ctx, "export", n, emulator.Options{StatisticsExportExtraRows: int64(n)}, func(e *Emulator, dir string) (string, error) {
			return fileProvider(e) + fmt.Sprintf(`
resource "rms_statistics_export" "x" {
  export_type = "PROJECTS"
  period      = "TODAY"
  output_path = %q
}
`, filepath.Join(dir, "export.csv")), nil
		})
		if err != nil {
			return out, err
		}
		out = append(out, row)
	}
	return out, nil
}

// fileProvider is the provider block of the large-file and batch scenarios:
// batches are polled every second, so waits do not dominate.
func fileProvider(e *Emulator) string {
	return providerHeader(e, "  batch_poll_interval = \"1s\"\n")
}

// fileApply applies the configuration config writes, in a fresh workspace
// against a fresh emulator, and measures it. The file scenario's size is
// that of contacts.csv or export.csv in the workspace, whichever exists.
func (b *Bench) fileApply(ctx context.Context, scenario string, rows int, opts emulator.Options, config func(e *Emulator, dir string) (string, error)) (FileRow, error) {
	e, err := StartEmulator(opts)
	if err != nil {
		return FileRow{}, err
	}
	defer b.closeEmulator(e)
	ws, err := b.workspace(fmt.Sprintf("files-%s-%d", scenario, rows))
	if err != nil {
		return FileRow{}, err
	}
	hcl, err := config(e, ws.Dir)
	if err != nil {
		return FileRow{}, err
	}
	if err := ws.WriteConfig(hcl); err != nil {
		return FileRow{}, err
	}
	b.logf("large files: %s of %d rows", scenario, rows)
	before := e.Counts()
	run, err := ws.MustSucceed(ctx, 0, "apply", "-auto-approve", "-input=false", "-no-color")
	if err != nil {
		return FileRow{}, err
	}
	row := FileRow{
		Scenario: scenario, Rows: rows, Command: run.Command(), Wall: run.Wall,
		PeakRSS: run.ProviderPeakRSS, CPU: run.ProviderCPU, Counts: e.Counts().Sub(before),
	}
	for _, name := range []string{"contacts.csv", "export.csv"} {
		if st, err := os.Stat(filepath.Join(ws.Dir, name)); err == nil {
			row.Bytes = st.Size()
		}
	}
	// The workspace's files are the largest things the run leaves behind.
	_ = os.Remove(filepath.Join(ws.Dir, "contacts.csv"))
	_ = os.Remove(filepath.Join(ws.Dir, "export.csv"))
	return row, nil
}
