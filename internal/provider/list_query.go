package provider

import (
	"context"

	"github.com/hashicorp/terraform-plugin-framework/list"

	"github.com/rms-labs/terraform-provider-rms/internal/client"
)

// NewListQuery returns the list resource of rms_list, which
// `terraform query` uses to find the account's recipient lists.
func NewListQuery() list.ListResource {
	return &namedEntityQuery[client.List]{typeName: "_list", plural: "lists",
		description: "Finds the account's recipient lists for `terraform query` (Terraform 1.14+): each result is a list's identity (`id`), its name as display name and, with `include_resource` or `-generate-config-out`, the whole `rms_list` (`deletion_protection` true, as for an import). Find a list's contacts with the `rms_contact` list resource.",
		eachPage: func(c *client.Client, ctx context.Context, pageSize int, fn func([]client.List) error) error {
			return c.Lists.EachPage(ctx, pageSize, fn)
		},
		nameAndID: func(l *client.List) (string, string) { return l.Name, l.ID.String() },
		toModel:   func(l *client.List) any { return listResourceToModel(l, listResourceModel{}) }}
}
