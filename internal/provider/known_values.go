package provider

import "github.com/hashicorp/terraform-plugin-framework/types"

// Whether a configuration's collections are known whole, for the provider
// block's settings: ConfigureProvider must not resolve a value Terraform
// will only know during the apply.

// mapKnown reports whether a map and every element are known.
func mapKnown(m types.Map) bool {
	if m.IsUnknown() {
		return false
	}
	for _, v := range m.Elements() {
		if v.IsUnknown() {
			return false
		}
	}
	return true
}

// listKnown reports whether a list and every element are known.
func listKnown(l types.List) bool {
	if l.IsUnknown() {
		return false
	}
	for _, e := range l.Elements() {
		if e.IsUnknown() {
			return false
		}
	}
	return true
}
