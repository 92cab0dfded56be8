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
