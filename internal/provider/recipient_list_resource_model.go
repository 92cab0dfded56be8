package provider

import (
	"github.com/hashicorp/terraform-plugin-framework/types"

	"github.com/rms-labs/terraform-provider-rms/internal/client"
)

// listResourceModel is rms_list's state: the list as the service holds it
// (listModel, shared with the data sources and the list resource) and what
// only the managed resource holds.
type listResourceModel struct {
	listModel
	SuppressionListID  types.String `tfsdk:"suppression_list_id"`
	DeletionProtection types.Bool   `tfsdk:"deletion_protection"`
}

// listResourceToModel copies what the server holds into the resource's
// model. What the service never sees keeps the prior value:
// suppression_list_id (null after an import), and deletion_protection,
// where a null one (a state written before the argument existed, an
// import, a move from rms_resource) becomes true: null already counts as
// protected, and writing it down keeps the next plan empty.
func listResourceToModel(l *client.List, prior listResourceModel) listResourceModel {
	return listResourceModel{
		listModel:          listToModel(l, prior.listModel),
		SuppressionListID:  prior.SuppressionListID,
		DeletionProtection: types.BoolValue(deletionProtected(prior.DeletionProtection)),
	}
}

// deletionProtected reads deletion_protection: only an explicit false lifts
// it. Null (a state from before the argument, an import not yet refreshed)
// and unknown count as protected, the safe side.
func deletionProtected(v types.Bool) bool {
	return v.IsNull() || v.IsUnknown() || v.ValueBool()
}

// sameListInput reports whether two models ask the service for the same
// list, so that an update changing only what the service never sees
// (deletion_protection) makes no call.
func sameListInput(a, b listModel) bool {
	return a.Name.Equal(b.Name) && a.Description.Equal(b.Description) &&
		a.SenderName.Equal(b.SenderName) && a.SenderEmail.Equal(b.SenderEmail)
}
