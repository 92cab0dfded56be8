package provider

import (
	"context"

	"github.com/hashicorp/terraform-plugin-framework/diag"
	"github.com/hashicorp/terraform-plugin-framework/resource"
	"github.com/hashicorp/terraform-plugin-framework/resource/identityschema"
	"github.com/hashicorp/terraform-plugin-framework/types"
)

// contactIdentityModel is the identity of an rms_contact (Terraform 1.12+):
// the list and the contact's original id in it, the two halves of its
// string import id "list_id/original_id".
type contactIdentityModel struct {
	ListID     types.String `tfsdk:"list_id"`
	OriginalID types.String `tfsdk:"original_id"`
}

func contactIdentity(m contactModel) contactIdentityModel {
	return contactIdentityModel{ListID: m.ListID, OriginalID: m.OriginalID}
}

func contactIdentitySchema() identityschema.Schema {
	return identityschema.Schema{
		Attributes: map[string]identityschema.Attribute{
			"list_id": identityschema.StringAttribute{
				RequiredForImport: true,
				Description:       "Id of the list the contact belongs to, e.g. `\"42\"`.",
			},
			"original_id": identityschema.StringAttribute{
				RequiredForImport: true,
				Description:       "The contact's original id, which identifies it inside the list, e.g. `\"customer-7\"`.",
			},
		},
	}
}

// contactImportTarget reads the list id and original id of an import, from
// the import string or else from the import block's identity, and checks
// them before any call so that a typo names the problem instead of
// surfacing as a 404.
func contactImportTarget(ctx context.Context, req resource.ImportStateRequest, diags *diag.Diagnostics) (listID, originalID string, ok bool) {
	if req.ID != "" {
		listID, originalID, ok = splitContactImportID(req.ID)
		if !ok {
			diags.AddError("Invalid import id",
				"Import an rms_contact by its list id and original id joined by a slash, e.g. `terraform import rms_contact.example 42/customer-7`; got "+quote(req.ID)+".")
		}
		return listID, originalID, ok
	}
	var ident contactIdentityModel
	if !importIdentity(ctx, "rms_contact", req, &ident, diags) {
		return "", "", false
	}
	listID, originalID = ident.ListID.ValueString(), ident.OriginalID.ValueString()
	if !isEntityID(listID) || originalID == "" {
		diags.AddError("Invalid import identity",
			"Import an rms_contact by the numeric id of its list and its original id, e.g. `identity = { list_id = \"42\", original_id = \"customer-7\" }` in an import block; got list_id "+
				quote(listID)+" and original_id "+quote(originalID)+".")
		return "", "", false
	}
	return listID, originalID, true
}
