package provider

import (
	"context"

	"github.com/hashicorp/terraform-plugin-framework/datasource"
	"github.com/hashicorp/terraform-plugin-framework/datasource/schema"
)

var (
	_ datasource.DataSource              = &listsDataSource{}
	_ datasource.DataSourceWithConfigure = &listsDataSource{}
)

// NewListsDataSource returns the rms_lists data source.
func NewListsDataSource() datasource.DataSource { return &listsDataSource{} }

type listsDataSource struct {
	data *providerData
}

type listsDataModel struct {
	Lists []listModel `tfsdk:"lists"`
}

func (d *listsDataSource) Metadata(_ context.Context, req datasource.MetadataRequest, resp *datasource.MetadataResponse) {
	resp.TypeName = req.ProviderTypeName + "_lists"
}

func (d *listsDataSource) Schema(_ context.Context, _ datasource.SchemaRequest, resp *datasource.SchemaResponse) {
	attrs := listComputedAttributes()
	attrs["id"] = schema.StringAttribute{Computed: true, Description: "Id of the list."}
	attrs["name"] = schema.StringAttribute{Computed: true, Description: "Name of the list."}
	resp.Schema = schema.Schema{
		Description: "Reads every recipient list of the account, in ascending id order (paged through completely).",
		Attributes: map[string]schema.Attribute{
			"lists": schema.ListNestedAttribute{
				Computed:     true,
				Description:  "The lists, oldest first.",
				NestedObject: schema.NestedAttributeObject{Attributes: attrs},
			},
		},
	}
}

func (d *listsDataSource) Configure(_ context.Context, req datasource.ConfigureRequest, resp *datasource.ConfigureResponse) {
	d.data = configuredData(req.ProviderData, &resp.Diagnostics)
}

func (d *listsDataSource) Read(ctx context.Context, _ datasource.ReadRequest, resp *datasource.ReadResponse) {
	if !requireClient(d.data, &resp.Diagnostics) {
		return
	}
	all, err := d.data.client.Lists.List(ctx)
	if err != nil {
		addAPIError(&resp.Diagnostics, "Unable to list lists", err, nil)
		return
	}
	m := listsDataModel{Lists: make([]listModel, 0, len(all))}
	for i := range all {
		m.Lists = append(m.Lists, listToModel(&all[i], listModel{}))
	}
	resp.Diagnostics.Append(resp.State.Set(ctx, m)...)
}
