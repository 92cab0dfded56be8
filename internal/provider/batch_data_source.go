package provider

import (
	"context"
	"fmt"

	"github.com/hashicorp/terraform-plugin-framework-timetypes/timetypes"
	"github.com/hashicorp/terraform-plugin-framework/datasource"
	"github.com/hashicorp/terraform-plugin-framework/datasource/schema"
	"github.com/hashicorp/terraform-plugin-framework/path"
	"github.com/hashicorp/terraform-plugin-framework/types"

	"github.com/rms-labs/terraform-provider-rms/internal/client"
	"github.com/rms-labs/terraform-provider-rms/internal/provider/batchcore"
)

var (
	_ datasource.DataSource              = &batchDataSource{}
	_ datasource.DataSourceWithConfigure = &batchDataSource{}
)

// NewBatchDataSource returns the rms_batch data source.
func NewBatchDataSource() datasource.DataSource { return &batchDataSource{} }

type batchDataSource struct {
	data *providerData
}

type batchDataSourceModel struct {
	ID           types.String      `tfsdk:"id"`
	Type         types.String      `tfsdk:"type"`
	CustomerID   types.Int64       `tfsdk:"customer_id"`
	Status       types.String      `tfsdk:"status"`
	Total        types.Int64       `tfsdk:"total"`
	Processed    types.Int64       `tfsdk:"processed"`
	Affected     types.Int64       `tfsdk:"affected"`
	Failed       types.Int64       `tfsdk:"failed"`
	ErrorMessage types.String      `tfsdk:"error_message"`
	StartedAt    timetypes.RFC3339 `tfsdk:"started_at"`
	FinishedAt   timetypes.RFC3339 `tfsdk:"finished_at"`
}

func (d *batchDataSource) Metadata(_ context.Context, req datasource.MetadataRequest, resp *datasource.MetadataResponse) {
	resp.TypeName = req.ProviderTypeName + "_batch"
}

func (d *batchDataSource) Schema(_ context.Context, _ datasource.SchemaRequest, resp *datasource.SchemaResponse) {
	resp.Schema = schema.Schema{
		Description: "Reads one batch of the account (an import or a statistics export) as it is at the moment of reading: its status and progress. It does not wait for the batch.",
		Attributes: map[string]schema.Attribute{
			"id": schema.StringAttribute{
				Required:    true,
				Description: "Id of the batch, e.g. the `batch_id` of an `rms_statistics_export`.",
				Validators:  batchIDValidators,
			},
			"type":          schema.StringAttribute{Computed: true, Description: "`IMPORT` or `STAT_EXPORT`."},
			"customer_id":   schema.Int64Attribute{Computed: true, Description: "The account the batch belongs to."},
			"status":        schema.StringAttribute{Computed: true, Description: "`PENDING`, `IN_PROGRESS` or `FINISHED`."},
			"total":         schema.Int64Attribute{Computed: true, Description: "Rows the batch handles."},
			"processed":     schema.Int64Attribute{Computed: true, Description: "Rows handled so far."},
			"affected":      schema.Int64Attribute{Computed: true, Description: "Rows that changed something (imports) or were exported (exports)."},
			"failed":        schema.Int64Attribute{Computed: true, Description: "Rows that could not be handled (for example a bad import row); they do not fail the batch. 0 when the service does not report it."},
			"error_message": schema.StringAttribute{Computed: true, Description: "Why the batch failed as a whole; null unless it did. A failed batch is `FINISHED` and has no result."},
			"started_at":    schema.StringAttribute{Computed: true, CustomType: timetypes.RFC3339Type{}, Description: "When the service accepted the batch (RFC 3339)."},
			"finished_at":   schema.StringAttribute{Computed: true, CustomType: timetypes.RFC3339Type{}, Description: "When the batch finished (RFC 3339); null while it runs."},
		},
	}
}

func (d *batchDataSource) Configure(_ context.Context, req datasource.ConfigureRequest, resp *datasource.ConfigureResponse) {
	d.data = configuredData(req.ProviderData, &resp.Diagnostics)
}

func (d *batchDataSource) Read(ctx context.Context, req datasource.ReadRequest, resp *datasource.ReadResponse) {
	var cfg batchDataSourceModel
	resp.Diagnostics.Append(req.Config.Get(ctx, &cfg)...)
	if resp.Diagnostics.HasError() || !requireClient(d.data, &resp.Diagnostics) {
		return
	}
	id := cfg.ID.ValueString()
	b, err := d.data.client.Batches.Get(ctx, id)
	if client.IsNotFound(err) {
		resp.Diagnostics.AddAttributeError(path.Root("id"), "Batch not found",
			fmt.Sprintf("No batch has id %q in this account. Check the id: it is the batch_id of an import or export.", id))
		return
	}
	if err != nil {
		addAPIError(&resp.Diagnostics, "Unable to read batch "+id, err, nil)
		return
	}
	resp.Diagnostics.Append(resp.State.Set(ctx, batchToDataSourceModel(id, b))...)
}

func batchToDataSourceModel(id string, b *client.Batch) batchDataSourceModel {
	m := batchDataSourceModel{
		ID:           types.StringValue(id),
		Type:         nullIfEmpty(b.Type),
		CustomerID:   int64OrNull(b.CustomerID.String()),
		Status:       types.StringValue(b.Status),
		Total:        types.Int64Value(b.Total),
		Processed:    types.Int64Value(b.Processed),
		Affected:     types.Int64Value(b.Affected),
		Failed:       types.Int64Value(b.Failed),
		ErrorMessage: types.StringNull(),
		StartedAt:    batchcore.TimeValue(b.Started()),
		FinishedAt:   batchcore.TimeValue(b.Ended()),
	}
	if b.Error != "" {
		m.ErrorMessage = types.StringValue(b.Error)
	}
	return m
}
