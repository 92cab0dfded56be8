package validators

import (
	"context"

	"github.com/hashicorp/terraform-plugin-framework/schema/validator"

	"github.com/rms-labs/terraform-provider-rms/internal/client"
)

// Delimiter checks that a column delimiter of a list import is one
// character the service can take (client.DelimiterCode's rule).
func Delimiter() validator.String { return delimiter{} }

type delimiter struct{}

func (delimiter) Description(context.Context) string {
	return "a single ASCII character other than a line break or the double quote"
}

func (v delimiter) MarkdownDescription(ctx context.Context) string {
	return v.Description(ctx)
}

func (delimiter) ValidateString(_ context.Context, req validator.StringRequest, resp *validator.StringResponse) {
	if req.ConfigValue.IsNull() || req.ConfigValue.IsUnknown() {
		return
	}
	if _, err := client.DelimiterCode(req.ConfigValue.ValueString()); err != nil {
		resp.Diagnostics.AddAttributeError(req.Path, "Invalid delimiter", err.Error()+".")
	}
}
