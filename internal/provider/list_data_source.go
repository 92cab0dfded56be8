package provider

import (
	"context"

	"github.com/hashicorp/terraform-plugin-framework-timetypes/timetypes"
	"github.com/hashicorp/terraform-plugin-framework/datasource"
	"github.com/hashicorp/terraform-plugin-framework/datasource/schema"
	"github.com/hashicorp/terraform-plugin-framework/types"

	"github.com/rms-labs/terraform-provider-rms/internal/client"
)

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

func listDataSourceSchema() schema.Schema {
	attrs := listComputedAttributes()
	attrs["id"] = schema.StringAttribute{
		Optional: true, Computed: true,
		Description: "Id of the list. Give either `id` or `name`.",
	}
	attrs["name"] = schema.StringAttribute{
		Optional: true, Computed: true,
		Description: "Name of the list. Give either `id` or `name`; a name must match exactly one list.",
	}
	return schema.Schema{
		Description: "Reads one recipient list, by id or by name. Looking up by name fails when no list or more than one list has that name.",
		Attributes:  attrs,
	}
}

// NewListDataSource returns the rms_list data source.
func NewListDataSource() datasource.DataSource {
	return &namedEntityDataSource[listModel, client.List]{noun: "list", schema: listDataSourceSchema,
		idAndName: func(cfg listModel) (types.String, types.String) { return cfg.ID, cfg.Name },
		toModel:   func(l *client.List, _ listModel) listModel { return listToModel(l, listModel{}) },
		objName:   func(l *client.List) string { return l.Name },
		objID:     func(l *client.List) string { return l.ID.String() },
		get: func(c *client.Client, ctx context.Context, id string) (*client.List, error) {
			return c.Lists.Get(ctx, id)
		},
		all: func(c *client.Client, ctx context.Context) ([]client.List, error) { return c.Lists.List(ctx) }}
}
