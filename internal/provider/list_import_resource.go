package provider

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"slices"
	"strings"
	"time"

	"github.com/hashicorp/terraform-plugin-framework-validators/resourcevalidator"
	"github.com/hashicorp/terraform-plugin-framework-validators/stringvalidator"
	"github.com/hashicorp/terraform-plugin-framework/diag"
	"github.com/hashicorp/terraform-plugin-framework/path"
	"github.com/hashicorp/terraform-plugin-framework/resource"
	"github.com/hashicorp/terraform-plugin-framework/resource/schema"
	"github.com/hashicorp/terraform-plugin-framework/resource/schema/mapplanmodifier"
	"github.com/hashicorp/terraform-plugin-framework/resource/schema/planmodifier"
	"github.com/hashicorp/terraform-plugin-framework/resource/schema/stringdefault"
	"github.com/hashicorp/terraform-plugin-framework/resource/schema/stringplanmodifier"
	"github.com/hashicorp/terraform-plugin-framework/schema/validator"
	"github.com/hashicorp/terraform-plugin-framework/types"

	"github.com/rms-labs/terraform-provider-rms/internal/client"
	"github.com/rms-labs/terraform-provider-rms/internal/provider/batchcore"
	"github.com/rms-labs/terraform-provider-rms/internal/provider/operation"
	"github.com/rms-labs/terraform-provider-rms/internal/validators"
)

var (
	_ resource.Resource                     = &listImportResource{}
	_ resource.ResourceWithConfigure        = &listImportResource{}
	_ resource.ResourceWithConfigValidators = &listImportResource{}
	_ resource.ResourceWithModifyPlan       = &listImportResource{}
	_ resource.ResourceWithImportState      = &listImportResource{}
)

// NewListImportResource returns the rms_list_import resource.
func NewListImportResource() resource.Resource { return &listImportResource{} }

// listImportResource runs the interface's three-step import: create the
// import, upload the file (streamed from disk), wait for the batch. It is
// action-like: a changed file (content_sha256, computed at plan time),
// changed settings or triggers run a new import; destroy only forgets.
//
// It saves state after each step that made something on the service. As
// for exports, a create whose wait is cut short warns and keeps the batch,
// so that the next plan resumes the wait in place instead of importing
// again (see batchcore.WaitFor). A create or upload whose outcome is unknown is
// read back and adopted (operation.StartListImport); an upload that still fails is an
// error, and the next apply starts a new import, which is safe since
// importing the same file twice has the same effect.
type listImportResource struct {
	data *providerData
}

func (r *listImportResource) Metadata(_ context.Context, req resource.MetadataRequest, resp *resource.MetadataResponse) {
	resp.TypeName = req.ProviderTypeName + "_list_import"
}

func (r *listImportResource) Schema(ctx context.Context, _ resource.SchemaRequest, resp *resource.SchemaResponse) {
	replace := []planmodifier.String{replaceUnlessImported()}
	resp.Schema = schema.Schema{
		Description: "Imports a CSV file into a list through the service's three-step import (`ADD`, `REPLACE` or `UNSUBSCRIBE`) and waits for the batch that applies it; no import is created, nor file uploaded, twice. " +
			"A changed file, changed settings or `triggers` run a new import, and `UNSUBSCRIBE` and `REPLACE` imports are held by the guardrail on mass unsubscription. " +
			"Destroying the resource only removes it from the state (see Behaviour on this page).",
		Attributes: batchcore.WithAttributes(operation.ListImport, guardrailResourceAttributes(map[string]schema.Attribute{
			"id": schema.StringAttribute{
				Computed:      true,
				Description:   "The import id (the same as `import_id`).",
				PlanModifiers: []planmodifier.String{stringplanmodifier.UseStateForUnknown()},
			},
			"list_id": schema.StringAttribute{
				Required:      true,
				Description:   importListIDDescription + importReplaceNote,
				Validators:    []validator.String{listIDValidator},
				PlanModifiers: []planmodifier.String{stringplanmodifier.RequiresReplace()},
			},
			"type": schema.StringAttribute{
				Required:      true,
				Description:   importTypeDescription + importReplaceNote,
				Validators:    []validator.String{importTypeValidator},
				PlanModifiers: []planmodifier.String{stringplanmodifier.RequiresReplace()},
			},
			"file": schema.StringAttribute{
				Optional:    true,
				Description: importFileDescription + " A change of the file's content runs a new import; moving the same content to another path does not.",
				Validators:  []validator.String{stringvalidator.LengthAtLeast(1)},
			},
			"content": schema.StringAttribute{
				Optional:    true,
				Sensitive:   true,
				Description: "The CSV to import, inline (for small files; it is kept in the state and sensitive, as it holds contact data). Give `file` or `content`. A change runs a new import.",
			},
			"delimiter": schema.StringAttribute{
				Optional:      true,
				Computed:      true,
				Default:       stringdefault.StaticString(operation.ImportDefaultDelimiter),
				Description:   importDelimiterDescription + importReplaceNote,
				Validators:    []validator.String{validators.Delimiter()},
				PlanModifiers: replace,
			},
			"encoding": schema.StringAttribute{
				Optional:      true,
				Computed:      true,
				Default:       stringdefault.StaticString(operation.ImportDefaultEncoding),
				Description:   importEncodingDescription + importReplaceNote,
				Validators:    []validator.String{importEncodingValidator},
				PlanModifiers: replace,
			},
			"identity_column": schema.StringAttribute{
				Optional:      true,
				Description:   importIdentityDescription + importReplaceNote,
				Validators:    []validator.String{stringvalidator.LengthAtLeast(1)},
				PlanModifiers: replace,
			},
			"triggers": schema.MapAttribute{
				Optional:      true,
				ElementType:   types.StringType,
				Description:   "Arbitrary values; any change runs the import again, e.g. to re-import the same file on a schedule.",
				PlanModifiers: []planmodifier.Map{mapReplaceUnlessImported()},
			},
			"content_sha256": schema.StringAttribute{
				Computed: true,
				Description: "Hexadecimal SHA-256 of the file (or `content`), computed at plan time by reading the file as a stream. When it changes, the import runs again. " +
					"A file rewritten between `terraform plan -out` and `terraform apply PLANFILE` is refused before anything is imported: when the plan replaces an import, by the provider's \"Import file changed since the plan\" (the replaced import stays in the state); for a new import, by Terraform's own \"Provider produced inconsistent final plan ... produced an invalid new value for .content_sha256\", which here means the file changed: plan again.",
				PlanModifiers: []planmodifier.String{contentHashModifier{}},
			},
			"import_id": schema.StringAttribute{
				Computed:      true,
				Description:   "Id of the import on the service (step 1).",
				PlanModifiers: []planmodifier.String{stringplanmodifier.UseStateForUnknown()},
			},
			"processed":       batchcore.CountAttribute("Rows handled."),
			"affected":        batchcore.CountAttribute("Rows that changed a contact (for `REPLACE`, the contacts the list holds afterwards)."),
			"failed":          batchcore.CountAttribute("Rows the service could not handle (a wrong number of fields, an empty identity). More than `max_failed_rows` makes the apply an error; the service goes on with the other rows. Null when the service does not report it."),
			attrMaxFailedRows: failedRowsResourceAttribute(),
		}, "a new import of this resource")),
		Blocks: map[string]schema.Block{
			"timeouts": batchcore.TimeoutsBlock(ctx, operation.ListImport, ""),
		},
	}
	resp.Schema.Attributes[attrPlannedChanges] = listImportPlannedChangesAttribute()
	resp.Schema.Attributes[attrSuppressionListID] = suppressionResourceAttribute("Rows of recipients the suppression list holds are held back from an `ADD` or `REPLACE` upload and written unsubscribed by single calls; a `REPLACE` first copies the opt-outs of the contacts it removes there.")
}

func (r *listImportResource) ConfigValidators(context.Context) []resource.ConfigValidator {
	return []resource.ConfigValidator{
		resourcevalidator.ExactlyOneOf(path.MatchRoot("file"), path.MatchRoot("content")),
	}
}

func (r *listImportResource) Configure(_ context.Context, req resource.ConfigureRequest, resp *resource.ConfigureResponse) {
	r.data = configuredData(req.ProviderData, &resp.Diagnostics)
}

// ModifyPlan refuses a file the service could not read as declared
// (list_import_checks.go), holds back a new import that unsubscribes or
// removes too many contacts (list_import_guardrail.go), and plans the
// resumption of an import whose batch had not finished when an earlier
// apply stopped waiting.
func (r *listImportResource) ModifyPlan(ctx context.Context, req resource.ModifyPlanRequest, resp *resource.ModifyPlanResponse) {
	checkListImportPlan(ctx, r.data, req, resp)
	if resp.Diagnostics.HasError() {
		return
	}
	if req.State.Raw.IsNull() && !req.Plan.Raw.IsNull() {
		var plan listImportModel
		if resp.Diagnostics.Append(req.Plan.Get(ctx, &plan)...); !resp.Diagnostics.HasError() {
			counted := r.guardNewImport(ctx, plan, resp)
			// A replacement's destroy half checks the file against this plan
			// (list_import_planned_file.go).
			resp.Diagnostics.Append(notePlannedFile(ctx, plan, resp.Private)...)
			planImportChanges(ctx, plan, counted, resp)
		}
	}
	if !req.State.Raw.IsNull() && !req.Plan.Raw.IsNull() {
		planRedoRefusedRows(ctx, req, resp)
	}
	if req.State.Raw.IsNull() || req.Plan.Raw.IsNull() {
		return
	}
	var state, plan listImportModel
	resp.Diagnostics.Append(req.State.Get(ctx, &state)...)
	resp.Diagnostics.Append(req.Plan.Get(ctx, &plan)...)
	if resp.Diagnostics.HasError() || !state.Unfinished() {
		return
	}
	warnUnjudged(ctx, state, plan, req.Private, &resp.Diagnostics)
	plan.PlanResume(ctx, operation.ListImport)
	plan.Processed, plan.Affected, plan.Failed = types.Int64Unknown(), types.Int64Unknown(), types.Int64Unknown()
	resp.Diagnostics.Append(resp.Plan.Set(ctx, plan)...)
}

func (r *listImportResource) Create(ctx context.Context, req resource.CreateRequest, resp *resource.CreateResponse) {
	var plan listImportModel
	resp.Diagnostics.Append(req.Plan.Get(ctx, &plan)...)
	ctx, cancel, timeout, ok := operationContext(ctx, r.data, plan.Timeouts.Create, operation.ListImport.DefaultTimeout, &resp.Diagnostics)
	defer cancel()
	if !ok {
		return
	}

	// Open the file first: a file that is gone or changed since plan fails
	// before anything is created on the service. Then every check of the
	// plan runs again (list_import_checks.go): the plan could not run them
	// on a file made during the apply, and an import the service refuses
	// the file of stays behind without a batch.
	body, closeBody, err := openImportBody(plan.File, plan.Content, plan.ContentSHA256.ValueString())
	if err != nil {
		resp.Diagnostics.AddAttributeError(path.Root("file"), "Unable to read the import file", err.Error())
		return
	}
	defer closeBody()
	if checkImportArgs(ctx, plan.listImportArgs, importAttributes(r.data, plan.listImportArgs), true, &resp.Diagnostics); resp.Diagnostics.HasError() {
		return
	}
	// Suppressed rows are held back (list_import_suppression.go).
	upload, sup, doneSup, ok := prepareImportSuppression(ctx, r.data, plan.listImportArgs, body, &resp.Diagnostics)
	if !ok {
		return
	}
	defer doneSup()

	m := plan
	m.PlannedChanges = appliedImportChanges(plan.PlannedChanges)
	saved := func() bool {
		resp.Diagnostics.Append(resp.State.Set(ctx, m)...)
		return !resp.Diagnostics.HasError()
	}
	run := plan.run(upload, "The next apply starts a new import.")
	// Step 1 made the import: record it before anything else can fail.
	run.Created = func(importID string) bool {
		m.ID, m.ImportID = types.StringValue(importID), types.StringValue(importID)
		m.Model = batchcore.Started("")
		m.Processed, m.Affected, m.Failed = types.Int64Null(), types.Int64Null(), types.Int64Null()
		return saved()
	}
	run.Uploaded = func(batchID string) bool {
		m.BatchID = types.StringValue(batchID)
		return saved()
	}
	_, ok = operation.StartListImport(ctx, r.data.client, r.data.contacts.Listings, run, &resp.Diagnostics)
	if !ok {
		return
	}
	if m.BatchID.IsNull() { // accepted without a batch to wait on (see operation.StartListImport)
		resp.Diagnostics.Append(resp.State.Set(ctx, m)...)
		return
	}

	if b, ok := r.wait(ctx, &m, timeout, true, &resp.Diagnostics); ok && finishImportSuppression(ctx, r.data, plan.listImportArgs, sup, b, &resp.Diagnostics) {
		// An error here taints the new import; its ids and counts stay in
		// the state, so nothing is orphaned, and the replacement Terraform
		// plans next runs the (corrected) file as a new import.
		judgeFailedRows(&resp.Diagnostics, b, m.maxFailedRows(), fmt.Sprintf(
			"Terraform marks the new import (import %s, batch %s) as tainted; it stays in the state with its counts. The next apply runs the file again as a new import: correct the file first, or raise max_failed_rows.",
			m.ImportID.ValueString(), m.BatchID.ValueString()))
	}
	resp.Diagnostics.Append(resp.State.Set(ctx, m)...)
}

// wait waits for the import's batch and records what it saw in m. It
// returns the batch as last seen and whether it finished successfully.
func (r *listImportResource) wait(ctx context.Context, m *listImportModel, timeout time.Duration, creating bool, diags *diag.Diagnostics) (*client.Batch, bool) {
	b, ok := m.WaitAndRecord(ctx, r.data.batches(), operation.ListImport, timeout, creating, diags)
	if b != nil {
		m.recordCounts(b)
	}
	return b, ok && b != nil
}

func (r *listImportResource) Read(ctx context.Context, req resource.ReadRequest, resp *resource.ReadResponse) {
	state, ok := readModel[listImportModel](ctx, req.State, r.data, &resp.Diagnostics)
	if !ok {
		return
	}
	if state.BatchID.IsNull() {
		return // the upload never succeeded; the resource is replaced on the next apply
	}
	b := batchcore.Read(ctx, r.data.client, operation.ListImport, state.BatchID.ValueString(), resp)
	if b == nil {
		return
	}
	if unjudgedRows(state, b) {
		// Left unfinished, so that the plan resumes it and the apply judges
		// its refused rows (list_import_unjudged.go).
		resp.Diagnostics.Append(leaveUnjudged(ctx, state, b, resp.Private)...)
		return
	}
	state.Record(b)
	state.recordCounts(b)
	if isAdopting(state) {
		fillFromImportListing(ctx, r.data.client, &state)
	}
	resp.Diagnostics.Append(resp.State.Set(ctx, state)...)
}

// Update resumes an unfinished import, and otherwise only records the
// settings that do not run a new import (file path, timeouts) or that an
// imported resource adopts from the configuration.
func (r *listImportResource) Update(ctx context.Context, req resource.UpdateRequest, resp *resource.UpdateResponse) {
	plan, state, ok := readUpdate[listImportModel](ctx, req, r.data, &resp.Diagnostics)
	if !ok {
		return
	}
	m := state
	m.File, m.Content, m.Timeouts = plan.File, plan.Content, plan.Timeouts
	m.Delimiter, m.Encoding, m.IdentityColumn, m.Triggers, m.ContentSHA256 = plan.Delimiter, plan.Encoding, plan.IdentityColumn, plan.Triggers, plan.ContentSHA256
	m.unsubscribeLimitArgs, m.failedRowsLimitArgs = plan.unsubscribeLimitArgs, plan.failedRowsLimitArgs
	// A limit raised to the rows an earlier resumed import refused accepts
	// them (planRedoRefusedRows planned no new import), and says so.
	wasRefused := refusedRowsMarked(ctx, req.Private)
	resp.Diagnostics.Append(forgetUnjudged(ctx, resp.Private)...)
	resp.Diagnostics.Append(markRefusedRows(ctx, resp.Private, false)...)
	if wasRefused && !state.Unfinished() {
		r.judgeAcceptedRows(ctx, m, resp.Private, &resp.Diagnostics)
	}
	if state.Unfinished() {
		timeout, diags := plan.Timeouts.Update(ctx, operation.ListImport.DefaultTimeout)
		resp.Diagnostics.Append(diags...)
		if resp.Diagnostics.HasError() {
			return
		}
		ctx, cancel := context.WithTimeout(ctx, timeout)
		defer cancel()
		if b, ok := r.wait(ctx, &m, timeout, false, &resp.Diagnostics); ok &&
			finishImportSuppression(ctx, r.data, plan.listImportArgs, resumedImportSuppression(ctx, r.data, plan.listImportArgs, &resp.Diagnostics), b, &resp.Diagnostics) &&
			!judgeFailedRows(&resp.Diagnostics, b, m.maxFailedRows(), fmt.Sprintf(
				"The import (import %s, batch %s) stays in the state with its counts, marked as refused: the next plan runs the file again as a new import, unless max_failed_rows is raised to at least %d. Correct the file first.",
				m.ImportID.ValueString(), m.BatchID.ValueString(), b.Failed)) {
			resp.Diagnostics.Append(markRefusedRows(ctx, resp.Private, true)...)
		}
	}
	resp.Diagnostics.Append(resp.State.Set(ctx, m)...)
}

// Delete only forgets the import: an import cannot be undone. The destroy
// half of a replacement first refuses a file changed since the plan
// (list_import_planned_file.go).
func (r *listImportResource) Delete(ctx context.Context, req resource.DeleteRequest, resp *resource.DeleteResponse) {
	var state listImportModel
	resp.Diagnostics.Append(req.State.Get(ctx, &state)...)
	if resp.Diagnostics.HasError() {
		return
	}
	planned := checkPlannedFile(ctx, req.Private, &resp.Diagnostics)
	// A refused destroy keeps the object, and Terraform saves the private
	// state it returns: without the note, which is this plan's only.
	resp.Diagnostics.Append(dropPlannedFile(ctx, resp.Private)...)
	if !planned {
		return
	}
	batchcore.Forget(operation.ListImport, fmt.Sprintf("List import %s was removed from the Terraform state only: an import cannot be undone, and the contacts of list %s stay as the import left them.",
		state.ImportID.ValueString(), state.ListID.ValueString()), &resp.Diagnostics)
}

// ImportState takes "<list_id>/<type>/<import_id>/<batch_id>". The first
// apply afterwards adopts the file, delimiter, encoding, identity column and
// triggers of the configuration without importing again.
func (r *listImportResource) ImportState(ctx context.Context, req resource.ImportStateRequest, resp *resource.ImportStateResponse) {
	const usage = "Import an rms_list_import as <list_id>/<type>/<import_id>/<batch_id>, e.g. `terraform import rms_list_import.subscribers 5/ADD/17/18`"
	parts := strings.Split(req.ID, "/")
	if len(parts) != 4 || !isEntityID(parts[0]) || !isEntityID(parts[2]) || !isEntityID(parts[3]) {
		resp.Diagnostics.AddError("Invalid import id", usage+"; got "+quote(req.ID)+".")
		return
	}
	if !slices.Contains(client.ImportTypes, parts[1]) {
		resp.Diagnostics.AddError("Invalid import id", fmt.Sprintf("%s: %q is not an import type (%s).", usage, parts[1], strings.Join(client.ImportTypes, ", ")))
		return
	}
	for attr, v := range map[string]string{"id": parts[2], "list_id": parts[0], "type": parts[1], "import_id": parts[2], "batch_id": parts[3]} {
		resp.Diagnostics.Append(resp.State.SetAttribute(ctx, path.Root(attr), v)...)
	}
}

// contentHashModifier plans content_sha256: the SHA-256 of the file (read
// as a stream) or of content. A different hash than the state's runs the
// import again; a resource just imported (see importedState) adopts it.
type contentHashModifier struct{}

func (m contentHashModifier) MarkdownDescription(ctx context.Context) string {
	return m.Description(ctx)
}

func (contentHashModifier) Description(context.Context) string {
	return "hashes the file or content at plan time; a change requires replacement"
}

func (contentHashModifier) PlanModifyString(ctx context.Context, req planmodifier.StringRequest, resp *planmodifier.StringResponse) {
	if req.Plan.Raw.IsNull() {
		return // destroy
	}
	var file, content types.String
	resp.Diagnostics.Append(req.Config.GetAttribute(ctx, path.Root("file"), &file)...)
	resp.Diagnostics.Append(req.Config.GetAttribute(ctx, path.Root("content"), &content)...)
	if resp.Diagnostics.HasError() {
		return
	}
	var sum string
	switch {
	case file.IsUnknown() || content.IsUnknown():
		// Known only during apply: assume it changed.
		resp.PlanValue = types.StringUnknown()
		resp.RequiresReplace = !req.StateValue.IsNull()
		return
	case !file.IsNull():
		s, exists, err := hashFile(file.ValueString())
		if err != nil {
			resp.Diagnostics.AddAttributeError(path.Root("file"), "Unable to read the import file", err.Error())
			return
		}
		if !exists {
			resp.Diagnostics.AddAttributeError(path.Root("file"), "Import file not found",
				fmt.Sprintf("There is no file at %q. Check the path; a relative path is relative to the directory Terraform runs in (use path.module for a file beside the configuration).", file.ValueString()))
			return
		}
		sum = s
	case !content.IsNull():
		h := sha256.Sum256([]byte(content.ValueString()))
		sum = hex.EncodeToString(h[:])
	default:
		return // neither: the config validator reports it
	}
	resp.PlanValue = types.StringValue(sum)
	if !req.StateValue.IsNull() && req.StateValue.ValueString() != sum && !importedState(ctx, req.State.GetAttribute, &resp.Diagnostics) {
		resp.RequiresReplace = true
	}
}

// replaceUnlessImported is RequiresReplace, except for the first plan after
// terraform import, whose state lacks the settings the configuration gives.
func replaceUnlessImported() planmodifier.String {
	return stringplanmodifier.RequiresReplaceIf(func(ctx context.Context, req planmodifier.StringRequest, resp *stringplanmodifier.RequiresReplaceIfFuncResponse) {
		resp.RequiresReplace = !importedState(ctx, req.State.GetAttribute, &resp.Diagnostics)
	}, "Changing it runs a new import (except right after terraform import, when the configuration's value is adopted).",
		"Changing it runs a new import (except right after terraform import, when the configuration's value is adopted).")
}

func mapReplaceUnlessImported() planmodifier.Map {
	return mapplanmodifier.RequiresReplaceIf(func(ctx context.Context, req planmodifier.MapRequest, resp *mapplanmodifier.RequiresReplaceIfFuncResponse) {
		resp.RequiresReplace = !importedState(ctx, req.State.GetAttribute, &resp.Diagnostics)
	}, "Any change runs a new import.", "Any change runs a new import.")
}

// guardNewImport is the guardrail of a plan that runs a new import (a
// create, or the create half of a replacement, which Terraform plans with
// no prior state). It returns what it counted, for planned_changes.
func (r *listImportResource) guardNewImport(ctx context.Context, plan listImportModel, resp *resource.ModifyPlanResponse) importCounts {
	removal := countListImport(ctx, r.data, plan.listImportArgs, &resp.Diagnostics)
	checkImportCount(r.data, plan.listImportArgs, removal, "this resource", &resp.Diagnostics)
	toCopy := planImportSuppression(ctx, r.data, plan.listImportArgs, &resp.Diagnostics)
	return importCounts{removal: removal, toCopy: toCopy}
}
