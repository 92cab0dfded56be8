package provider

import (
	"context"
	"testing"

	"github.com/hashicorp/terraform-plugin-framework/resource"
	"github.com/hashicorp/terraform-plugin-framework/resource/schema"
)

// ValidateConfig runs the validators of the string fields of a contact,
// which the framework does not see when the map is carried past it; a
// validator on a field of another type would go unrun.
func TestListContactsCarriedValidatorsAreStringOnes(t *testing.T) {
	t.Parallel()
	var s resource.SchemaResponse
	(&listContactsResource{}).Schema(context.Background(), resource.SchemaRequest{}, &s)
	nested, ok := s.Schema.Attributes["contacts"].(schema.MapNestedAttribute)
	if !ok {
		t.Fatalf("contacts is a %T, not a map of objects", s.Schema.Attributes["contacts"])
	}
	strings := 0
	for name, a := range nested.NestedObject.Attributes {
		switch a := a.(type) {
		case schema.StringAttribute:
			strings += len(a.Validators)
		case schema.MapAttribute:
			if len(a.Validators) > 0 {
				t.Errorf("contacts[*].%s declares validators that ValidateConfig does not run", name)
			}
		default:
			t.Errorf("contacts[*].%s is a %T: teach ValidateConfig its validators", name, a)
		}
	}
	if strings == 0 {
		t.Error("no string field of a contact declares a validator: the statuses' OneOf is gone?")
	}
	if nested.Validators != nil || nested.NestedObject.Validators != nil {
		t.Error("contacts declares validators of the map or of its objects, which ValidateConfig does not run")
	}
}
