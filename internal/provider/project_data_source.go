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
	_ datasource.DataSource                     = &projectDataSource{}
	_ datasource.DataSourceWithConfigure        = &projectDataSource{}
	_ datasource.DataSourceWithConfigValidators = &projectDataSource{}
)

// NewProjectDataSource returns the rms_project data source.
func NewProjectDataSource() datasource.DataSource { return &projectDataSource{} }

type projectDataSource struct {
	data *providerData
}

func (d *projectDataSource) Metadata(_ context.Context, req datasource.MetadataRequest, resp *datasource.MetadataResponse) {
	resp.TypeName = req.ProviderTypeName + "_project"
}

func (d *projectDataSource) Schema(_ context.Context, _ datasource.SchemaRequest, resp *datasource.SchemaResponse) {
	resp.Schema = schema.Schema{
		Description: "Reads one project, by id or by name. Looking up by name fails when no project or more than one project has that name.",
		Attributes: map[string]schema.Attribute{
			"id": schema.StringAttribute{
				Optional:    true,
				Computed:    true,
				Description: "Id of the project. Give either `id` or `name`.",
			},
			"name": schema.StringAttribute{
				Optional:    true,
				Computed:    true,
				Description: "Name of the project. Give either `id` or `name`; a name must match exactly one project.",
			},
			"description":   schema.StringAttribute{Computed: true, Description: "Free-text description, null when the project has none."},
			"date_created":  schema.StringAttribute{Computed: true, CustomType: timetypes.RFC3339Type{}, Description: "When the project was created (RFC 3339)."},
			"date_modified": schema.StringAttribute{Computed: true, CustomType: timetypes.RFC3339Type{}, Description: "When the project was last changed (RFC 3339)."},
		},
	}
}

func (d *projectDataSource) ConfigValidators(context.Context) []datasource.ConfigValidator {
	return []datasource.ConfigValidator{
		datasourcevalidator.ExactlyOneOf(path.MatchRoot("id"), path.MatchRoot("name")),
	}
}

func (d *projectDataSource) Configure(_ context.Context, req datasource.ConfigureRequest, resp *datasource.ConfigureResponse) {
	d.data = configuredData(req.ProviderData, &resp.Diagnostics)
}

func (d *projectDataSource) Read(ctx context.Context, req datasource.ReadRequest, resp *datasource.ReadResponse) {
	var cfg projectModel
	resp.Diagnostics.Append(req.Config.Get(ctx, &cfg)...)
	if resp.Diagnostics.HasError() || !requireClient(d.data, &resp.Diagnostics) {
		return
	}
	var p *client.Project
	if !cfg.ID.IsNull() {
		var err error
		p, err = d.data.client.GetProject(ctx, cfg.ID.ValueString())
		if errors.Is(err, client.ErrNotFound) {
			resp.Diagnostics.AddAttributeError(path.Root("id"), "Project not found",
				fmt.Sprintf("No project has id %q in this account. Check the id, or look the project up by name.", cfg.ID.ValueString()))
			return
		}
		if err != nil {
			addAPIError(&resp.Diagnostics, "Unable to read project", err, nil)
			return
		}
	} else {
		found, err := d.findByName(ctx, cfg.Name.ValueString())
		if err != nil {
			resp.Diagnostics.AddAttributeError(path.Root("name"), "Unable to find project by name", describeAPIError(err))
			return
		}
		p = found
	}
	resp.Diagnostics.Append(resp.State.Set(ctx, projectToModel(p, projectModel{Description: cfg.Description}))...)
}

func (d *projectDataSource) findByName(ctx context.Context, name string) (*client.Project, error) {
	all, err := d.data.client.ListProjects(ctx)
	if err != nil {
		return nil, err
	}
	var match []client.Project
	for _, p := range all {
		if p.Name == name {
			match = append(match, p)
		}
	}
	switch len(match) {
	case 0:
		return nil, fmt.Errorf("no project is named %q in this account", name)
	case 1:
		return &match[0], nil
	default:
		return nil, fmt.Errorf("%d projects are named %q (ids %s and more); look the project up by id instead", len(match), name, match[0].ID)
	}
}
