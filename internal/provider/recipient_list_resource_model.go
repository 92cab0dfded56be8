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
	SuppressionListID types.String `tfsdk:"suppression_list_id"`
}

// listResourceToModel copies what the server holds into the resource's
// model; suppression_list_id, which the service never sees, keeps the
// prior value (null after an import).
func listResourceToModel(l *client.List, prior listResourceModel) listResourceModel {
	return listResourceModel{
		listModel:         listToModel(l, prior.listModel),
		SuppressionListID: prior.SuppressionListID,
	}
}
