package provider

import (
	"github.com/hashicorp/terraform-plugin-framework-validators/stringvalidator"
	"github.com/hashicorp/terraform-plugin-framework/schema/validator"
)

// nonEmptyAnd is the validators of a string that must not be empty and must
// also pass more (the pairing rules of an attribute with another).
func nonEmptyAnd(more ...validator.String) []validator.String {
	return append([]validator.String{stringvalidator.LengthAtLeast(1)}, more...)
}
