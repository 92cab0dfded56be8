package provider

// Resource identity (Terraform 1.12+): a small object Terraform stores beside
// a resource's state that names the remote object, and that `import` blocks
// accept instead of a string id (`identity = { id = "42" }`). Older Terraform
// ignores it, so a resource with identity still works on 1.11.
//
// Adding identity to a resource identified by its server-assigned id alone
// (rms_list, rms_webhook, ...) takes four lines, as rms_project shows:
//
//  1. assert the interface:  _ resource.ResourceWithIdentity = &xResource{}
//  2. declare the schema:
//     func (r *xResource) IdentitySchema(_ context.Context, _ resource.IdentitySchemaRequest, resp *resource.IdentitySchemaResponse) {
//     	resp.IdentitySchema = idIdentitySchema("list")
//     }
//  3. after every successful resp.State.Set in Create, Read and Update:
//     setIdentity(ctx, resp.Identity, idIdentity(model.ID), &resp.Diagnostics)
//     and where Read finds the object gone (404), instead of
//     resp.State.RemoveResource(ctx):
//     removeGone(ctx, resp, idIdentity(state.ID))
//  4. ImportState becomes: importByEntityID(ctx, "rms_list", req, resp)
//
// A resource identified by several attributes (rms_contact by list_id and
// original_id, rms_resource by collection and id) declares its own model
// struct with one types.String per identity attribute, an
// identityschema.Schema with those attributes RequiredForImport, calls
// setIdentity with that struct in Create/Read/Update, and in ImportState
// parses req.ID ("list_id/original_id") when it is set, or else reads
// req.Identity with importIdentity into the struct; then it sets the state
// attributes and the identity from the parsed values.

import (
	"context"

	"github.com/hashicorp/terraform-plugin-framework/diag"
	"github.com/hashicorp/terraform-plugin-framework/path"
	"github.com/hashicorp/terraform-plugin-framework/resource"
	"github.com/hashicorp/terraform-plugin-framework/resource/identityschema"
	"github.com/hashicorp/terraform-plugin-framework/tfsdk"
	"github.com/hashicorp/terraform-plugin-framework/types"
)

// idIdentityModel is the identity of a resource known by its id alone.
type idIdentityModel struct {
	ID types.String `tfsdk:"id"`
}

// idIdentity is the identity of an entity with this id.
func idIdentity(id types.String) idIdentityModel { return idIdentityModel{ID: id} }

// idIdentitySchema declares an identity made of the entity's server-assigned
// id, which is also what an import block's identity must give.
func idIdentitySchema(what string) identityschema.Schema {
	return identityschema.Schema{
		Attributes: map[string]identityschema.Attribute{
			"id": identityschema.StringAttribute{
				RequiredForImport: true,
				Description:       "Server-assigned id of the " + what + ", e.g. `\"42\"`.",
			},
		},
	}
}

// setIdentity stores the identity beside the state. The framework always
// hands a resource with an identity schema a non-nil Identity; the nil check
// keeps resources without one safe to share code with.
func setIdentity(ctx context.Context, identity *tfsdk.ResourceIdentity, model any, diags *diag.Diagnostics) {
	if identity == nil {
		return
	}
	diags.Append(identity.Set(ctx, model)...)
}

// removeGone drops a resource whose object no longer exists from state. The
// identity is still set, from the prior state: the framework rejects a Read
// that ends without identity even when it removes the resource, and
// Terraform before 1.12 (or state written before identity existed) hands
// Read no identity to keep.
func removeGone(ctx context.Context, resp *resource.ReadResponse, identity any) {
	setIdentity(ctx, resp.Identity, identity, &resp.Diagnostics)
	resp.State.RemoveResource(ctx)
}

// importIdentity reads an import block's `identity = { ... }` into target.
// It reports false, with a diagnostic, when there is no identity to read.
func importIdentity(ctx context.Context, typeName string, req resource.ImportStateRequest, target any, diags *diag.Diagnostics) bool {
	if req.Identity == nil || req.Identity.Raw.IsNull() {
		diags.AddError("Missing import id",
			"Import an "+typeName+" by its string id (`terraform import`, or `id` in an import block) or by `identity` in an import block (Terraform 1.12+).")
		return false
	}
	diags.Append(req.Identity.Get(ctx, target)...)
	return !diags.HasError()
}

// importByEntityID imports a resource identified by its numeric id alone,
// given either as the import string or as `identity = { id = "..." }`. The
// id is checked before any call, so a typo names the problem instead of
// surfacing as a 404.
func importByEntityID(ctx context.Context, typeName string, req resource.ImportStateRequest, resp *resource.ImportStateResponse) {
	id := req.ID
	how := "`terraform import " + typeName + ".example 42` or `id = \"42\"` in an import block"
	if id == "" {
		var ident idIdentityModel
		if !importIdentity(ctx, typeName, req, &ident, &resp.Diagnostics) {
			return
		}
		id = ident.ID.ValueString()
		how = "`identity = { id = \"42\" }` in an import block"
	}
	if !isEntityID(id) {
		resp.Diagnostics.AddError("Invalid import id",
			"Import an "+typeName+" by its numeric id, e.g. "+how+"; got "+quote(id)+".")
		return
	}
	resp.Diagnostics.Append(resp.State.SetAttribute(ctx, path.Root("id"), id)...)
	setIdentity(ctx, resp.Identity, idIdentity(types.StringValue(id)), &resp.Diagnostics)
}
