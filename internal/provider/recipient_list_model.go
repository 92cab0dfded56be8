package provider

import (
	"github.com/hashicorp/terraform-plugin-framework-timetypes/timetypes"
	"github.com/hashicorp/terraform-plugin-framework/types"
	"github.com/rms-labs/terraform-provider-rms/internal/client"
)

type listModel struct {
	ID           types.String      `tfsdk:"id"`
	Name         types.String      `tfsdk:"name"`
	Description  types.String      `tfsdk:"description"`
	SenderName   types.String      `tfsdk:"sender_name"`
	SenderEmail  types.String      `tfsdk:"sender_email"`
	DateCreated  timetypes.RFC3339 `tfsdk:"date_created"`
	DateModified timetypes.RFC3339 `tfsdk:"date_modified"`
}

// listToModel copies what the server holds into the model. An empty
// optional value from the server equals one the user left out.
func listToModel(l *client.List, prior listModel) listModel {
	return listModel{
		ID:           types.StringValue(l.ID.String()),
		Name:         types.StringValue(l.Name),
		Description:  optionalString(l.Description, prior.Description),
		SenderName:   optionalString(l.SenderName, prior.SenderName),
		SenderEmail:  optionalString(l.SenderEmail, prior.SenderEmail),
		DateCreated:  rfc3339(l.DateCreated),
		DateModified: rfc3339(l.DateModified),
	}
}
