package provider

import (
	"context"
	"errors"
	"fmt"

	"github.com/hashicorp/terraform-plugin-framework/datasource"
	"github.com/hashicorp/terraform-plugin-framework/datasource/schema"
	"github.com/hashicorp/terraform-plugin-framework/path"
	"github.com/hashicorp/terraform-plugin-framework/schema/validator"
	"github.com/hashicorp/terraform-plugin-framework/types"

	"github.com/rms-labs/terraform-provider-rms/internal/client"
	"github.com/rms-labs/terraform-provider-rms/internal/dynamic"
)

var (
	_ datasource.DataSource              = &genericDataSource{}
	_ datasource.DataSourceWithConfigure = &genericDataSource{}
)

// NewGenericDataSource returns the rms_resource data source.
func NewGenericDataSource() datasource.DataSource { return &genericDataSource{} }

// collectionValidators check a `collection` attribute.
var collectionValidators = []validator.String{collectionValidator{}}

type genericDataSource struct {
	data *providerData
}

type genericDataSourceModel struct {
	Collection types.String  `tfsdk:"collection"`
	ID         types.String  `tfsdk:"id"`
	Output     types.Dynamic `tfsdk:"output"`
	Items      types.Dynamic `tfsdk:"items"`
}

func (d *genericDataSource) Metadata(_ context.Context, req datasource.MetadataRequest, resp *datasource.MetadataResponse) {
	resp.TypeName = req.ProviderTypeName + "_resource"
}

func (d *genericDataSource) Schema(_ context.Context, _ datasource.SchemaRequest, resp *datasource.SchemaResponse) {
	resp.Schema = schema.Schema{
		Description: "Reads entities of any domain that follows the generic resource pattern: one entity by `id` (in `output`), or, without `id`, every entity of the collection (in `items`, paged through completely).",
		Attributes: map[string]schema.Attribute{
			"collection": schema.StringAttribute{
				Required:    true,
				Description: "Path of the collection after `/{customerid}/`, e.g. `campaigns` or `campaigns/12/notes`. Internal-only domains are refused.",
				Validators:  collectionValidators,
			},
			"id": schema.StringAttribute{
				Optional:    true,
				Description: "Id of one entity to read. Without it, the whole collection is read into `items`.",
			},
			"output": schema.DynamicAttribute{
				Computed:    true,
				Description: "The entity named by `id`, whole, as an object; null when `id` is not set.",
			},
			"items": schema.DynamicAttribute{
				Computed:    true,
				Description: "Every entity of the collection in the service's order (ascending id), each an object, when `id` is not set; null otherwise. Entities may have different fields, so this is a tuple: index it (`items[0].name`) or iterate it with `for`.",
			},
		},
	}
}

func (d *genericDataSource) Configure(_ context.Context, req datasource.ConfigureRequest, resp *datasource.ConfigureResponse) {
	d.data = configuredData(req.ProviderData, &resp.Diagnostics)
}

func (d *genericDataSource) Read(ctx context.Context, req datasource.ReadRequest, resp *datasource.ReadResponse) {
	var m genericDataSourceModel
	resp.Diagnostics.Append(req.Config.Get(ctx, &m)...)
	if resp.Diagnostics.HasError() || !requireClient(d.data, &resp.Diagnostics) {
		return
	}
	collection := m.Collection.ValueString()
	m.Output, m.Items = types.DynamicNull(), types.DynamicNull()
	if !m.ID.IsNull() {
		e, err := d.data.client.Entities.Get(ctx, collection, m.ID.ValueString())
		if err != nil {
			if errors.Is(err, client.ErrNotFound) {
				resp.Diagnostics.AddAttributeError(path.Root("id"), "Entity not found",
					fmt.Sprintf("%s has no entity with id %s. Check the id and the collection.", collection, m.ID.ValueString()))
				return
			}
			addEntityError(&resp.Diagnostics, "Unable to read "+collection+"/"+m.ID.ValueString(), collection, err)
			return
		}
		out, err := dynamic.FromJSON(e, types.DynamicNull())
		if err != nil {
			resp.Diagnostics.AddError("Unable to convert the entity", err.Error())
			return
		}
		m.Output = out
		resp.Diagnostics.Append(resp.State.Set(ctx, m)...)
		return
	}
	all, err := d.data.client.Entities.List(ctx, collection)
	if err != nil {
		addEntityError(&resp.Diagnostics, "Unable to list "+collection, collection, err)
		return
	}
	items := make([]any, len(all))
	for i, e := range all {
		items[i] = e
	}
	v, err := dynamic.JSONToValue(items, nil)
	if err != nil {
		resp.Diagnostics.AddError("Unable to convert the entities", err.Error())
		return
	}
	m.Items = types.DynamicValue(v)
	resp.Diagnostics.Append(resp.State.Set(ctx, m)...)
}
