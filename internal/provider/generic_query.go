package provider

import (
	"context"
	"fmt"
	"iter"

	"github.com/hashicorp/terraform-plugin-framework/diag"
	"github.com/hashicorp/terraform-plugin-framework/list"
	"github.com/hashicorp/terraform-plugin-framework/list/schema"
	"github.com/hashicorp/terraform-plugin-framework/types"

	"github.com/rms-labs/terraform-provider-rms/internal/client"
	"github.com/rms-labs/terraform-provider-rms/internal/dynamic"
)

// NewGenericQuery returns the rms_resource list resource, which
// `terraform query` uses to find the entities of a generic collection.
func NewGenericQuery() list.ListResource { return &configuredQuery[genericQueryConfig]{} }

type genericQueryConfig struct {
	Collection types.String `tfsdk:"collection"`
}

func (genericQueryConfig) describe() (string, schema.Schema) {
	return "_resource", schema.Schema{
		Description: "Finds the entities of one collection of the service's generic resource pattern for `terraform query` (Terraform 1.14+): each result is an entity's identity (`collection`, `id`), its `name` (or `collection/id` when it has none) as display name and, with `include_resource` or `-generate-config-out`, the whole `rms_resource`, whose `body` holds every field of the entity except `id`, `dateCreated` and `dateModified`, as an import reads it.",
		Attributes: map[string]schema.Attribute{
			"collection": schema.StringAttribute{
				Required:    true,
				Description: "Path of the collection after `/{customerid}/`, as in `rms_resource`: a public domain such as `campaigns`, `filters` or `triggers`, or a nested collection `parent/{id}/name`.",
				Validators:  collectionValidators,
			},
		},
	}
}

func (cfg genericQueryConfig) results(ctx context.Context, d *providerData, req list.ListRequest) iter.Seq[list.ListResult] {
	collection := cfg.Collection.ValueString()
	return streamResults(ctx, req, "Unable to list "+collection, func(ctx context.Context, e *resultEmitter) error {
		return d.client.Entities.EachPage(ctx, collection, queryPageSize(req.Limit, false), func(page []client.Entity) error {
			for _, ent := range page {
				id := client.EntityID(ent)
				if id == "" {
					continue // nothing Terraform could import it by
				}
				identity := map[string]string{"collection": collection, "id": id}
				err := e.emit(entityDisplayName(collection, id, ent), identity, func() (any, diag.Diagnostics) {
					return importedEntityModel(collection, id, ent)
				})
				if err != nil {
					return err
				}
			}
			return nil
		})
	})
}

// importedEntityModel is the state of an entity taken under management, as
// an import's Read makes it: body holds every field the entity has except
// those the server sets, so that configuration generated from it manages
// the whole entity.
func importedEntityModel(collection, id string, e client.Entity) (genericResourceModel, diag.Diagnostics) {
	var diags diag.Diagnostics
	m := genericResourceModel{ID: types.StringValue(id), Collection: types.StringValue(collection)}
	body, err := dynamic.FromJSON(withoutReserved(e), types.DynamicNull())
	if err != nil {
		diags.AddError("Unable to convert the entity", fmt.Sprintf("%s/%s: %s", collection, id, err))
		return m, diags
	}
	m.Body = body
	diags.Append(setOutput(&m, e, nil)...)
	return m, diags
}

// entityDisplayName is the entity's name when it has one, else its path.
func entityDisplayName(collection, id string, e client.Entity) string {
	if name, ok := e["name"].(string); ok && name != "" {
		return name
	}
	return collection + "/" + id
}
