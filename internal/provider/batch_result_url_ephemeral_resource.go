package provider

import (
	"context"
	"errors"
	"fmt"

	"github.com/hashicorp/terraform-plugin-framework/ephemeral"
	"github.com/hashicorp/terraform-plugin-framework/ephemeral/schema"
	"github.com/hashicorp/terraform-plugin-framework/path"
	"github.com/hashicorp/terraform-plugin-framework/types"
	"github.com/hashicorp/terraform-plugin-log/tflog"

	"github.com/rms-labs/terraform-provider-rms/internal/client"
)

var (
	_ ephemeral.EphemeralResource              = &batchResultURLEphemeralResource{}
	_ ephemeral.EphemeralResourceWithConfigure = &batchResultURLEphemeralResource{}
)

// NewBatchResultURLEphemeralResource returns rms_batch_result_url: the
// short-lived URL of a finished batch's result, opened for one run and
// never written to plan or state (Terraform 1.10+).
func NewBatchResultURLEphemeralResource() ephemeral.EphemeralResource {
	return &batchResultURLEphemeralResource{}
}

type batchResultURLEphemeralResource struct {
	data *providerData
}

type batchResultURLModel struct {
	BatchID types.String `tfsdk:"batch_id"`
	URL     types.String `tfsdk:"url"`
}

func (e *batchResultURLEphemeralResource) Metadata(_ context.Context, req ephemeral.MetadataRequest, resp *ephemeral.MetadataResponse) {
	resp.TypeName = req.ProviderTypeName + "_batch_result_url"
}

func (e *batchResultURLEphemeralResource) Schema(_ context.Context, _ ephemeral.SchemaRequest, resp *ephemeral.SchemaResponse) {
	resp.Schema = schema.Schema{
		Description: "Opens the result URL of a finished batch (`GET /batches/{id}/result/url`), e.g. of an `rms_statistics_export`, for use in the same run without writing it to the plan or the state (Terraform 1.10+). " +
			"The URL is short-lived (minutes) and lets anyone holding it fetch the file without credentials. " +
			"Pass it to arguments that accept ephemeral values (write-only arguments, provider blocks, other ephemeral resources).",
		Attributes: map[string]schema.Attribute{
			"batch_id": schema.StringAttribute{
				Required:    true,
				Description: "Id of a finished batch that has a result, e.g. `rms_statistics_export.daily.batch_id`.",
				Validators:  batchIDValidators,
			},
			"url": schema.StringAttribute{
				Computed:    true,
				Sensitive:   true,
				Description: "The result URL, valid for a few minutes.",
			},
		},
	}
}

func (e *batchResultURLEphemeralResource) Configure(_ context.Context, req ephemeral.ConfigureRequest, resp *ephemeral.ConfigureResponse) {
	e.data = configuredData(req.ProviderData, &resp.Diagnostics)
}

func (e *batchResultURLEphemeralResource) Open(ctx context.Context, req ephemeral.OpenRequest, resp *ephemeral.OpenResponse) {
	var cfg batchResultURLModel
	resp.Diagnostics.Append(req.Config.Get(ctx, &cfg)...)
	if resp.Diagnostics.HasError() || !requireClient(e.data, &resp.Diagnostics) {
		return
	}
	id := cfg.BatchID.ValueString()
	u, err := e.data.client.Batches.ResultURL(ctx, id)
	switch {
	case client.IsNotFound(err):
		resp.Diagnostics.AddAttributeError(path.Root("batch_id"), "Batch not found",
			fmt.Sprintf("No batch has id %q in this account: %s", id, describeAPIError(err)))
		return
	case errors.Is(err, client.ErrConflict):
		resp.Diagnostics.AddAttributeError(path.Root("batch_id"), "Batch has no result",
			fmt.Sprintf("Batch %s has no result to open: %s\n\nOnly a statistics export that finished without error has one; wait for it (an rms_statistics_export waits), or check the batch with the rms_batch data source.", id, describeAPIError(err)))
		return
	case err != nil:
		addAPIError(&resp.Diagnostics, "Unable to open the result URL of batch "+id, err, nil)
		return
	}
	tflog.Info(ctx, "opened batch result URL", map[string]any{"batch_id": id})
	cfg.URL = types.StringValue(u)
	resp.Diagnostics.Append(resp.Result.Set(ctx, cfg)...)
}
