package validators

import (
	"context"
	"fmt"
	"slices"
	"strings"

	"github.com/hashicorp/terraform-plugin-framework/schema/validator"
)

// Enum accepts one of a fixed set of values, and names the value meant
// where the refused one is a known mistake or differs only in case.
type Enum struct {
	Allowed []string
	Hints   map[string]string // refused value (upper case) -> the value meant
	Note    string            // appended to the message, e.g. why a value is missing
}

var _ validator.String = Enum{}

// Description says which values are allowed.
func (v Enum) Description(context.Context) string {
	return "value must be one of: " + strings.Join(v.Allowed, ", ")
}

// MarkdownDescription is Description.
func (v Enum) MarkdownDescription(ctx context.Context) string { return v.Description(ctx) }

// ValidateString refuses a known value that is not allowed, naming the
// value meant where it can tell.
func (v Enum) ValidateString(_ context.Context, req validator.StringRequest, resp *validator.StringResponse) {
	if req.ConfigValue.IsNull() || req.ConfigValue.IsUnknown() {
		return
	}
	got := req.ConfigValue.ValueString()
	if slices.Contains(v.Allowed, got) {
		return
	}
	upper := strings.ToUpper(strings.TrimSpace(got))
	hint := v.Hints[upper]
	if hint == "" && slices.Contains(v.Allowed, upper) {
		hint = upper
	}
	msg := fmt.Sprintf("%q is not allowed", got)
	if hint != "" {
		msg += fmt.Sprintf("; use %q", hint)
	}
	msg += ". Allowed values: " + strings.Join(v.Allowed, ", ") + "."
	if v.Note != "" {
		msg += " " + v.Note
	}
	resp.Diagnostics.AddAttributeError(req.Path, "Invalid "+req.Path.String(), msg)
}
