package provider

import (
	"strings"

	"github.com/hashicorp/terraform-plugin-framework/path"
)

// contactImportID is the id of an rms_contact: list id and original id
// joined by a slash. The list id is digits, so the first slash splits them
// even when the original id holds slashes.
func contactImportID(listID, originalID string) string { return listID + "/" + originalID }

func splitContactImportID(id string) (listID, originalID string, ok bool) {
	listID, originalID, ok = strings.Cut(id, "/")
	return listID, originalID, ok && isEntityID(listID) && originalID != ""
}

// contactFieldPath maps a field of a contact error onto the attribute to
// blame: "properties.<key>" is that key of properties.
func contactFieldPath(field string) (path.Path, bool) {
	switch field {
	case "originalId":
		return path.Root("original_id"), true
	case "status":
		return path.Root("email_status"), true
	case "mobileStatus":
		return path.Root("mobile_status"), true
	case "properties":
		return path.Root("properties"), true
	}
	if key, ok := strings.CutPrefix(field, "properties."); ok {
		return path.Root("properties").AtMapKey(key), true
	}
	return path.Empty(), false
}
