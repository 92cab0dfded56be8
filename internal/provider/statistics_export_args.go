package provider

import (
	"github.com/hashicorp/terraform-plugin-framework/path"
	"github.com/hashicorp/terraform-plugin-framework/types"

	"github.com/rms-labs/terraform-provider-rms/internal/client"
	"github.com/rms-labs/terraform-provider-rms/internal/validators"
)

// The statistics export's arguments, as the rms_statistics_export resource
// and the rms_run_statistics_export action both declare them. What runs
// them is operation.StartStatisticsExport and operation.FetchExportResult.

// The export's arguments, as the resource and the action both declare
// them; the resource adds exportReplaceNote.
const (
	exportTypeDescription   = "What to export: one of `LISTS`, `CAMPAIGNS`, `MESSAGES`, `OPENS`, `SENT`, `CLICKS`, `PROJECTS`, `HARD_BOUNCES`, `SOFT_BOUNCES`, `OPTOUTS`. (`OPENED`, used in a sample of the service's documentation, is refused; use `OPENS`.)"
	exportPeriodDescription = "The period the statistics cover: `TODAY` (since midnight UTC), `LAST_DAY`, `LAST_3_DAYS`, `LAST_WEEK` or `LAST_2_WEEKS`."
	exportReplaceNote       = " Changing it runs a new export."
)

// statisticsExportArgs are the export's arguments: the resource's model and
// the action's both embed them.
type statisticsExportArgs struct {
	ExportType types.String `tfsdk:"export_type"`
	Period     types.String `tfsdk:"period"`
	OutputPath types.String `tfsdk:"output_path"`
}

var pathOutput = path.Root("output_path")

// exportTypeValidator and periodValidator check the interface's values at
// plan time. The interface's own sample request uses OPENED, which the
// service refuses: the diagnostic points at OPENS.
var (
	exportTypeValidator = validators.Enum{Allowed: client.ExportTypes, Hints: map[string]string{"OPENED": "OPENS", "OPEN": "OPENS"}}
	periodValidator     = validators.Enum{Allowed: client.ExportPeriods, Note: "The service exports at most the last two weeks; export daily to keep a longer history."}
)
