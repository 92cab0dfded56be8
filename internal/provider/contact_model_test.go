package provider

import (
	"context"
	"testing"

	"github.com/hashicorp/terraform-plugin-framework/attr"
	"github.com/hashicorp/terraform-plugin-framework/function"
	"github.com/hashicorp/terraform-plugin-framework/types"

	"github.com/rms-labs/terraform-provider-rms/internal/functions"
)

func TestSplitContactImportID(t *testing.T) {
	t.Parallel()
	tests := []struct {
		id               string
		list, originalID string
		ok               bool
	}{
		{"42/customer-7", "42", "customer-7", true},
		{"42/a/b", "42", "a/b", true}, // the first slash splits
		{"42/ spaced ", "42", " spaced ", true},
		{"42", "", "", false},
		{"42/", "", "", false},
		{"news/customer-7", "", "", false},
		{"/customer-7", "", "", false},
	}
	for _, tt := range tests {
		list, oid, ok := splitContactImportID(tt.id)
		if ok != tt.ok || (ok && (list != tt.list || oid != tt.originalID)) {
			t.Errorf("splitContactImportID(%q) = %q, %q, %v; want %q, %q, %v", tt.id, list, oid, ok, tt.list, tt.originalID, tt.ok)
		}
		if ok && contactImportID(list, oid) != tt.id {
			t.Errorf("contactImportID does not invert the split of %q", tt.id)
		}
	}
}

// TestContactImportIDFunctionMatchesImport runs provider::rms::contact_import_id
// (internal/functions) and checks that rms_contact's import reads its result
// back, and that the function refuses the list ids the import refuses.
func TestContactImportIDFunctionMatchesImport(t *testing.T) {
	t.Parallel()
	run := func(listID, originalID string) (string, *function.FuncError) {
		fn := functions.NewContactImportID()
		resp := function.RunResponse{Result: function.NewResultData(types.StringUnknown())}
		fn.Run(context.Background(), function.RunRequest{
			Arguments: function.NewArgumentsData([]attr.Value{types.StringValue(listID), types.StringValue(originalID)}),
		}, &resp)
		got, _ := resp.Result.Value().(types.String)
		return got.ValueString(), resp.Error
	}
	for _, tt := range []struct{ list, originalID string }{
		{"42", "customer-7"}, {"42", "a/b"}, {"7", " spaced "}, {"18446744073709551615", "x"},
	} {
		id, ferr := run(tt.list, tt.originalID)
		if ferr != nil {
			t.Fatalf("contact_import_id(%q, %q): %s", tt.list, tt.originalID, ferr.Text)
		}
		list, oid, ok := splitContactImportID(id)
		if !ok || list != tt.list || oid != tt.originalID {
			t.Errorf("contact_import_id(%q, %q) = %q, which the import splits into %q, %q, %v", tt.list, tt.originalID, id, list, oid, ok)
		}
	}
	for _, list := range []string{"", "news", " 42", "42 ", "-1", "4.2", "18446744073709551616"} {
		if isEntityID(list) {
			t.Fatalf("isEntityID(%q): the case is meant to be refused", list)
		}
		if _, ferr := run(list, "x"); ferr == nil {
			t.Errorf("contact_import_id(%q, \"x\") succeeded; the import refuses that list id", list)
		}
	}
}
