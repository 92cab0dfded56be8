package provider

import (
	"github.com/hashicorp/terraform-plugin-framework-timetypes/timetypes"
	"github.com/hashicorp/terraform-plugin-framework/types"
	"github.com/rms-labs/terraform-provider-rms/internal/client"
)

type projectModel struct {
	ID           types.String      `tfsdk:"id"`
	Name         types.String      `tfsdk:"name"`
	Description  types.String      `tfsdk:"description"`
	DateCreated  timetypes.RFC3339 `tfsdk:"date_created"`
	DateModified timetypes.RFC3339 `tfsdk:"date_modified"`
}

// projectToModel copies what the server holds into the model. An empty
// description from the server equals a description the user left out.
func projectToModel(p *client.Project, prior projectModel) projectModel {
	m := projectModel{
		ID:           types.StringValue(p.ID.String()),
		Name:         types.StringValue(p.Name),
		Description:  types.StringPointerValue(p.Description),
		DateCreated:  rfc3339(p.DateCreated),
		DateModified: rfc3339(p.DateModified),
	}
	if p.Description != nil && *p.Description == "" && prior.Description.IsNull() {
		m.Description = types.StringNull()
	}
	return m
}
