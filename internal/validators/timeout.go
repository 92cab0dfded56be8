package validators

import (
	"context"
	"fmt"
	"time"

	"github.com/hashicorp/terraform-plugin-framework/schema/validator"
)

// Timeout accepts a time limit written as a positive Go duration (an
// action's timeout); its error is worded for a timeout.
func Timeout() validator.String { return timeout{} }

type timeout struct{}

func (timeout) Description(context.Context) string {
	return "a positive Go duration such as 45m or 2h"
}

func (v timeout) MarkdownDescription(ctx context.Context) string { return v.Description(ctx) }

func (timeout) ValidateString(_ context.Context, req validator.StringRequest, resp *validator.StringResponse) {
	if req.ConfigValue.IsNull() || req.ConfigValue.IsUnknown() {
		return
	}
	if d, err := time.ParseDuration(req.ConfigValue.ValueString()); err != nil || d <= 0 {
		resp.Diagnostics.AddAttributeError(req.Path, "Invalid timeout",
			fmt.Sprintf("%q is not a positive Go duration; write it like 45m, 2h or 90s.", req.ConfigValue.ValueString()))
	}
}
