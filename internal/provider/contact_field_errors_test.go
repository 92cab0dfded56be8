package provider

import (
	"testing"

	"github.com/hashicorp/terraform-plugin-framework/path"
)

func TestContactFieldPath(t *testing.T) {
	t.Parallel()
	tests := map[string]path.Path{
		"originalId":        path.Root("original_id"),
		"status":            path.Root("email_status"),
		"mobileStatus":      path.Root("mobile_status"),
		"properties":        path.Root("properties"),
		"properties.colour": path.Root("properties").AtMapKey("colour"),
		"properties.a.b":    path.Root("properties").AtMapKey("a.b"),
	}
	for field, want := range tests {
		got, ok := contactFieldPath(field)
		if !ok || !got.Equal(want) {
			t.Errorf("contactFieldPath(%q) = %v, %v; want %v", field, got, ok, want)
		}
	}
	if _, ok := contactFieldPath("name"); ok {
		t.Error("an unrelated field mapped onto an attribute")
	}
}
