package provider

import (
	"context"
	"fmt"
	"slices"
	"strings"
	"time"

	"github.com/hashicorp/terraform-plugin-framework-timeouts/resource/timeouts"
	"github.com/hashicorp/terraform-plugin-framework-timetypes/timetypes"
	"github.com/hashicorp/terraform-plugin-framework-validators/stringvalidator"
	"github.com/hashicorp/terraform-plugin-framework/diag"
	"github.com/hashicorp/terraform-plugin-framework/path"
	"github.com/hashicorp/terraform-plugin-framework/resource"
	"github.com/hashicorp/terraform-plugin-framework/resource/schema"
	"github.com/hashicorp/terraform-plugin-framework/resource/schema/int64planmodifier"
	"github.com/hashicorp/terraform-plugin-framework/resource/schema/mapplanmodifier"
	"github.com/hashicorp/terraform-plugin-framework/resource/schema/planmodifier"
	"github.com/hashicorp/terraform-plugin-framework/resource/schema/stringplanmodifier"
	"github.com/hashicorp/terraform-plugin-framework/schema/validator"
	"github.com/hashicorp/terraform-plugin-framework/types"
	"github.com/hashicorp/terraform-plugin-log/tflog"

	"github.com/rms-labs/terraform-provider-rms/internal/client"
	"github.com/rms-labs/terraform-provider-rms/internal/validators"
)

var (
	_ resource.Resource                = &statisticsExportResource{}
	_ resource.ResourceWithConfigure   = &statisticsExportResource{}
	_ resource.ResourceWithModifyPlan  = &statisticsExportResource{}
	_ resource.ResourceWithImportState = &statisticsExportResource{}
)

// defaultExportTimeout bounds the wait for an export when the timeouts block
// does not.
const defaultExportTimeout = 30 * time.Minute

// NewStatisticsExportResource returns the rms_statistics_export resource.
func NewStatisticsExportResource() resource.Resource { return &statisticsExportResource{} }

// statisticsExportResource runs a statistics export: it starts the batch,
// waits for it, and records (and optionally downloads) its result. It is
// "action-like": creating it runs the export, changing export_type, period
// or triggers runs a new one, and destroying it only forgets it.
//
// Resuming: Terraform marks a resource whose create returned an error as
// tainted and replaces it on the next apply, without showing the provider
// the old state, which would start a second export. So a create that stops
// waiting (timeout, interrupt) keeps the resource with its batch id and
// returns a warning instead; the next plan sees the unfinished batch and
// plans an in-place update that resumes waiting on the same batch. An update
// that times out returns an error, which does not taint.
type statisticsExportResource struct {
	data *providerData
}

type statisticsExportModel struct {
	ID           types.String      `tfsdk:"id"`
	ExportType   types.String      `tfsdk:"export_type"`
	Period       types.String      `tfsdk:"period"`
	Triggers     types.Map         `tfsdk:"triggers"`
	OutputPath   types.String      `tfsdk:"output_path"`
	BatchID      types.String      `tfsdk:"batch_id"`
	Status       types.String      `tfsdk:"status"`
	Total        types.Int64       `tfsdk:"total"`
	ResultURL    types.String      `tfsdk:"result_url"`
	SHA256       types.String      `tfsdk:"sha256"`
	Size         types.Int64       `tfsdk:"size"`
	OutputSHA256 types.String      `tfsdk:"output_sha256"`
	StartedAt    timetypes.RFC3339 `tfsdk:"started_at"`
	FinishedAt   timetypes.RFC3339 `tfsdk:"finished_at"`
	Timeouts     timeouts.Value    `tfsdk:"timeouts"`
}

// exportFields maps the service's field names onto attributes.
var exportFields = map[string]path.Path{
	"exportType": path.Root("export_type"),
	"period":     path.Root("period"),
}

// exportTypeValidator and periodValidator check the interface's values at
// plan time. The interface's own sample request uses OPENED, which the
// service refuses: the diagnostic points at OPENS.
var (
	exportTypeValidator = validators.Enum{Allowed: client.ExportTypes, Hints: map[string]string{"OPENED": "OPENS", "OPEN": "OPENS"}}
	periodValidator     = validators.Enum{Allowed: client.ExportPeriods, Note: "The service exports at most the last two weeks; export daily to keep a longer history."}
)

func (r *statisticsExportResource) Metadata(_ context.Context, req resource.MetadataRequest, resp *resource.MetadataResponse) {
	resp.TypeName = req.ProviderTypeName + "_statistics_export"
}

func (r *statisticsExportResource) Schema(ctx context.Context, _ resource.SchemaRequest, resp *resource.SchemaResponse) {
	timeoutsBlock := timeouts.Block(ctx, timeouts.Opts{
		Create:            true,
		Update:            true,
		CreateDescription: "How long to wait for the export to finish when it is started, as a Go duration (`45m`, `2h`). Default `30m`. When it passes, the apply ends with a warning and the resource keeps the batch id; the next apply resumes waiting on the same batch.",
		UpdateDescription: "How long an apply that resumes waiting on an unfinished export, or fetches its file again, may take. Default `30m`. When it passes, the apply fails; the next apply resumes again.",
	}).(schema.SingleNestedBlock)
	timeoutsBlock.Description = "Time limits of the waits for the export batch."

	resp.Schema = schema.Schema{
		Description: "Runs a statistics export of the account (the service's Batches domain): starts the export, waits for its batch to finish, " +
			"records its result URL and, with `output_path`, streams the exported CSV file to a local path. " +
			"A start that gets no answer is read back (the account's exports of the same type and period) and the export it made adopted, never started twice. " +
			"Changing `export_type`, `period` or `triggers` runs a new export. Destroying the resource only removes it from the state: " +
			"the service has no call to delete an export, and a downloaded file is left in place.",
		Attributes: map[string]schema.Attribute{
			"id": schema.StringAttribute{
				Computed:      true,
				Description:   "The export's batch id (the same as `batch_id`).",
				PlanModifiers: []planmodifier.String{stringplanmodifier.UseStateForUnknown()},
			},
			"export_type": schema.StringAttribute{
				Required:      true,
				Description:   "What to export: one of `LISTS`, `CAMPAIGNS`, `MESSAGES`, `OPENS`, `SENT`, `CLICKS`, `PROJECTS`, `HARD_BOUNCES`, `SOFT_BOUNCES`, `OPTOUTS`. (`OPENED`, used in a sample of the service's documentation, is refused; use `OPENS`.) Changing it runs a new export.",
				Validators:    []validator.String{exportTypeValidator},
				PlanModifiers: []planmodifier.String{stringplanmodifier.RequiresReplace()},
			},
			"period": schema.StringAttribute{
				Required:      true,
				Description:   "The period the statistics cover: `TODAY` (since midnight UTC), `LAST_DAY`, `LAST_3_DAYS`, `LAST_WEEK` or `LAST_2_WEEKS`. Changing it runs a new export.",
				Validators:    []validator.String{periodValidator},
				PlanModifiers: []planmodifier.String{stringplanmodifier.RequiresReplace()},
			},
			"triggers": schema.MapAttribute{
				Optional:      true,
				ElementType:   types.StringType,
				Description:   "Arbitrary values; any change runs a new export. Use it to re-export on a schedule, e.g. `{ day = formatdate(\"YYYY-MM-DD\", plantimestamp()) }`.",
				PlanModifiers: []planmodifier.Map{mapplanmodifier.RequiresReplace()},
			},
			"output_path": schema.StringAttribute{
				Optional: true,
				Description: "Local path to stream the exported CSV file to once the export has finished (missing directories are created; the file is readable by its owner only). " +
					"When the file there is later missing or changed, the next apply downloads it again without running a new export; changing the path downloads it to the new path and leaves the old file alone.",
				Validators: []validator.String{stringvalidator.LengthAtLeast(1)},
			},
			"batch_id": schema.StringAttribute{
				Computed:      true,
				Description:   "Id of the export's batch.",
				PlanModifiers: []planmodifier.String{stringplanmodifier.UseStateForUnknown()},
			},
			"status": schema.StringAttribute{
				Computed:      true,
				Description:   "Status of the batch: `PENDING`, `IN_PROGRESS` or `FINISHED`. Anything but `FINISHED` means an earlier apply stopped waiting; the next apply resumes.",
				PlanModifiers: []planmodifier.String{stringplanmodifier.UseStateForUnknown()},
			},
			"total": schema.Int64Attribute{
				Computed:      true,
				Description:   "Number of rows the export holds, as the batch reports it.",
				PlanModifiers: []planmodifier.Int64{int64planmodifier.UseStateForUnknown()},
			},
			"result_url": schema.StringAttribute{
				Computed:  true,
				Sensitive: true,
				Description: "URL of the exported file in the service's object storage, as fetched when the export finished (or its file was last downloaded). " +
					"It is short-lived (minutes) and lets anyone holding it fetch the file without credentials, so it is sensitive. It is not refreshed on plan: use it in the same apply, or use `output_path`.",
				PlanModifiers: []planmodifier.String{stringplanmodifier.UseStateForUnknown()},
			},
			"sha256": schema.StringAttribute{
				Computed:      true,
				Description:   "Hexadecimal SHA-256 of the exported file as downloaded to `output_path`; null without `output_path`.",
				PlanModifiers: []planmodifier.String{stringplanmodifier.UseStateForUnknown()},
			},
			"size": schema.Int64Attribute{
				Computed:      true,
				Description:   "Size in bytes of the exported file as downloaded to `output_path`; null without `output_path`.",
				PlanModifiers: []planmodifier.Int64{int64planmodifier.UseStateForUnknown()},
			},
			"output_sha256": schema.StringAttribute{
				Computed: true,
				Description: "Hexadecimal SHA-256 of the file found at `output_path` when the state was last refreshed; null when there is no file. " +
					"When it differs from `sha256`, the file was removed or changed locally and the next apply downloads it again.",
				PlanModifiers: []planmodifier.String{stringplanmodifier.UseStateForUnknown()},
			},
			"started_at": schema.StringAttribute{
				Computed:      true,
				CustomType:    timetypes.RFC3339Type{},
				Description:   "When the service accepted the export (RFC 3339).",
				PlanModifiers: []planmodifier.String{stringplanmodifier.UseStateForUnknown()},
			},
			"finished_at": schema.StringAttribute{
				Computed:      true,
				CustomType:    timetypes.RFC3339Type{},
				Description:   "When the export finished (RFC 3339); null while it runs.",
				PlanModifiers: []planmodifier.String{stringplanmodifier.UseStateForUnknown()},
			},
		},
		Blocks: map[string]schema.Block{
			"timeouts": timeoutsBlock,
		},
	}
}

func (r *statisticsExportResource) Configure(_ context.Context, req resource.ConfigureRequest, resp *resource.ConfigureResponse) {
	r.data = configuredData(req.ProviderData, &resp.Diagnostics)
}

// exportUnfinished reports whether an earlier apply stopped before the
// export's result was fetched: the batch was still running, or it finished
// after the wait ended.
func exportUnfinished(m statisticsExportModel) bool {
	return m.Status.ValueString() != client.BatchFinished || m.ResultURL.IsNull()
}

// exportFileStale reports whether the file at output_path must be
// downloaded (again): the path is new, or the file found there on refresh is
// missing or differs from the one downloaded.
func exportFileStale(state, plan statisticsExportModel) bool {
	if plan.OutputPath.IsNull() {
		return false
	}
	return plan.OutputPath.IsUnknown() || !plan.OutputPath.Equal(state.OutputPath) || !state.OutputSHA256.Equal(state.SHA256)
}

// ModifyPlan plans the in-place updates that are not visible in the
// configuration: resuming an unfinished export, and downloading its file
// again when the local copy is gone or changed. Both show in the plan as
// computed values becoming "known after apply".
func (r *statisticsExportResource) ModifyPlan(ctx context.Context, req resource.ModifyPlanRequest, resp *resource.ModifyPlanResponse) {
	if req.State.Raw.IsNull() || req.Plan.Raw.IsNull() {
		return // create or destroy
	}
	var state, plan statisticsExportModel
	resp.Diagnostics.Append(req.State.Get(ctx, &state)...)
	resp.Diagnostics.Append(req.Plan.Get(ctx, &plan)...)
	if resp.Diagnostics.HasError() {
		return
	}
	fileUnknown := func() {
		if plan.OutputPath.IsNull() {
			plan.SHA256, plan.Size, plan.OutputSHA256 = types.StringNull(), types.Int64Null(), types.StringNull()
			return
		}
		plan.SHA256, plan.Size, plan.OutputSHA256 = types.StringUnknown(), types.Int64Unknown(), types.StringUnknown()
	}
	switch {
	case exportUnfinished(state):
		tflog.Info(ctx, "statistics export has not finished in an earlier apply; planning to resume waiting", map[string]any{"batch_id": state.BatchID.ValueString(), "status": state.Status.ValueString()})
		plan.Status, plan.Total, plan.FinishedAt = types.StringUnknown(), types.Int64Unknown(), timetypes.NewRFC3339Unknown()
		plan.ResultURL = types.StringUnknown()
		fileUnknown()
	case exportFileStale(state, plan):
		tflog.Info(ctx, "exported file must be downloaded again", map[string]any{"output_path": plan.OutputPath.ValueString()})
		plan.ResultURL = types.StringUnknown()
		fileUnknown()
	case plan.OutputPath.IsNull():
		fileUnknown()
	}
	resp.Diagnostics.Append(resp.Plan.Set(ctx, plan)...)
}

func (r *statisticsExportResource) Create(ctx context.Context, req resource.CreateRequest, resp *resource.CreateResponse) {
	var plan statisticsExportModel
	resp.Diagnostics.Append(req.Plan.Get(ctx, &plan)...)
	if resp.Diagnostics.HasError() || !requireClient(r.data, &resp.Diagnostics) {
		return
	}
	timeout, diags := plan.Timeouts.Create(ctx, defaultExportTimeout)
	resp.Diagnostics.Append(diags...)
	if resp.Diagnostics.HasError() {
		return
	}
	ctx, cancel := context.WithTimeout(ctx, timeout)
	defer cancel()

	id, ok := startStatisticsExport(ctx, r.data.client, plan.ExportType.ValueString(), plan.Period.ValueString(), "the next apply starts a new one.", true, &resp.Diagnostics)
	if !ok {
		return
	}

	// The export exists on the service from here on: record it before
	// waiting, so that whatever happens next the batch id is not lost.
	m := plan
	m.ID, m.BatchID = types.StringValue(id), types.StringValue(id)
	m.Status, m.Total, m.ResultURL = types.StringNull(), types.Int64Null(), types.StringNull()
	m.SHA256, m.Size, m.OutputSHA256 = types.StringNull(), types.Int64Null(), types.StringNull()
	m.StartedAt, m.FinishedAt = timetypes.NewRFC3339Null(), timetypes.NewRFC3339Null()
	resp.Diagnostics.Append(resp.State.Set(ctx, m)...)
	if resp.Diagnostics.HasError() {
		return
	}

	if r.wait(ctx, &m, timeout, true, &resp.Diagnostics) {
		r.fetchResult(ctx, &m, &resp.Diagnostics)
	}
	resp.Diagnostics.Append(resp.State.Set(ctx, m)...)
}

// wait waits for the export's batch and records what it saw in m. It
// reports whether the batch finished successfully.
func (r *statisticsExportResource) wait(ctx context.Context, m *statisticsExportModel, timeout time.Duration, creating bool, diags *diag.Diagnostics) bool {
	b, ok := waitForBatch(ctx, r.data, statisticsExportWait(m.BatchID.ValueString(), timeout, creating), diags)
	if b != nil {
		exportBatchToModel(b, m)
	}
	return ok
}

// fetchResult records the finished export's result URL and, with
// output_path, downloads the file.
func (r *statisticsExportResource) fetchResult(ctx context.Context, m *statisticsExportModel, diags *diag.Diagnostics) {
	res, ok := fetchExportResult(ctx, r.data.client, m.BatchID.ValueString(), m.OutputPath.ValueString(), "the next apply tries the download again.", diags)
	if res.URL != "" {
		m.ResultURL = types.StringValue(res.URL)
	}
	switch {
	case !ok:
	case res.Download == nil:
		m.SHA256, m.Size, m.OutputSHA256 = types.StringNull(), types.Int64Null(), types.StringNull()
	default:
		d := res.Download
		m.SHA256, m.Size, m.OutputSHA256 = types.StringValue(d.SHA256), types.Int64Value(d.Size), types.StringValue(d.SHA256)
	}
}

func (r *statisticsExportResource) Read(ctx context.Context, req resource.ReadRequest, resp *resource.ReadResponse) {
	var state statisticsExportModel
	resp.Diagnostics.Append(req.State.Get(ctx, &state)...)
	if resp.Diagnostics.HasError() || !requireClient(r.data, &resp.Diagnostics) {
		return
	}
	id := state.BatchID.ValueString()
	b, err := r.data.client.GetBatch(ctx, id)
	if client.IsNotFound(err) {
		tflog.Info(ctx, "statistics export batch is gone; removing it from state", map[string]any{"batch_id": id})
		resp.State.RemoveResource(ctx)
		return
	}
	if err != nil {
		addAPIError(&resp.Diagnostics, "Unable to read statistics export "+id, err, nil)
		return
	}
	if b.Type != "" && b.Type != client.BatchTypeStatsExport {
		resp.Diagnostics.AddError("Not a statistics export",
			fmt.Sprintf("Batch %s is a batch of type %s, not a statistics export (%s). Check the batch id.", id, b.Type, client.BatchTypeStatsExport))
		return
	}
	if failure := b.Err(); failure != nil {
		resp.Diagnostics.AddWarning("Statistics export failed",
			fmt.Sprintf("%s.\n\nIt is removed from the state; the next apply starts a new export.", failure))
		resp.State.RemoveResource(ctx)
		return
	}
	exportBatchToModel(b, &state)
	if !state.OutputPath.IsNull() {
		sum, exists, err := hashFile(state.OutputPath.ValueString())
		switch {
		case err != nil:
			resp.Diagnostics.AddAttributeWarning(pathOutput, "Unable to read the exported file",
				fmt.Sprintf("%s. The next apply downloads the file again.", err))
			state.OutputSHA256 = types.StringNull()
		case !exists:
			state.OutputSHA256 = types.StringNull()
		default:
			state.OutputSHA256 = types.StringValue(sum)
		}
	}
	resp.Diagnostics.Append(resp.State.Set(ctx, state)...)
}

func (r *statisticsExportResource) Update(ctx context.Context, req resource.UpdateRequest, resp *resource.UpdateResponse) {
	var plan, state statisticsExportModel
	resp.Diagnostics.Append(req.Plan.Get(ctx, &plan)...)
	resp.Diagnostics.Append(req.State.Get(ctx, &state)...)
	if resp.Diagnostics.HasError() || !requireClient(r.data, &resp.Diagnostics) {
		return
	}
	timeout, diags := plan.Timeouts.Update(ctx, defaultExportTimeout)
	resp.Diagnostics.Append(diags...)
	if resp.Diagnostics.HasError() {
		return
	}
	ctx, cancel := context.WithTimeout(ctx, timeout)
	defer cancel()

	// Start from what is true now; the configurable values come from the
	// plan (export_type, period and triggers force replacement, so only
	// output_path and timeouts can differ).
	m := state
	m.OutputPath, m.Timeouts = plan.OutputPath, plan.Timeouts

	switch {
	case exportUnfinished(state):
		if r.wait(ctx, &m, timeout, false, &resp.Diagnostics) {
			r.fetchResult(ctx, &m, &resp.Diagnostics)
		}
	case exportFileStale(state, plan):
		r.fetchResult(ctx, &m, &resp.Diagnostics)
	case m.OutputPath.IsNull():
		m.SHA256, m.Size, m.OutputSHA256 = types.StringNull(), types.Int64Null(), types.StringNull()
	}
	resp.Diagnostics.Append(resp.State.Set(ctx, m)...)
}

// Delete only forgets the export: the service has no call that deletes a
// batch or its result.
func (r *statisticsExportResource) Delete(ctx context.Context, req resource.DeleteRequest, resp *resource.DeleteResponse) {
	var state statisticsExportModel
	resp.Diagnostics.Append(req.State.Get(ctx, &state)...)
	if resp.Diagnostics.HasError() {
		return
	}
	detail := fmt.Sprintf("Statistics export %s was removed from the Terraform state only: the service has no call to delete an export, and its result stays available there until the service discards it.", state.BatchID.ValueString())
	if !state.OutputPath.IsNull() {
		detail += fmt.Sprintf(" The downloaded file %s is left in place.", state.OutputPath.ValueString())
	}
	resp.Diagnostics.AddWarning("Statistics export only forgotten", detail)
}

// ImportState takes "<batch_id>/<export_type>/<period>": the batch does not
// say which export it ran, so the import id carries it.
func (r *statisticsExportResource) ImportState(ctx context.Context, req resource.ImportStateRequest, resp *resource.ImportStateResponse) {
	parts := strings.Split(req.ID, "/")
	const usage = "Import an rms_statistics_export as <batch_id>/<export_type>/<period>, e.g. `terraform import rms_statistics_export.daily 12/OPENS/LAST_WEEK`"
	if len(parts) != 3 || !isEntityID(parts[0]) {
		resp.Diagnostics.AddError("Invalid import id", usage+"; got "+quote(req.ID)+".")
		return
	}
	for _, check := range []struct {
		name, value string
		allowed     []string
	}{{"export type", parts[1], client.ExportTypes}, {"period", parts[2], client.ExportPeriods}} {
		if !slices.Contains(check.allowed, check.value) {
			resp.Diagnostics.AddError("Invalid import id",
				fmt.Sprintf("%s: %q is not an allowed %s (%s).", usage, check.value, check.name, strings.Join(check.allowed, ", ")))
			return
		}
	}
	resp.Diagnostics.Append(resp.State.SetAttribute(ctx, path.Root("id"), parts[0])...)
	resp.Diagnostics.Append(resp.State.SetAttribute(ctx, path.Root("batch_id"), parts[0])...)
	resp.Diagnostics.Append(resp.State.SetAttribute(ctx, path.Root("export_type"), parts[1])...)
	resp.Diagnostics.Append(resp.State.SetAttribute(ctx, path.Root("period"), parts[2])...)
}

// exportBatchToModel copies what the batch says into the model.
func exportBatchToModel(b *client.Batch, m *statisticsExportModel) {
	m.Status = types.StringValue(b.Status)
	m.Total = types.Int64Value(b.Total)
	m.StartedAt = batchTimeValue(b.Started())
	m.FinishedAt = batchTimeValue(b.Ended())
}
