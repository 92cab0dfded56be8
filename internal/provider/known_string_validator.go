package provider

import (
	"context"

	"github.com/hashicorp/terraform-plugin-framework/schema/validator"
)

// stringCheck is a plan-time check of one string attribute: what it
// requires, and the summary and detail of the error for a value that fails
// it (both empty for a value that passes).
type stringCheck interface {
	Description(context.Context) string
	check(value string) (summary, detail string)
}

// knownStringValidator runs C's check on configured values once they are
// known: a null or unknown value is left for Terraform to settle.
type knownStringValidator[C stringCheck] struct{ c C }

func (v knownStringValidator[C]) Description(ctx context.Context) string {
	return v.c.Description(ctx)
}

func (v knownStringValidator[C]) MarkdownDescription(ctx context.Context) string {
	return v.c.Description(ctx)
}

func (v knownStringValidator[C]) ValidateString(_ context.Context, req validator.StringRequest, resp *validator.StringResponse) {
	if req.ConfigValue.IsNull() || req.ConfigValue.IsUnknown() {
		return
	}
	if summary, detail := v.c.check(req.ConfigValue.ValueString()); summary != "" {
		resp.Diagnostics.AddAttributeError(req.Path, summary, detail)
	}
}
