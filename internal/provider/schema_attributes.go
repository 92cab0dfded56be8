package provider

import (
	"regexp"

	"github.com/hashicorp/terraform-plugin-framework-timetypes/timetypes"
	"github.com/hashicorp/terraform-plugin-framework-validators/stringvalidator"
	"github.com/hashicorp/terraform-plugin-framework/resource/schema"
	"github.com/hashicorp/terraform-plugin-framework/resource/schema/planmodifier"
	"github.com/hashicorp/terraform-plugin-framework/resource/schema/stringplanmodifier"
	"github.com/hashicorp/terraform-plugin-framework/schema/validator"
)

// Schema attributes that managed resources share, so that their
// descriptions read the same everywhere.

// idAttribute is the computed, server-assigned id of a managed entity.
func idAttribute(what string) schema.StringAttribute {
	return schema.StringAttribute{
		Computed:      true,
		Description:   "Server-assigned id of the " + what + ".",
		PlanModifiers: []planmodifier.String{stringplanmodifier.UseStateForUnknown()},
	}
}

// dateCreatedAttribute never changes after create, so the plan keeps it.
func dateCreatedAttribute(what string) schema.StringAttribute {
	return schema.StringAttribute{
		Computed:      true,
		CustomType:    timetypes.RFC3339Type{},
		Description:   "When the " + what + " was created (RFC 3339, set by the service).",
		PlanModifiers: []planmodifier.String{stringplanmodifier.UseStateForUnknown()},
	}
}

// dateModifiedAttribute changes on every update and is unknown in its plan.
func dateModifiedAttribute(what string) schema.StringAttribute {
	return schema.StringAttribute{
		Computed:    true,
		CustomType:  timetypes.RFC3339Type{},
		Description: "When the " + what + " was last changed (RFC 3339, set by the service).",
	}
}

// batchIDValidators check a batch id at plan time.
var batchIDValidators = []validator.String{stringvalidator.RegexMatches(regexp.MustCompile(`^[0-9]+$`), "must be a numeric batch id")}

func joinTicks(s []string) string {
	out := ""
	for i, v := range s {
		if i > 0 {
			out += "`, `"
		}
		out += v
	}
	return out
}
