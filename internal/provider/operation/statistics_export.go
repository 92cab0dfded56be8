package operation

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"time"

	"github.com/hashicorp/terraform-plugin-framework/diag"
	"github.com/hashicorp/terraform-plugin-framework/path"
	"github.com/hashicorp/terraform-plugin-log/tflog"

	"github.com/rms-labs/terraform-provider-rms/internal/client"
	"github.com/rms-labs/terraform-provider-rms/internal/provider/apidiag"
	"github.com/rms-labs/terraform-provider-rms/internal/provider/batchcore"
)

// The statistics export (start, wait, fetch the result), run by the
// rms_statistics_export resource and the rms_run_statistics_export action;
// both name their arguments export_type, period and output_path.

// StatisticsExport is the export's batch, for the batch core.
var StatisticsExport = batchcore.Operation{
	What: "Statistics export", Noun: "export", BatchType: client.BatchTypeStatsExport,
	DefaultTimeout: 30 * time.Minute,
	PendingNote:    "Until the export has finished, sha256, size, result_url and finished_at are null.",
	FailedNote:     "The export has no result. The next apply starts a new export.",
	Redo:           "starts a new export",

	BatchIDDescription:  "Id of the export's batch.",
	TotalDescription:    "Number of rows the export holds, as the batch reports it.",
	StartedDescription:  "When the service accepted the export (RFC 3339).",
	FinishedDescription: "When the export finished (RFC 3339); null while it runs.",
}

// outputPathAttr is the argument a failed download is reported on.
var outputPathAttr = path.Root("output_path")

// exportFields maps the service's field names onto the arguments.
var exportFields = map[string]path.Path{
	"exportType": path.Root("export_type"),
	"period":     path.Root("period"),
}

// StartStatisticsExport starts an export and returns its batch id. A start
// whose outcome is unknown is read back (the account's STAT_EXPORT batches
// of the same type and period started since the attempt began): a single
// match is adopted, none means the service did not act and the start is
// sent again, several stop the run with their ids. importable says whether
// the caller is the resource, into which one of them can be imported.
func StartStatisticsExport(ctx context.Context, c *client.Client, exportType, period, retryNote string, importable bool, diags *diag.Diagnostics) (string, bool) {
	id, err := c.Exports.StartStatisticsOnce(ctx, client.StatisticsExportRequest{ExportType: exportType, Period: period})
	var amb *client.AmbiguousError
	switch {
	case errors.As(err, &amb):
		advice := "Check them with the rms_batch data source; " + retryNote
		if importable {
			advice = fmt.Sprintf("If one of them is this resource's export, import it, e.g. `terraform import rms_statistics_export.<name> %s/%s/%s`; otherwise %s", amb.IDs[0], exportType, period, retryNote)
		}
		diags.AddError("Unable to tell which statistics export was started",
			fmt.Sprintf("Starting the %s export for %s got no answer, and reading the account's batches back found %d %s exports for %s started just now (batch ids %s): the provider cannot tell which one this start made, so it adopts none and starts none.\n\n%s",
				exportType, period, len(amb.IDs), exportType, period, strings.Join(amb.IDs, ", "), advice))
		return "", false
	case client.IsActed(err):
		// The service answered the start with success but named no batch,
		// and the read-back could not find it (the account has no batches
		// listing, or it failed). An export may exist: say which and how to
		// record it, rather than "no answer came back", which is not so. The
		// raw error, not describeAPIError: the listing's 404/405 hint would
		// point at base_url, which is fine.
		advice := "Check the account's batches (the rms_batch data source reads one by id) before running it again."
		if importable {
			advice = fmt.Sprintf("To record it, find the id of the STAT_EXPORT batch started just now in the service and run `terraform import rms_statistics_export.<name> <batch_id>/%s/%s` before the next apply; otherwise the next apply starts another export.", exportType, period)
		}
		diags.AddError("Statistics export started, its batch unknown",
			fmt.Sprintf("The service accepted the start of the %s export for %s (it answered with success) but its answer named no batch, and the account's batches could not be read back to find it, so a %s export for %s may now exist that Terraform does not record. It is not started again.\n\n%s\n\n%s",
				exportType, period, exportType, period, advice, err))
		return "", false
	case client.IsUncertain(err):
		diags.AddError("Unable to start statistics export",
			apidiag.Describe(err)+"\n\nNo answer came back, and reading the account's batches back did not find an export this start made (or could not be done, as said above), so none is recorded; "+retryNote)
		return "", false
	case err != nil:
		apidiag.Add(diags, "Unable to start statistics export", err, exportFields)
		return "", false
	}
	tflog.Info(ctx, "started statistics export", map[string]any{"batch_id": id.String(), "export_type": exportType, "period": period})
	return id.String(), true
}

// ExportResult is what FetchExportResult found: the result URL and, when
// the file was downloaded, its description.
type ExportResult struct {
	URL      string
	Download *client.Download // nil without an output path
	// ServiceFailed says that the fetch failed on the service's side (the
	// URL or the file did not come), not while writing output_path: the
	// export itself is done, and fetching again later can succeed.
	ServiceFailed bool
}

// FetchExportResult fetches a finished export's result URL and, with an
// output path, downloads the file there. ok is false after an error; the
// URL may still be set when only the download failed.
func FetchExportResult(ctx context.Context, c *client.Client, batchID, outputPath, retryNote string, diags *diag.Diagnostics) (ExportResult, bool) {
	var res ExportResult
	u, err := c.Batches.ResultURL(ctx, batchID)
	if err != nil {
		apidiag.Add(diags, "Unable to get the result URL of statistics export "+batchID, err, nil)
		res.ServiceFailed = true
		return res, false
	}
	res.URL = u
	if outputPath == "" {
		return res, true
	}
	d, err := downloadToFile(ctx, c, batchID, outputPath)
	if err != nil {
		res.ServiceFailed = !errors.As(err, new(localFileError))
		advice := "Check that the path can be written; " + retryNote
		if res.ServiceFailed {
			advice = "The service did not deliver the file; " + retryNote
		}
		diags.AddAttributeError(outputPathAttr, "Unable to download the exported file",
			fmt.Sprintf("Downloading the result of statistics export %s to %s: %s\n\n%s", batchID, outputPath, apidiag.Describe(err), advice))
		return res, false
	}
	tflog.Info(ctx, "downloaded statistics export", map[string]any{"batch_id": batchID, "output_path": outputPath, "size": d.Size, "sha256": d.SHA256})
	res.Download = d
	return res, true
}
