package provider

import (
	"context"
	"iter"

	"strings"

	"github.com/hashicorp/terraform-plugin-framework/diag"
	"github.com/hashicorp/terraform-plugin-framework/list"
	"github.com/hashicorp/terraform-plugin-framework/list/schema"
	"github.com/hashicorp/terraform-plugin-framework/resource"
	"github.com/hashicorp/terraform-plugin-framework/types"

	"github.com/rms-labs/terraform-provider-rms/internal/client"
)

// namedEntityQuery is the list resource of a plain domain whose objects
// are known by an id and shown by their name (rms_project, rms_list): it
// pages through the domain, keeps the objects whose name passes the
// optional name_contains filter and reads each whole into the resource's
// model. Such list resources differ only in their calls, their model and
// their words, so the listing is written once here.
//
// E is the client's object.
type namedEntityQuery[E any] struct {
	data *providerData

	typeName    string // after the provider's name, e.g. "_list"
	plural      string // "lists": in the filter's description and in diagnostics
	description string

	eachPage func(c *client.Client, ctx context.Context, pageSize int, fn func([]E) error) error
	// nameAndID are the object's display name and the id of its identity.
	nameAndID func(obj *E) (name, id string)
	toModel   func(obj *E) any
}

var (
	_ list.ListResource              = &namedEntityQuery[client.List]{}
	_ list.ListResourceWithConfigure = &namedEntityQuery[client.Project]{}
)

type namedEntityQueryConfig struct {
	NameContains types.String `tfsdk:"name_contains"`
}

func (r *namedEntityQuery[E]) Metadata(_ context.Context, req resource.MetadataRequest, resp *resource.MetadataResponse) {
	resp.TypeName = req.ProviderTypeName + r.typeName
}

func (r *namedEntityQuery[E]) ListResourceConfigSchema(_ context.Context, _ list.ListResourceSchemaRequest, resp *list.ListResourceSchemaResponse) {
	resp.Schema = schema.Schema{
		Description: r.description,
		Attributes: map[string]schema.Attribute{
			"name_contains": nameContainsAttribute(r.plural),
		},
	}
}

func (r *namedEntityQuery[E]) Configure(_ context.Context, req resource.ConfigureRequest, resp *resource.ConfigureResponse) {
	r.data = configuredData(req.ProviderData, &resp.Diagnostics)
}

func (r *namedEntityQuery[E]) List(ctx context.Context, req list.ListRequest, stream *list.ListResultsStream) {
	stream.Results = queryResults(ctx, req, r.data, func(cfg namedEntityQueryConfig) iter.Seq[list.ListResult] {
		return r.results(ctx, cfg, req)
	})
}

func (r *namedEntityQuery[E]) results(ctx context.Context, cfg namedEntityQueryConfig, req list.ListRequest) iter.Seq[list.ListResult] {
	match := nameMatcher(cfg.NameContains)
	return streamResults(ctx, req, "Unable to list "+r.plural, func(ctx context.Context, e *resultEmitter) error {
		return r.eachPage(r.data.client, ctx, queryPageSize(req.Limit, !cfg.NameContains.IsNull()), func(page []E) error {
			for i := range page {
				obj := &page[i]
				name, id := r.nameAndID(obj)
				if !match(name) {
					continue
				}
				err := e.emit(name, map[string]string{"id": id}, func() (any, diag.Diagnostics) {
					return r.toModel(obj), nil
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
