package provider

import (
	"context"
	"strings"

	"github.com/hashicorp/terraform-plugin-framework/diag"
	"github.com/hashicorp/terraform-plugin-framework/list"
	"github.com/hashicorp/terraform-plugin-framework/list/schema"
	"github.com/hashicorp/terraform-plugin-framework/resource"
	"github.com/hashicorp/terraform-plugin-framework/types"

	"github.com/rms-labs/terraform-provider-rms/internal/client"
)

var (
	_ list.ListResource              = &projectQuery{}
	_ list.ListResourceWithConfigure = &projectQuery{}
)

// NewProjectQuery returns the rms_project list resource, which
// `terraform query` uses to find the account's projects.
func NewProjectQuery() list.ListResource { return &projectQuery{} }

type projectQuery struct {
	data *providerData
}

type projectQueryConfig struct {
	NameContains types.String `tfsdk:"name_contains"`
}

func (r *projectQuery) Metadata(_ context.Context, req resource.MetadataRequest, resp *resource.MetadataResponse) {
	resp.TypeName = req.ProviderTypeName + "_project"
}

func (r *projectQuery) ListResourceConfigSchema(_ context.Context, _ list.ListResourceSchemaRequest, resp *list.ListResourceSchemaResponse) {
	resp.Schema = schema.Schema{
		Description: "Finds the account's projects for `terraform query` (Terraform 1.14+): each result is a project's identity (`id`), its name as display name and, with `include_resource` or `-generate-config-out`, the whole `rms_project`.",
		Attributes: map[string]schema.Attribute{
			"name_contains": nameContainsAttribute("projects"),
		},
	}
}

func (r *projectQuery) Configure(_ context.Context, req resource.ConfigureRequest, resp *resource.ConfigureResponse) {
	r.data = configuredData(req.ProviderData, &resp.Diagnostics)
}

func (r *projectQuery) List(ctx context.Context, req list.ListRequest, stream *list.ListResultsStream) {
	var cfg projectQueryConfig
	if s := listConfigStream(ctx, req, &cfg, r.data); s != nil {
		stream.Results = s
		return
	}
	match := nameMatcher(cfg.NameContains)
	stream.Results = streamResults(ctx, req, "Unable to list projects", func(ctx context.Context, e *resultEmitter) error {
		return r.data.client.EachProjectPage(ctx, queryPageSize(req.Limit, !cfg.NameContains.IsNull()), func(page []client.Project) error {
			for _, p := range page {
				if !match(p.Name) {
					continue
				}
				err := e.emit(p.Name, map[string]string{"id": p.ID.String()}, func() (any, diag.Diagnostics) {
					return projectToModel(&p, projectModel{}), nil
				})
				if err != nil {
					return err
				}
			}
			return nil
		})
	})
}

// nameContainsAttribute is the optional name filter of a list resource.
func nameContainsAttribute(what string) schema.StringAttribute {
	return schema.StringAttribute{
		Optional:    true,
		Description: "Only " + what + " whose name contains this text, ignoring case. Leave it out to find all.",
	}
}

// nameMatcher reports whether a name passes a name_contains filter.
func nameMatcher(contains types.String) func(string) bool {
	if contains.IsNull() || contains.ValueString() == "" {
		return func(string) bool { return true }
	}
	want := strings.ToLower(contains.ValueString())
	return func(name string) bool { return strings.Contains(strings.ToLower(name), want) }
}
