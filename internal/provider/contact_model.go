package provider

import (
	"strings"

	"github.com/hashicorp/terraform-plugin-framework-timetypes/timetypes"
	"github.com/hashicorp/terraform-plugin-framework/types"
)

// contactModel is the state of an rms_contact: the resource, its import,
// its identity and the list resource that reads contacts all fill it.
type contactModel struct {
	ID           types.String      `tfsdk:"id"`
	ListID       types.String      `tfsdk:"list_id"`
	OriginalID   types.String      `tfsdk:"original_id"`
	Properties   types.Map         `tfsdk:"properties"`
	EmailStatus  types.String      `tfsdk:"email_status"`
	MobileStatus types.String      `tfsdk:"mobile_status"`
	DateCreated  timetypes.RFC3339 `tfsdk:"date_created"`
	DateModified timetypes.RFC3339 `tfsdk:"date_modified"`

	AllowResubscribe    types.Bool   `tfsdk:"allow_resubscribe"`
	ServiceEmailStatus  types.String `tfsdk:"service_email_status"`
	ServiceMobileStatus types.String `tfsdk:"service_mobile_status"`
}

// contactImportID is the id of an rms_contact: list id and original id
// joined by a slash. The list id is digits, so the first slash splits them
// even when the original id holds slashes.
func contactImportID(listID, originalID string) string { return listID + "/" + originalID }

func splitContactImportID(id string) (listID, originalID string, ok bool) {
	listID, originalID, ok = strings.Cut(id, "/")
	return listID, originalID, ok && isEntityID(listID) && originalID != ""
}
