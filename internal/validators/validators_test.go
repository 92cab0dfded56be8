package validators

import (
	"context"
	"strings"
	"testing"

	"github.com/hashicorp/terraform-plugin-framework/path"
	"github.com/hashicorp/terraform-plugin-framework/schema/validator"
	"github.com/hashicorp/terraform-plugin-framework/types"
)

// check runs v on value and returns the detail of its one error ("" if none).
func check(t *testing.T, v validator.String, value types.String) string {
	t.Helper()
	var resp validator.StringResponse
	v.ValidateString(context.Background(), validator.StringRequest{Path: path.Root("attr"), ConfigValue: value}, &resp)
	switch n := resp.Diagnostics.ErrorsCount(); n {
	case 0:
		return ""
	case 1:
		return resp.Diagnostics.Errors()[0].Detail()
	default:
		t.Fatalf("%d errors: %v", n, resp.Diagnostics)
		return ""
	}
}

func TestStringValidators(t *testing.T) {
	enum := Enum{Allowed: []string{"UTF8", "ANSI"}, Hints: map[string]string{"UTF-8": "UTF8"}, Note: "A note."}
	tests := []struct {
		name    string
		v       validator.String
		value   types.String
		wantErr string // part of the detail; "" for none
	}{
		{"enum allowed", enum, types.StringValue("UTF8"), ""},
		{"enum null", enum, types.StringNull(), ""},
		{"enum unknown", enum, types.StringUnknown(), ""},
		{"enum hint", enum, types.StringValue("utf-8"), `"utf-8" is not allowed; use "UTF8". Allowed values: UTF8, ANSI. A note.`},
		{"enum case", enum, types.StringValue("ansi"), `use "ANSI"`},
		{"enum unknown value", enum, types.StringValue("EBCDIC"), `"EBCDIC" is not allowed. Allowed values`},
		{"timeout", Timeout(), types.StringValue("45m"), ""},
		{"timeout zero", Timeout(), types.StringValue("0s"), "not a positive Go duration"},
		{"timeout no unit", Timeout(), types.StringValue("45"), "not a positive Go duration"},
		{"timeout unknown", Timeout(), types.StringUnknown(), ""},
		{"delimiter tab", Delimiter(), types.StringValue("\t"), ""},
		{"delimiter two characters", Delimiter(), types.StringValue(",;"), "."},
		{"delimiter double quote", Delimiter(), types.StringValue(`"`), "."},
		{"delimiter null", Delimiter(), types.StringNull(), ""},
		{"e-mail bare", BareEmail("name"), types.StringValue("news@example.com"), ""},
		{"e-mail unknown", BareEmail("name"), types.StringUnknown(), ""},
		{"e-mail null", BareEmail("name"), types.StringNull(), ""},
		{"e-mail display name", BareEmail("name"), types.StringValue("Team <team@example.com>"), `attr "Team <team@example.com>" is more than a bare e-mail address, which is all the service takes: write "team@example.com", and put the name "Team" in name.`},
		{"e-mail angle brackets", BareEmail("name"), types.StringValue("<team@example.com>"), `write "team@example.com".`},
		{"e-mail not an address", BareEmail("name"), types.StringValue("team.example.com"), `attr "team.example.com" is not an e-mail address`},
		{"e-mail two addresses", BareEmail("name"), types.StringValue("a@example.com, b@example.com"), "not an e-mail address"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got := check(t, tt.v, tt.value)
			switch {
			case tt.wantErr == "" && got != "":
				t.Errorf("unexpected error: %s", got)
			case tt.wantErr != "" && !strings.Contains(got, tt.wantErr):
				t.Errorf("error %q, want one containing %q", got, tt.wantErr)
			}
		})
	}
}
