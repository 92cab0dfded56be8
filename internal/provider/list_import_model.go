package provider

import (
	"github.com/hashicorp/terraform-plugin-framework-timeouts/resource/timeouts"
	"github.com/hashicorp/terraform-plugin-framework/types"

	"github.com/rms-labs/terraform-provider-rms/internal/client"
	"github.com/rms-labs/terraform-provider-rms/internal/provider/batchcore"
)

// listImportModel is the state of an rms_list_import, which the resource,
// its plan checks and its adoption of a running import share.
type listImportModel struct {
	ID              types.String   `tfsdk:"id"`
	listImportArgs                 // list_id, type, file, content, delimiter, encoding, identity_column
	Triggers        types.Map      `tfsdk:"triggers"`
	ContentSHA256   types.String   `tfsdk:"content_sha256"`
	ImportID        types.String   `tfsdk:"import_id"`
	Processed       types.Int64    `tfsdk:"processed"`
	Affected        types.Int64    `tfsdk:"affected"`
	Failed          types.Int64    `tfsdk:"failed"`
	PlannedChanges  types.Object   `tfsdk:"planned_changes"`
	Timeouts        timeouts.Value `tfsdk:"timeouts"`
	batchcore.Model                // batch_id, status, total, started_at, finished_at
}

// recordCounts copies the counts only an import's batch has into the
// model (batchcore.Model.Record takes the rest); a count the service does
// not report stays null, not 0.
func (m *listImportModel) recordCounts(b *client.Batch) {
	m.Processed = shownCount(b.Processed, b.Shown.Processed)
	m.Affected = shownCount(b.Affected, b.Shown.Affected)
	m.Failed = shownCount(b.Failed, b.Shown.Failed)
}

func shownCount(n int64, shown bool) types.Int64 {
	if !shown {
		return types.Int64Null()
	}
	return types.Int64Value(n)
}
