package provider

import (
	"strings"

	"github.com/hashicorp/terraform-plugin-framework/path"
)

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

// contactFieldHint is what to add to the error about a field of a contact.
func contactFieldHint(field string) string {
	if field == "properties" || strings.HasPrefix(field, "properties.") {
		return "\n\nA properties key must be the name or the id of a contact attribute of the account (the service's Properties domain lists them), and each attribute may be given once."
	}
	return ""
}
