package validators

import (
	"context"
	"fmt"
	"net/mail"

	"github.com/hashicorp/terraform-plugin-framework/schema/validator"
)

// BareEmail checks that a string is a bare e-mail address
// (`news@example.com`), the form the service takes for a sender address:
// not a display name with the address in angle brackets, not a comment,
// not something else. nameAttr, when not empty, is the attribute that
// holds the name a display name would have given.
func BareEmail(nameAttr string) validator.String { return bareEmail{nameAttr: nameAttr} }

type bareEmail struct{ nameAttr string }

func (bareEmail) Description(context.Context) string {
	return "a bare e-mail address such as news@example.com, without a display name"
}

func (v bareEmail) MarkdownDescription(ctx context.Context) string {
	return v.Description(ctx)
}

func (v bareEmail) ValidateString(_ context.Context, req validator.StringRequest, resp *validator.StringResponse) {
	if req.ConfigValue.IsNull() || req.ConfigValue.IsUnknown() {
		return
	}
	raw := req.ConfigValue.ValueString()
	a, err := mail.ParseAddress(raw)
	switch {
	case err != nil:
		resp.Diagnostics.AddAttributeError(req.Path, "Invalid e-mail address",
			fmt.Sprintf("%s %q is not an e-mail address: write a bare address such as news@example.com.", req.Path, raw))
	case a.Address != raw:
		fix := ""
		if a.Name != "" && v.nameAttr != "" {
			fix = fmt.Sprintf(", and put the name %q in %s", a.Name, v.nameAttr)
		}
		resp.Diagnostics.AddAttributeError(req.Path, "Invalid e-mail address",
			fmt.Sprintf("%s %q is more than a bare e-mail address, which is all the service takes: write %q%s.", req.Path, raw, a.Address, fix))
	}
}
