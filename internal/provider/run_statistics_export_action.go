package provider

import (
	"context"
	"fmt"

	"github.com/hashicorp/terraform-plugin-framework-validators/stringvalidator"
	"github.com/hashicorp/terraform-plugin-framework/action"
	"github.com/hashicorp/terraform-plugin-framework/action/schema"
	"github.com/hashicorp/terraform-plugin-framework/schema/validator"
	"github.com/hashicorp/terraform-plugin-framework/types"

	"github.com/rms-labs/terraform-provider-rms/internal/provider/batchcore"
	"github.com/rms-labs/terraform-provider-rms/internal/provider/operation"
)

var (
	_ action.Action              = &runStatisticsExportAction{}
	_ action.ActionWithConfigure = &runStatisticsExportAction{}
)

// NewRunStatisticsExportAction returns rms_run_statistics_export: the
// export the rms_statistics_export resource runs, without state, once per
// invocation.
func NewRunStatisticsExportAction() action.Action { return &runStatisticsExportAction{} }

type runStatisticsExportAction struct {
	data *providerData
}

type runStatisticsExportModel struct {
	statisticsExportArgs              // export_type, period, output_path
	Timeout              types.String `tfsdk:"timeout"`
}

const runExportActionType = "rms_run_statistics_export"

func (a *runStatisticsExportAction) Metadata(_ context.Context, req action.MetadataRequest, resp *action.MetadataResponse) {
	resp.TypeName = req.ProviderTypeName + "_run_statistics_export"
}

func (a *runStatisticsExportAction) Schema(_ context.Context, _ action.SchemaRequest, resp *action.SchemaResponse) {
	resp.Schema = schema.Schema{
		Description: "Runs a statistics export each time it is invoked, with `terraform apply -invoke` or from an `action_trigger`: starts the export, waits for its batch and, with `output_path`, streams the CSV file to a local path. " +
			"The export of the `rms_statistics_export` resource, without state; a start that gets no answer is read back and adopted, not repeated (Terraform 1.14+). " +
			"See the guide \"Bulk imports and exports\" (Actions and the lifecycle events they suit).",
		Attributes: map[string]schema.Attribute{
			"export_type": schema.StringAttribute{
				Required:    true,
				Description: exportTypeDescription,
				Validators:  []validator.String{exportTypeValidator},
			},
			"period": schema.StringAttribute{
				Required:    true,
				Description: exportPeriodDescription,
				Validators:  []validator.String{periodValidator},
			},
			"output_path": schema.StringAttribute{
				Optional:    true,
				Description: "Local path to stream the exported CSV file to once the export has finished (missing directories are created; the file is readable by its owner only; an existing file is replaced only once the whole download has arrived).",
				Validators:  []validator.String{stringvalidator.LengthAtLeast(1)},
			},
			"timeout": batchcore.ActionTimeoutAttribute(operation.StatisticsExport),
		},
	}
}

func (a *runStatisticsExportAction) Configure(_ context.Context, req action.ConfigureRequest, resp *action.ConfigureResponse) {
	a.data = configuredData(req.ProviderData, &resp.Diagnostics)
}

func (a *runStatisticsExportAction) Invoke(ctx context.Context, req action.InvokeRequest, resp *action.InvokeResponse) {
	diags := &resp.Diagnostics
	defer func() { resp.Diagnostics = nameAction(runExportActionType, resp.Diagnostics) }()
	var cfg runStatisticsExportModel
	diags.Append(req.Config.Get(ctx, &cfg)...)
	if diags.HasError() || !requireClient(a.data, diags) {
		return
	}
	timeout := batchcore.ActionTimeout(cfg.Timeout, operation.StatisticsExport, diags)
	if diags.HasError() {
		return
	}
	ctx, cancel := context.WithTimeout(ctx, timeout)
	defer cancel()

	const retry = "invoking the action again starts a new export."
	id, ok := operation.StartStatisticsExport(ctx, a.data.client, cfg.ExportType.ValueString(), cfg.Period.ValueString(), retry, false, diags)
	if !ok {
		return
	}
	sendProgress(resp, fmt.Sprintf("%s: started export batch %s (%s, %s)", runExportActionType, id, cfg.ExportType.ValueString(), cfg.Period.ValueString()))
	if _, ok := batchcore.WaitFor(ctx, a.data.batches(), actionWait(operation.StatisticsExport.Wait(id, timeout, false), runExportActionType, resp), diags); !ok {
		return
	}
	res, ok := operation.FetchExportResult(ctx, a.data.client, id, cfg.OutputPath.ValueString(), retry, diags)
	switch {
	case !ok:
	case res.Download != nil:
		sendProgress(resp, fmt.Sprintf("%s: batch %s finished; downloaded %d bytes (SHA-256 %s) to %s", runExportActionType, id, res.Download.Size, res.Download.SHA256, cfg.OutputPath.ValueString()))
	default:
		// The result URL is a bearer credential: never printed.
		sendProgress(resp, fmt.Sprintf("%s: batch %s finished; its result is ready (rms_batch_result_url opens its URL)", runExportActionType, id))
	}
}
