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

	"github.com/rms-labs/terraform-provider-rms/internal/client"
)

// errEnoughResults stops paging once Terraform needs no more results. It
// never reaches a user.
var errEnoughResults = errors.New("enough results")

// resultEmitter pushes results to Terraform and counts them against the
// request's limit.
type resultEmitter struct {
	push  func(list.ListResult) bool
	limit int64
	sent  int64
}

// emit pushes one result. It returns errEnoughResults when no more are
// wanted (the limit is reached, or Terraform stopped reading), which the
// page callback returns to stop paging.
func (e *resultEmitter) emit(r list.ListResult) error {
	if !e.push(r) {
		return errEnoughResults
	}
	e.sent++
	if e.limit > 0 && e.sent >= e.limit {
		return errEnoughResults
	}
	return nil
}

// streamResults is the iterator the framework reads: run pages through a
// collection and emits results; a failure of run becomes one last result
// carrying an error diagnostic that starts with summary.
func streamResults(ctx context.Context, limit int64, summary string, run func(ctx context.Context, e *resultEmitter) error) iter.Seq[list.ListResult] {
	return func(push func(list.ListResult) bool) {
		e := &resultEmitter{push: push, limit: limit}
		err := run(ctx, e)
		if err == nil || errors.Is(err, errEnoughResults) {
			return
		}
		var diags diag.Diagnostics
		diags.AddError(summary, describeAPIError(err))
		push(list.ListResult{Diagnostics: diags})
	}
}

// newListResult is one listed object: its display name, its identity and,
// when Terraform asks for it (include_resource, or -generate-config-out),
// the whole resource as an import would read it. model is called only then.
func newListResult(ctx context.Context, req list.ListRequest, displayName string, identity any, model func() (any, diag.Diagnostics)) list.ListResult {
	r := req.NewListResult(ctx)
	r.DisplayName = displayName
	r.Diagnostics.Append(r.Identity.Set(ctx, identity)...)
	if req.IncludeResource {
		m, diags := model()
		r.Diagnostics.Append(diags...)
		if !diags.HasError() {
			r.Diagnostics.Append(r.Resource.Set(ctx, m)...)
		}
	}
	return r
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
