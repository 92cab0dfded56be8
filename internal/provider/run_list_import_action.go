package provider

import (
	"context"
	"fmt"

	"github.com/hashicorp/terraform-plugin-framework-validators/actionvalidator"
	"github.com/hashicorp/terraform-plugin-framework-validators/stringvalidator"
	"github.com/hashicorp/terraform-plugin-framework/action"
	"github.com/hashicorp/terraform-plugin-framework/action/schema"
	"github.com/hashicorp/terraform-plugin-framework/diag"
	"github.com/hashicorp/terraform-plugin-framework/path"
	"github.com/hashicorp/terraform-plugin-framework/schema/validator"
	"github.com/hashicorp/terraform-plugin-framework/types"

	"github.com/rms-labs/terraform-provider-rms/internal/client"
	"github.com/rms-labs/terraform-provider-rms/internal/provider/batchcore"
	"github.com/rms-labs/terraform-provider-rms/internal/provider/operation"
	"github.com/rms-labs/terraform-provider-rms/internal/validators"
)

var (
	_ action.Action                     = &runListImportAction{}
	_ action.ActionWithConfigure        = &runListImportAction{}
	_ action.ActionWithConfigValidators = &runListImportAction{}
	_ action.ActionWithModifyPlan       = &runListImportAction{}
)

// NewRunListImportAction returns rms_run_list_import: the import the
// rms_list_import resource runs, without state, once per invocation.
func NewRunListImportAction() action.Action { return &runListImportAction{} }

type runListImportAction struct {
	data *providerData
}

type runListImportModel struct {
	listImportArgs              // list_id, type, file, content, delimiter, encoding, identity_column
	Timeout        types.String `tfsdk:"timeout"`
}

const runListImportActionType = "rms_run_list_import"

func (a *runListImportAction) Metadata(_ context.Context, req action.MetadataRequest, resp *action.MetadataResponse) {
	resp.TypeName = req.ProviderTypeName + "_run_list_import"
}

func (a *runListImportAction) Schema(_ context.Context, _ action.SchemaRequest, resp *action.SchemaResponse) {
	resp.Schema = schema.Schema{
		Description: "Imports a CSV file into a list each time it is invoked, with `terraform apply -invoke` or from an `action_trigger`: the three-step import of the `rms_list_import` resource, without state (Terraform 1.14+). " +
			"A create or upload that gets no answer is read back and adopted, not repeated, and `UNSUBSCRIBE` and `REPLACE` imports are held by the guardrail on mass unsubscription. " +
			"See the guide \"Bulk imports and exports\" (Actions and the lifecycle events they suit).",
		Attributes: guardrailActionAttributes(map[string]schema.Attribute{
			attrMaxFailedRows: failedRowsActionAttribute(),
			"list_id": schema.StringAttribute{
				Required:    true,
				Description: importListIDDescription,
				Validators:  []validator.String{listIDValidator},
			},
			"type": schema.StringAttribute{
				Required:    true,
				Description: importTypeDescription,
				Validators:  []validator.String{importTypeValidator},
			},
			"file": schema.StringAttribute{
				Optional:    true,
				Description: importFileDescription,
				Validators:  []validator.String{stringvalidator.LengthAtLeast(1)},
			},
			"content": schema.StringAttribute{
				Optional:    true,
				Description: "The CSV to import, inline (for small files). Give `file` or `content`.",
			},
			"delimiter": schema.StringAttribute{
				Optional:    true,
				Description: importDelimiterDescription,
				Validators:  []validator.String{validators.Delimiter()},
			},
			"encoding": schema.StringAttribute{
				Optional:    true,
				Description: importEncodingDescription,
				Validators:  []validator.String{importEncodingValidator},
			},
			"identity_column": schema.StringAttribute{
				Optional:    true,
				Description: importIdentityDescription,
				Validators:  []validator.String{stringvalidator.LengthAtLeast(1)},
			},
			"timeout": batchcore.ActionTimeoutAttribute(operation.ListImport),
		}),
	}
	resp.Schema.Attributes[attrSuppressionListID] = suppressionActionAttribute("Rows of recipients the suppression list holds are held back from an `ADD` or `REPLACE` upload and written unsubscribed by single calls; a `REPLACE` first copies the opt-outs of the contacts it removes there.")
}

func (a *runListImportAction) ConfigValidators(context.Context) []action.ConfigValidator {
	return []action.ConfigValidator{
		actionvalidator.ExactlyOneOf(path.MatchRoot("file"), path.MatchRoot("content")),
	}
}

func (a *runListImportAction) Configure(_ context.Context, req action.ConfigureRequest, resp *action.ConfigureResponse) {
	a.data = configuredData(req.ProviderData, &resp.Diagnostics)
}

func (a *runListImportAction) Invoke(ctx context.Context, req action.InvokeRequest, resp *action.InvokeResponse) {
	diags := &resp.Diagnostics
	defer func() { resp.Diagnostics = nameAction(runListImportActionType, resp.Diagnostics) }()
	var cfg runListImportModel
	diags.Append(req.Config.Get(ctx, &cfg)...)
	if diags.HasError() || !requireClient(a.data, diags) {
		return
	}
	timeout := batchcore.ActionTimeout(cfg.Timeout, operation.ListImport, diags)
	if diags.HasError() {
		return
	}
	ctx, cancel := context.WithTimeout(ctx, timeout)
	defer cancel()

	// The file is checked before the import is created (an action has no
	// plan of its own that reads it), then the guardrail.
	if checkImportArgs(ctx, cfg.listImportArgs, importAttributes(a.data, cfg.listImportArgs), true, diags); diags.HasError() {
		return
	}
	if !a.guardInvoke(ctx, cfg, diags) { // list_import_guardrail.go
		return
	}
	body, closeBody, err := openImportBody(cfg.File, cfg.Content, "")
	if err != nil {
		diags.AddAttributeError(path.Root("file"), "Unable to read the import file", err.Error())
		return
	}
	defer closeBody()
	// Suppressed rows are held back (list_import_suppression.go).
	upload, sup, doneSup, ok := prepareImportSuppression(ctx, a.data, cfg.listImportArgs, body, diags)
	if !ok {
		return
	}
	defer doneSup()

	run := cfg.run(upload, "Invoking the action again starts a new import.")
	run.Created = func(importID string) bool {
		sendProgress(resp, fmt.Sprintf("%s: created import %s of list %s, uploading the file", runListImportActionType, importID, cfg.ListID.ValueString()))
		return true
	}
	batchID, ok := operation.StartListImport(ctx, a.data.client, a.data.contacts.Listings, run, diags)
	if !ok {
		return
	}
	b, ok := batchcore.WaitFor(ctx, a.data.batches(), actionWait(operation.ListImport.Wait(batchID, timeout, false), runListImportActionType, resp), diags)
	if !ok || !finishImportSuppression(ctx, a.data, cfg.listImportArgs, sup, b, diags) {
		return
	}
	sendProgress(resp, fmt.Sprintf("%s: batch %s finished: %s", runListImportActionType, batchID, batchCounts(b)))
	judgeFailedRows(diags, b, cfg.maxFailedRows(), fmt.Sprintf("The import into list %s (batch %s) stays on the service as it is; invoking the action again starts a new import of the file: correct the file first, or raise max_failed_rows.",
		cfg.ListID.ValueString(), batchID))
}

// batchCounts is what a finished import batch reports of its rows, the
// counts it leaves out said to be unknown.
func batchCounts(b *client.Batch) string {
	count := func(n int64, shown bool) string {
		if !shown {
			return "unknown"
		}
		return fmt.Sprint(n)
	}
	return fmt.Sprintf("%d rows, %s affected, %s failed", b.Total, count(b.Affected, b.Shown.Affected), count(b.Failed, b.Shown.Failed))
}

// ModifyPlan holds back an invocation that unsubscribes or removes too
// many contacts. Terraform plans an action once during plan and again
// during apply with every value known, so an invocation whose list or file
// is known only then is counted before anything is uploaded.
func (a *runListImportAction) ModifyPlan(ctx context.Context, req action.ModifyPlanRequest, resp *action.ModifyPlanResponse) {
	var cfg runListImportModel
	resp.Diagnostics.Append(req.Config.Get(ctx, &cfg)...)
	if resp.Diagnostics.HasError() {
		return
	}
	guardListImport(ctx, a.data, cfg.listImportArgs, "this action", &resp.Diagnostics)
	planImportSuppression(ctx, a.data, cfg.listImportArgs, &resp.Diagnostics)
	resp.Diagnostics = nameAction(runListImportActionType, resp.Diagnostics)
}

// guardInvoke counts again when the action runs, before anything is
// created on the service: Terraform (1.16 checked) does not plan an action
// again during the apply, so an invocation whose list or file was known
// only then is counted here. The plan's warnings are not repeated; a
// failure is reported.
func (a *runListImportAction) guardInvoke(ctx context.Context, cfg runListImportModel, diags *diag.Diagnostics) bool {
	var d diag.Diagnostics
	if guardListImport(ctx, a.data, cfg.listImportArgs, "this action", &d) {
		return true
	}
	diags.Append(d.Errors()...)
	return false
}
