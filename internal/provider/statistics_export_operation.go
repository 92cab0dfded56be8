package provider

import (
	"context"
	"fmt"
	"time"

	"github.com/hashicorp/terraform-plugin-framework/diag"
	"github.com/hashicorp/terraform-plugin-framework/path"
	"github.com/hashicorp/terraform-plugin-log/tflog"

	"github.com/rms-labs/terraform-provider-rms/internal/client"
)

// The statistics export operation (start, wait, fetch the result), shared
// by the rms_statistics_export resource and the rms_run_statistics_export
// action; both name their arguments export_type, period and output_path.

var pathOutput = path.Root("output_path")

// startStatisticsExport starts an export and returns its batch id.
func startStatisticsExport(ctx context.Context, c *client.Client, exportType, period, retryNote string, diags *diag.Diagnostics) (string, bool) {
	id, err := c.StartStatisticsExport(ctx, client.StatisticsExportRequest{ExportType: exportType, Period: period})
	if client.IsUncertain(err) {
		// The interface has no call that lists exports, so an export that
		// may have started cannot be found again to adopt it.
		diags.AddError("Unable to start statistics export",
			describeAPIError(err)+"\n\nThe service may have started the export although no answer came back; it cannot be looked up, so "+retryNote)
		return "", false
	}
	if err != nil {
		addAPIError(diags, "Unable to start statistics export", err, exportFields)
		return "", false
	}
	tflog.Info(ctx, "started statistics export", map[string]any{"batch_id": id.String(), "export_type": exportType, "period": period})
	return id.String(), true
}

// statisticsExportWait is the wait for an export's batch, as the resource
// does it; the action adjusts the notes and adds progress.
func statisticsExportWait(batchID string, timeout time.Duration, creating bool) batchWait {
	return batchWait{
		what: "Statistics export", id: batchID, timeout: timeout, creating: creating,
		pendingNote: "Until the export has finished, sha256, size, result_url and finished_at are null.",
		failedNote:  "The export has no result. The next apply starts a new export.",
	}
}

// exportResult is what fetchExportResult found: the result URL and, when
// the file was downloaded, its description.
type exportResult struct {
	URL      string
	Download *client.Download // nil without an output path
}

// fetchExportResult fetches a finished export's result URL and, with an
// output path, downloads the file there. ok is false after an error; the
// URL may still be set when only the download failed.
func fetchExportResult(ctx context.Context, c *client.Client, batchID, outputPath, retryNote string, diags *diag.Diagnostics) (exportResult, bool) {
	var res exportResult
	u, err := c.GetResultURL(ctx, batchID)
	if err != nil {
		addAPIError(diags, "Unable to get the result URL of statistics export "+batchID, err, nil)
		return res, false
	}
	res.URL = u
	if outputPath == "" {
		return res, true
	}
	d, err := downloadToFile(ctx, c, batchID, outputPath)
	if err != nil {
		diags.AddAttributeError(pathOutput, "Unable to download the exported file",
			fmt.Sprintf("Downloading the result of statistics export %s to %s: %s\n\nCheck that the path can be written; %s", batchID, outputPath, describeAPIError(err), retryNote))
		return res, false
	}
	tflog.Info(ctx, "downloaded statistics export", map[string]any{"batch_id": batchID, "output_path": outputPath, "size": d.Size, "sha256": d.SHA256})
	res.Download = d
	return res, true
}
