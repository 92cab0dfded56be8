package provider

import (
	"context"

	"github.com/hashicorp/terraform-plugin-framework/list"

	"github.com/rms-labs/terraform-provider-rms/internal/client"
)

// NewProjectQuery returns the rms_project list resource, which
// `terraform query` uses to find the account's projects.
func NewProjectQuery() list.ListResource {
	return &namedEntityQuery[client.Project]{typeName: "_project", plural: "projects",
		description: "Finds the account's projects for `terraform query` (Terraform 1.14+): each result is a project's identity (`id`), its name as display name and, with `include_resource` or `-generate-config-out`, the whole `rms_project`.",
		eachPage: func(c *client.Client, ctx context.Context, pageSize int, fn func([]client.Project) error) error {
			return c.Projects.EachPage(ctx, pageSize, fn)
		},
		nameAndID: func(p *client.Project) (string, string) { return p.Name, p.ID.String() },
		toModel:   func(p *client.Project) any { return projectToModel(p, projectModel{}) }}
}
