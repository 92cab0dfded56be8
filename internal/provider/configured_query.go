package provider

import (
	"context"
	"iter"

	"github.com/hashicorp/terraform-plugin-framework/list"
	"github.com/hashicorp/terraform-plugin-framework/list/schema"
	"github.com/hashicorp/terraform-plugin-framework/resource"
)

// queryConfig is the configuration of a list resource together with what
// the list resource does with it. Its zero value describes the list
// resource; a value read from the `list` block finds the results.
type queryConfig interface {
	// describe gives the type name after the provider's name, and the
	// schema of the `list` block's config.
	describe() (typeName string, s schema.Schema)
	// results streams what the configuration asks for; the provider is
	// configured.
	results(ctx context.Context, d *providerData, req list.ListRequest) iter.Seq[list.ListResult]
}

// configuredQuery is a list resource whose config is C: everything a list
// resource does besides describing itself and finding its results is the
// same for all of them, so it is written once here.
type configuredQuery[C queryConfig] struct {
	data *providerData
}

func (r *configuredQuery[C]) Metadata(_ context.Context, req resource.MetadataRequest, resp *resource.MetadataResponse) {
	var zero C
	typeName, _ := zero.describe()
	resp.TypeName = req.ProviderTypeName + typeName
}

func (r *configuredQuery[C]) ListResourceConfigSchema(_ context.Context, _ list.ListResourceSchemaRequest, resp *list.ListResourceSchemaResponse) {
	var zero C
	_, resp.Schema = zero.describe()
}

func (r *configuredQuery[C]) Configure(_ context.Context, req resource.ConfigureRequest, resp *resource.ConfigureResponse) {
	r.data = configuredData(req.ProviderData, &resp.Diagnostics)
}

func (r *configuredQuery[C]) List(ctx context.Context, req list.ListRequest, stream *list.ListResultsStream) {
	stream.Results = queryResults(ctx, req, r.data, func(cfg C) iter.Seq[list.ListResult] {
		return cfg.results(ctx, r.data, req)
	})
}

// queryResults reads a list resource's config into a C and streams what
// results makes of it, or, when the config cannot be read or the provider
// is not configured, the diagnostics that say so.
func queryResults[C any](ctx context.Context, req list.ListRequest, d *providerData, results func(cfg C) iter.Seq[list.ListResult]) iter.Seq[list.ListResult] {
	var cfg C
	if s := listConfigStream(ctx, req, &cfg, d); s != nil {
		return s
	}
	return results(cfg)
}
