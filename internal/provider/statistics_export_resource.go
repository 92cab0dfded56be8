package provider

import (
	"context"
	"fmt"
	"slices"
	"strings"
	"time"

	"github.com/hashicorp/terraform-plugin-framework-timeouts/resource/timeouts"
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
	"github.com/rms-labs/terraform-provider-rms/internal/provider/batchcore"
	"github.com/rms-labs/terraform-provider-rms/internal/provider/operation"
)

var (
	_ resource.Resource                = &statisticsExportResource{}
	_ resource.ResourceWithConfigure   = &statisticsExportResource{}
	_ resource.ResourceWithModifyPlan  = &statisticsExportResource{}
	_ resource.ResourceWithImportState = &statisticsExportResource{}
)

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
// waiting (timeout, interrupt, the service unreachable), or cannot fetch
// the result of the finished export, keeps the resource with its batch id
// and returns a warning instead; the next plan sees the unfinished batch and
// plans an in-place update that resumes waiting on the same batch. An update
// that stops so returns an error, which does not taint.
type statisticsExportResource struct {
	data *providerData
}

type statisticsExportModel struct {
	ID                   types.String   `tfsdk:"id"`
	statisticsExportArgs                // export_type, period, output_path
	Triggers             types.Map      `tfsdk:"triggers"`
	ResultURL            types.String   `tfsdk:"result_url"`
	SHA256               types.String   `tfsdk:"sha256"`
	Size                 types.Int64    `tfsdk:"size"`
	OutputSHA256         types.String   `tfsdk:"output_sha256"`
	Timeouts             timeouts.Value `tfsdk:"timeouts"`
	batchcore.Model                     // batch_id, status, total, started_at, finished_at
}

func (r *statisticsExportResource) Metadata(_ context.Context, req resource.MetadataRequest, resp *resource.MetadataResponse) {
	resp.TypeName = req.ProviderTypeName + "_statistics_export"
}

func (r *statisticsExportResource) Schema(ctx context.Context, _ resource.SchemaRequest, resp *resource.SchemaResponse) {
	resp.Schema = schema.Schema{
		Description: "Runs a statistics export of the account (the service's Batches domain): starts the export, waits for its batch to finish, records its result URL and, with `output_path`, streams the exported CSV file to a local path. " +
			"A start that gets no answer is read back and the export it made adopted, never started twice; changing `export_type`, `period` or `triggers` runs a new export. " +
			"Destroying the resource only removes it from the state (see Behaviour on this page).",
		Attributes: batchcore.WithAttributes(operation.StatisticsExport, map[string]schema.Attribute{
			"id": schema.StringAttribute{
				Computed:      true,
				Description:   "The export's batch id (the same as `batch_id`).",
				PlanModifiers: []planmodifier.String{stringplanmodifier.UseStateForUnknown()},
			},
			"export_type": schema.StringAttribute{
				Required:      true,
				Description:   exportTypeDescription + exportReplaceNote,
				Validators:    []validator.String{exportTypeValidator},
				PlanModifiers: []planmodifier.String{stringplanmodifier.RequiresReplace()},
			},
			"period": schema.StringAttribute{
				Required:      true,
				Description:   exportPeriodDescription + exportReplaceNote,
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
		}),
		Blocks: map[string]schema.Block{
			"timeouts": batchcore.TimeoutsBlock(ctx, operation.StatisticsExport, ", or fetches its file again,"),
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
	return m.Unfinished() || m.ResultURL.IsNull()
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
		plan.PlanResume(ctx, operation.StatisticsExport)
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
	ctx, cancel, timeout, ok := operationContext(ctx, r.data, plan.Timeouts.Create, operation.StatisticsExport.DefaultTimeout, &resp.Diagnostics)
	defer cancel()
	if !ok {
		return
	}

	id, ok := operation.StartStatisticsExport(ctx, r.data.client, plan.ExportType.ValueString(), plan.Period.ValueString(), "the next apply starts a new one.", true, &resp.Diagnostics)
	if !ok {
		return
	}

	// The export exists on the service from here on: record it before
	// waiting, so that whatever happens next the batch id is not lost.
	m := plan
	m.ID, m.Model = types.StringValue(id), batchcore.Started(id)
	m.ResultURL = types.StringNull()
	m.SHA256, m.Size, m.OutputSHA256 = types.StringNull(), types.Int64Null(), types.StringNull()
	resp.Diagnostics.Append(resp.State.Set(ctx, m)...)
	if resp.Diagnostics.HasError() {
		return
	}

	if r.wait(ctx, &m, timeout, true, &resp.Diagnostics) {
		r.fetchResult(ctx, &m, true, &resp.Diagnostics)
	}
	resp.Diagnostics.Append(resp.State.Set(ctx, m)...)
}

// wait waits for the export's batch and records what it saw in m. It
// reports whether the batch finished successfully.
func (r *statisticsExportResource) wait(ctx context.Context, m *statisticsExportModel, timeout time.Duration, creating bool, diags *diag.Diagnostics) bool {
	_, ok := m.WaitAndRecord(ctx, r.data.batches(), operation.StatisticsExport, timeout, creating, diags)
	return ok
}

// fetchResult records the finished export's result URL and, with
// output_path, downloads the file. When the service does not give them
// (unreachable, failing, an unreadable answer), the result URL stays null,
// so the next plan resumes the export in place and fetches both again: as
// for a wait, a create warns rather than fails, since a failed create is
// replaced by a new export.
func (r *statisticsExportResource) fetchResult(ctx context.Context, m *statisticsExportModel, creating bool, diags *diag.Diagnostics) {
	var fetched diag.Diagnostics
	res, ok := operation.FetchExportResult(ctx, r.data.client, m.BatchID.ValueString(), m.OutputPath.ValueString(), "the next apply tries the download again.", &fetched)
	if res.URL != "" {
		m.ResultURL = types.StringValue(res.URL)
	}
	if res.ServiceFailed {
		m.ResultURL = types.StringNull()
		fetched = batchcore.ResumableDiagnostics(fetched, creating,
			fmt.Sprintf("Statistics export %s has finished on the service; its batch id is kept in the state. Once the service can be reached again, the next apply fetches the result of the same export; it does not start a new one.", m.BatchID.ValueString()))
	}
	diags.Append(fetched...)
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
	state, ok := readModel[statisticsExportModel](ctx, req.State, r.data, &resp.Diagnostics)
	if !ok {
		return
	}
	b := batchcore.Read(ctx, r.data.client, operation.StatisticsExport, state.BatchID.ValueString(), resp)
	if b == nil {
		return
	}
	state.Record(b)
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
	ctx, cancel, timeout, ok := operationContext(ctx, r.data, plan.Timeouts.Update, operation.StatisticsExport.DefaultTimeout, &resp.Diagnostics)
	defer cancel()
	if !ok {
		return
	}

	// Start from what is true now; the configurable values come from the
	// plan (export_type, period and triggers force replacement, so only
	// output_path and timeouts can differ).
	m := state
	m.OutputPath, m.Timeouts = plan.OutputPath, plan.Timeouts

	switch {
	case exportUnfinished(state):
		if r.wait(ctx, &m, timeout, false, &resp.Diagnostics) {
			r.fetchResult(ctx, &m, false, &resp.Diagnostics)
		}
	case exportFileStale(state, plan):
		r.fetchResult(ctx, &m, false, &resp.Diagnostics)
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
	batchcore.Forget(operation.StatisticsExport, detail, &resp.Diagnostics)
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
