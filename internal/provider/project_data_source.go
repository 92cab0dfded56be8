package provider

import (
	"context"

	"github.com/hashicorp/terraform-plugin-framework-timetypes/timetypes"
	"github.com/hashicorp/terraform-plugin-framework/datasource"
	"github.com/hashicorp/terraform-plugin-framework/datasource/schema"
	"github.com/hashicorp/terraform-plugin-framework/types"

	"github.com/rms-labs/terraform-provider-rms/internal/client"
)

// NewProjectDataSource returns the rms_project data source.
func NewProjectDataSource() datasource.DataSource {
	return &namedEntityDataSource[projectModel, client.Project]{noun: "project", schema: projectDataSourceSchema,
		get: func(c *client.Client, ctx context.Context, id string) (*client.Project, error) {
			return c.Projects.Get(ctx, id)
		},
		all:       func(c *client.Client, ctx context.Context) ([]client.Project, error) { return c.Projects.List(ctx) },
		idAndName: func(cfg projectModel) (types.String, types.String) { return cfg.ID, cfg.Name },
		toModel: func(p *client.Project, cfg projectModel) projectModel {
			return projectToModel(p, projectModel{Description: cfg.Description})
		},
		objName: func(p *client.Project) string { return p.Name },
		objID:   func(p *client.Project) string { return p.ID.String() }}
}

func projectDataSourceSchema() schema.Schema {
	return schema.Schema{
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
