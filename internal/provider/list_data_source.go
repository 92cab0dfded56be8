package provider

import (
	"context"
	"errors"
	"fmt"

	"github.com/hashicorp/terraform-plugin-framework-timetypes/timetypes"
	"github.com/hashicorp/terraform-plugin-framework-validators/datasourcevalidator"
	"github.com/hashicorp/terraform-plugin-framework/datasource"
	"github.com/hashicorp/terraform-plugin-framework/datasource/schema"
	"github.com/hashicorp/terraform-plugin-framework/path"

	"github.com/rms-labs/terraform-provider-rms/internal/client"
)

var (
	_ datasource.DataSource                     = &listDataSource{}
	_ datasource.DataSourceWithConfigure        = &listDataSource{}
	_ datasource.DataSourceWithConfigValidators = &listDataSource{}
)

// NewListDataSource returns the rms_list data source.
func NewListDataSource() datasource.DataSource { return &listDataSource{} }

type listDataSource struct {
	data *providerData
}

// listComputedAttributes are the read-only attributes of a list, shared by
// rms_list and the elements of rms_lists.
func listComputedAttributes() map[string]schema.Attribute {
	return map[string]schema.Attribute{
		"description":   schema.StringAttribute{Computed: true, Description: "Free-text description, null when the list has none."},
		"sender_name":   schema.StringAttribute{Computed: true, Description: "Sender name of messages to this list, null when unset."},
		"sender_email":  schema.StringAttribute{Computed: true, Description: "Sender address of messages to this list, null when unset."},
		"date_created":  schema.StringAttribute{Computed: true, CustomType: timetypes.RFC3339Type{}, Description: "When the list was created (RFC 3339)."},
		"date_modified": schema.StringAttribute{Computed: true, CustomType: timetypes.RFC3339Type{}, Description: "When the list was last changed (RFC 3339)."},
	}
}

func (d *listDataSource) Metadata(_ context.Context, req datasource.MetadataRequest, resp *datasource.MetadataResponse) {
	resp.TypeName = req.ProviderTypeName + "_list"
}

func (d *listDataSource) Schema(_ context.Context, _ datasource.SchemaRequest, resp *datasource.SchemaResponse) {
	attrs := listComputedAttributes()
	attrs["id"] = schema.StringAttribute{
		Optional: true, Computed: true,
		Description: "Id of the list. Give either `id` or `name`.",
	}
	attrs["name"] = schema.StringAttribute{
		Optional: true, Computed: true,
		Description: "Name of the list. Give either `id` or `name`; a name must match exactly one list.",
	}
	resp.Schema = schema.Schema{
		Description: "Reads one recipient list, by id or by name. Looking up by name fails when no list or more than one list has that name.",
		Attributes:  attrs,
	}
}

func (d *listDataSource) ConfigValidators(context.Context) []datasource.ConfigValidator {
	return []datasource.ConfigValidator{
		datasourcevalidator.ExactlyOneOf(path.MatchRoot("id"), path.MatchRoot("name")),
	}
}

func (d *listDataSource) Configure(_ context.Context, req datasource.ConfigureRequest, resp *datasource.ConfigureResponse) {
	d.data = configuredData(req.ProviderData, &resp.Diagnostics)
}

func (d *listDataSource) Read(ctx context.Context, req datasource.ReadRequest, resp *datasource.ReadResponse) {
	var cfg listModel
	resp.Diagnostics.Append(req.Config.Get(ctx, &cfg)...)
	if resp.Diagnostics.HasError() || !requireClient(d.data, &resp.Diagnostics) {
		return
	}
	var l *client.List
	if !cfg.ID.IsNull() {
		var err error
		l, err = d.data.client.GetList(ctx, cfg.ID.ValueString())
		if errors.Is(err, client.ErrNotFound) {
			resp.Diagnostics.AddAttributeError(path.Root("id"), "List not found",
				fmt.Sprintf("No list has id %q in this account. Check the id, or look the list up by name.", cfg.ID.ValueString()))
			return
		}
		if err != nil {
			addAPIError(&resp.Diagnostics, "Unable to read list", err, nil)
			return
		}
	} else {
		found, err := d.findByName(ctx, cfg.Name.ValueString())
		if err != nil {
			resp.Diagnostics.AddAttributeError(path.Root("name"), "Unable to find list by name", describeAPIError(err))
			return
		}
		l = found
	}
	resp.Diagnostics.Append(resp.State.Set(ctx, listToModel(l, listModel{}))...)
}

func (d *listDataSource) findByName(ctx context.Context, name string) (*client.List, error) {
	all, err := d.data.client.ListLists(ctx)
	if err != nil {
		return nil, err
	}
	var match []client.List
	for _, l := range all {
		if l.Name == name {
			match = append(match, l)
		}
	}
	switch len(match) {
	case 0:
		return nil, fmt.Errorf("no list is named %q in this account", name)
	case 1:
		return &match[0], nil
	default:
		return nil, fmt.Errorf("%d lists are named %q (ids %s and more); look the list up by id instead", len(match), name, match[0].ID)
	}
}
