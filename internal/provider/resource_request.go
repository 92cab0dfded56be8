package provider

import (
	"context"

	"github.com/hashicorp/terraform-plugin-framework/diag"
	"github.com/hashicorp/terraform-plugin-framework/resource"
)

// readUpdate reads an update's plan and prior state into models of type M,
// and says whether the update can go on: both were read and the provider has
// a client.
func readUpdate[M any](ctx context.Context, req resource.UpdateRequest, d *providerData, diags *diag.Diagnostics) (plan, state M, ok bool) {
	diags.Append(req.Plan.Get(ctx, &plan)...)
	diags.Append(req.State.Get(ctx, &state)...)
	return plan, state, !diags.HasError() && requireClient(d, diags)
}

// readModel reads a plan or a prior state into a model of type M, and says
// whether the call can go on: the model was read and the provider has a
// client.
func readModel[M any](ctx context.Context, from interface {
	Get(context.Context, any) diag.Diagnostics
}, d *providerData, diags *diag.Diagnostics) (m M, ok bool) {
	diags.Append(from.Get(ctx, &m)...)
	return m, !diags.HasError() && requireClient(d, diags)
}
