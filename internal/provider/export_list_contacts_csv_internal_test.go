package provider

import (
	"context"
	"os"
	"path/filepath"
	"testing"

	"github.com/hashicorp/terraform-plugin-framework/attr"
	"github.com/hashicorp/terraform-plugin-framework/function"
	"github.com/hashicorp/terraform-plugin-framework/types"

	"github.com/rms-labs/terraform-provider-rms/internal/functions"
)

// The action's file and the function's text are the same bytes for the
// same contacts: the function given them as the rms_contacts data source
// holds them (a null status, a null value), the action as the client
// lists them (an empty status, a missing value).
func TestExportListContactsCSVMatchesFunction(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	listed := []functions.CSVContact{
		{OriginalID: "c-2", Properties: map[string]string{"email": "c2@example.com"}, EmailStatus: "UNSUBSCRIBED"},
		{OriginalID: "c-1", Properties: map[string]string{"email": "c1@example.com", "firstname": "Ada, \"the first\""}, EmailStatus: "SUBSCRIBED", MobileStatus: "UNSUBSCRIBED"},
		{OriginalID: "c-3"},
	}
	elemType := map[string]attr.Type{
		"original_id": types.StringType, "properties": types.MapType{ElemType: types.StringType},
		"email_status": types.StringType, "mobile_status": types.StringType,
	}
	str := func(s string) types.String {
		if s == "" {
			return types.StringNull()
		}
		return types.StringValue(s)
	}
	elems := make([]attr.Value, 0, len(listed))
	for _, c := range listed {
		props := map[string]attr.Value{}
		for k, v := range c.Properties {
			props[k] = types.StringValue(v)
		}
		if c.OriginalID == "c-3" {
			props["email"] = types.StringNull()
		}
		pm := types.MapValueMust(types.StringType, props)
		elems = append(elems, types.ObjectValueMust(elemType, map[string]attr.Value{
			"original_id": types.StringValue(c.OriginalID), "properties": pm,
			"email_status": str(c.EmailStatus), "mobile_status": str(c.MobileStatus),
		}))
	}
	arg := types.ListValueMust(types.ObjectType{AttrTypes: elemType}, elems)
	resp := function.RunResponse{Result: function.NewResultData(types.StringUnknown())}
	functions.NewContactsCSV().Run(ctx, function.RunRequest{Arguments: function.NewArgumentsData([]attr.Value{arg})}, &resp)
	if resp.Error != nil {
		t.Fatal(resp.Error)
	}
	rendered, ok := resp.Result.Value().(types.String)
	if !ok {
		t.Fatalf("the function returned %T", resp.Result.Value())
	}

	path := filepath.Join(t.TempDir(), "sub", "list.csv")
	if err := writeContactsCSVFile(path, listed); err != nil {
		t.Fatal(err)
	}
	written, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	if string(written) != rendered.ValueString() {
		t.Fatalf("the action wrote\n%q\nthe function rendered\n%q", written, rendered.ValueString())
	}
	if left, _ := filepath.Glob(filepath.Join(filepath.Dir(path), ".rms-contacts-*")); len(left) > 0 {
		t.Errorf("temporary files left beside the file: %v", left)
	}
}
