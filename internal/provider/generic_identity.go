package provider

import (
	"context"
	"strings"

	"github.com/hashicorp/terraform-plugin-framework/diag"
	"github.com/hashicorp/terraform-plugin-framework/resource"
	"github.com/hashicorp/terraform-plugin-framework/resource/identityschema"
	"github.com/hashicorp/terraform-plugin-framework/types"
)

// genericIdentityModel is the identity of an rms_resource (Terraform
// 1.12+): its collection path and its id there, the two parts of its string
// import id "collection/id".
type genericIdentityModel struct {
	Collection types.String `tfsdk:"collection"`
	ID         types.String `tfsdk:"id"`
}

func genericIdentity(m genericResourceModel) genericIdentityModel {
	return genericIdentityModel{Collection: m.Collection, ID: m.ID}
}

func genericIdentitySchema() identityschema.Schema {
	return identityschema.Schema{
		Attributes: map[string]identityschema.Attribute{
			"collection": identityschema.StringAttribute{
				RequiredForImport: true,
				Description:       "Path of the collection after `/{customerid}/`, e.g. `\"campaigns\"` or `\"campaigns/12/notes\"`.",
			},
			"id": identityschema.StringAttribute{
				RequiredForImport: true,
				Description:       "Server-assigned id of the entity in the collection, e.g. `\"42\"`.",
			},
		},
	}
}

// genericImportTarget reads the collection and id of an import, from the
// import string ("collection/id"; the last segment is the id, so a nested
// entity imports as "campaigns/12/notes/5") or else from the import block's
// identity, and checks the collection before any call.
func genericImportTarget(ctx context.Context, req resource.ImportStateRequest, diags *diag.Diagnostics) (collection, id string, ok bool) {
	if req.ID != "" {
		i := strings.LastIndex(req.ID, "/")
		if i <= 0 || i == len(req.ID)-1 || strings.TrimSpace(req.ID) != req.ID {
			diags.AddError("Invalid import id",
				"Import an rms_resource as collection/id, e.g. `terraform import rms_resource.example campaigns/42` or `campaigns/12/notes/5`; got "+quote(req.ID)+".")
			return "", "", false
		}
		collection, id = req.ID[:i], req.ID[i+1:]
	} else {
		var ident genericIdentityModel
		if !importIdentity(ctx, "rms_resource", req, &ident, diags) {
			return "", "", false
		}
		collection, id = ident.Collection.ValueString(), ident.ID.ValueString()
		if id == "" || strings.Contains(id, "/") || strings.TrimSpace(id) != id {
			diags.AddError("Invalid import identity",
				"Import an rms_resource by its collection and the id of the entity in it, e.g. `identity = { collection = \"campaigns\", id = \"42\" }` in an import block; got id "+quote(id)+".")
			return "", "", false
		}
	}
	if msg := checkCollection(collection); msg != "" {
		diags.AddError("Invalid import id", msg)
		return "", "", false
	}
	return collection, id, true
}
