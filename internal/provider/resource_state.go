package provider

import (
	"context"

	"github.com/hashicorp/terraform-plugin-framework/diag"
	"github.com/hashicorp/terraform-plugin-framework/tfsdk"
)

// What managed resources share about their state: saving a model with its
// identity, also of an object a create made but could not read, and the
// framework's private state.

// saveMade records an object a create made whose answer could not be read
// (client.MadeID): m is the plan with the id set and every value only the
// service could give null. The create's error then makes Terraform save it
// tainted, so nothing is left behind unmanaged and the next apply settles it.
func saveMade(ctx context.Context, state *tfsdk.State, identity *tfsdk.ResourceIdentity, m any, id any, diags *diag.Diagnostics) {
	saveWithIdentity(ctx, state, identity, m, id, diags)
}

// saveWithIdentity stores a model and, beside it, its identity.
func saveWithIdentity(ctx context.Context, state *tfsdk.State, identity *tfsdk.ResourceIdentity, m any, id any, diags *diag.Diagnostics) {
	diags.Append(state.Set(ctx, m)...)
	setIdentity(ctx, identity, id, diags)
}

// privateGetter and privateSetter are the parts of the framework's private
// state (resp.Private, req.Private) that resources use; its type is
// internal to the framework.
type privateGetter interface {
	GetKey(ctx context.Context, key string) ([]byte, diag.Diagnostics)
}

type privateSetter interface {
	SetKey(ctx context.Context, key string, value []byte) diag.Diagnostics
}
