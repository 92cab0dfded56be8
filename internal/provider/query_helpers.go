package provider

// Shared parts of the list resources, which let `terraform query`
// (Terraform 1.14+) find what an account already holds and generate
// configuration and import blocks for it. Each list resource pages through
// a collection and pushes one result per object into the framework's
// iterator as soon as its page arrives, so that no collection, however
// large, is held whole; it stops paging as soon as Terraform has the
// `limit` it asked for or stops reading.

import (
	"context"
	"errors"
	"iter"

	"github.com/hashicorp/terraform-plugin-framework/diag"
	"github.com/hashicorp/terraform-plugin-framework/list"
	"github.com/hashicorp/terraform-plugin-framework/tfsdk"
	"github.com/hashicorp/terraform-plugin-go/tftypes"

	"github.com/rms-labs/terraform-provider-rms/internal/client"
)

// errEnoughResults stops paging once Terraform needs no more results. It
// never reaches a user.
var errEnoughResults = errors.New("enough results")

// resultEmitter builds results and pushes them to Terraform, counting them
// against the request's limit.
type resultEmitter struct {
	ctx  context.Context
	req  list.ListRequest
	push func(list.ListResult) bool
	sent int64
	// The types of identity and resource, worked out once per listing
	// rather than once per result.
	identityType, resourceType tftypes.Type
}

// emit pushes one listed object: its display name, its identity (every
// identity attribute of this provider is a string) and, when Terraform asks
// for it (include_resource, or -generate-config-out), the whole resource as
// an import would read it; model is called only then, and returns either a
// model struct or, where reflection would cost too much per result, the
// resource's value itself (see contactModel.terraformValue). It returns
// errEnoughResults when no more results are wanted (the limit is reached,
// or Terraform stopped reading), which the page callback returns to stop
// paging.
func (e *resultEmitter) emit(displayName string, identity map[string]string, model func() (any, diag.Diagnostics)) error {
	attrs := make(map[string]tftypes.Value, len(identity))
	for k, v := range identity {
		attrs[k] = tftypes.NewValue(tftypes.String, v)
	}
	r := list.ListResult{
		DisplayName: displayName,
		// Built directly: the reflection of Identity.Set costs more than
		// the rest of a contact's result together.
		Identity: &tfsdk.ResourceIdentity{Raw: tftypes.NewValue(e.identityType, attrs), Schema: e.req.ResourceIdentitySchema},
	}
	if e.req.IncludeResource {
		r.Resource = &tfsdk.Resource{Raw: tftypes.NewValue(e.resourceType, nil), Schema: e.req.ResourceSchema}
		m, diags := model()
		r.Diagnostics.Append(diags...)
		switch v := m.(type) {
		case nil:
		case tftypes.Value:
			r.Resource.Raw = v
		default:
			if !diags.HasError() {
				r.Diagnostics.Append(r.Resource.Set(e.ctx, m)...)
			}
		}
	}
	if !e.push(r) {
		return errEnoughResults
	}
	e.sent++
	if e.req.Limit > 0 && e.sent >= e.req.Limit {
		return errEnoughResults
	}
	return nil
}

// streamResults is the iterator the framework reads: run pages through a
// collection and emits results; a failure of run becomes one last result
// carrying an error diagnostic that starts with summary.
func streamResults(ctx context.Context, req list.ListRequest, summary string, run func(ctx context.Context, e *resultEmitter) error) iter.Seq[list.ListResult] {
	return func(push func(list.ListResult) bool) {
		e := &resultEmitter{
			ctx: ctx, req: req, push: push,
			identityType: req.ResourceIdentitySchema.Type().TerraformType(ctx),
			resourceType: req.ResourceSchema.Type().TerraformType(ctx),
		}
		err := run(ctx, e)
		if err == nil || errors.Is(err, errEnoughResults) {
			return
		}
		var diags diag.Diagnostics
		diags.AddError(summary, describeAPIError(err))
		push(list.ListResult{Diagnostics: diags})
	}
}

// listConfigStream reads a list block's config into target, or returns the
// stream that reports why it cannot; nil means go on.
func listConfigStream(ctx context.Context, req list.ListRequest, target any, data *providerData) iter.Seq[list.ListResult] {
	var diags diag.Diagnostics
	diags.Append(req.Config.Get(ctx, target)...)
	if !diags.HasError() {
		requireClient(data, &diags)
	}
	if diags.HasError() {
		return list.ListResultsStreamDiagnostics(diags)
	}
	return nil
}

// queryPageSize is the page size a list resource asks for: the service's
// largest, or the limit when Terraform wants fewer and every object on a
// page becomes a result (no filter drops any).
func queryPageSize(limit int64, filtered bool) int {
	if !filtered && limit > 0 && limit < client.MaxPageSize {
		return int(limit)
	}
	return client.MaxPageSize
}
