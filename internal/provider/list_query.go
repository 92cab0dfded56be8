package provider

import (
	"context"

	"github.com/hashicorp/terraform-plugin-framework/diag"
	"github.com/hashicorp/terraform-plugin-framework/list"
	"github.com/hashicorp/terraform-plugin-framework/list/schema"
	"github.com/hashicorp/terraform-plugin-framework/resource"
	"github.com/hashicorp/terraform-plugin-framework/types"

	"github.com/rms-labs/terraform-provider-rms/internal/client"
)

var (
	_ list.ListResource              = &listQuery{}
	_ list.ListResourceWithConfigure = &listQuery{}
)

// NewListQuery returns the list resource of rms_list, which
// `terraform query` uses to find the account's recipient lists.
func NewListQuery() list.ListResource { return &listQuery{} }

type listQuery struct {
	data *providerData
}

type listQueryConfig struct {
	NameContains types.String `tfsdk:"name_contains"`
}

func (r *listQuery) Metadata(_ context.Context, req resource.MetadataRequest, resp *resource.MetadataResponse) {
	resp.TypeName = req.ProviderTypeName + "_list"
}

func (r *listQuery) ListResourceConfigSchema(_ context.Context, _ list.ListResourceSchemaRequest, resp *list.ListResourceSchemaResponse) {
	resp.Schema = schema.Schema{
		Description: "Finds the account's recipient lists for `terraform query` (Terraform 1.14+): each result is a list's identity (`id`), its name as display name and, with `include_resource` or `-generate-config-out`, the whole `rms_list`. Find a list's contacts with the `rms_contact` list resource.",
		Attributes: map[string]schema.Attribute{
			"name_contains": nameContainsAttribute("lists"),
		},
	}
}

func (r *listQuery) Configure(_ context.Context, req resource.ConfigureRequest, resp *resource.ConfigureResponse) {
	r.data = configuredData(req.ProviderData, &resp.Diagnostics)
}

func (r *listQuery) List(ctx context.Context, req list.ListRequest, stream *list.ListResultsStream) {
	var cfg listQueryConfig
	if s := listConfigStream(ctx, req, &cfg, r.data); s != nil {
		stream.Results = s
		return
	}
	match := nameMatcher(cfg.NameContains)
	stream.Results = streamResults(ctx, req, "Unable to list lists", func(ctx context.Context, e *resultEmitter) error {
		return r.data.client.EachListPage(ctx, queryPageSize(req.Limit, !cfg.NameContains.IsNull()), func(page []client.List) error {
			for _, l := range page {
				if !match(l.Name) {
					continue
				}
				err := e.emit(l.Name, map[string]string{"id": l.ID.String()}, func() (any, diag.Diagnostics) {
					return listToModel(&l, listModel{}), nil
				})
				if err != nil {
					return err
				}
			}
			return nil
		})
	})
}
