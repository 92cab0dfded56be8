package provider

import (
	"context"
	"testing"

	"github.com/hashicorp/terraform-plugin-framework/resource"
	"github.com/hashicorp/terraform-plugin-framework/tfsdk"
	"github.com/hashicorp/terraform-plugin-go/tftypes"

	"github.com/rms-labs/terraform-provider-rms/internal/client"
	"github.com/rms-labs/terraform-provider-rms/internal/contactsync"
)

// TestContactTerraformValue: the hand-built value of a listed contact is
// exactly what the framework's reflection makes of the same model, so that
// the list resource and an import agree.
func TestContactTerraformValue(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	var sch resource.SchemaResponse
	(&contactResource{}).Schema(ctx, resource.SchemaRequest{}, &sch)
	typ := sch.Schema.Type().TerraformType(ctx)
	cases := map[string]client.Contact{
		"with properties": {OriginalID: "a/b c", Properties: map[string]string{"email": "ada@example.com", "firstname": "Ada"},
			Status: "SUBSCRIBED", MobileStatus: "UNSUBSCRIBED", DateCreated: client.TimestampOf("2026-11-22T10:00:00Z"), DateModified: client.TimestampOf("2026-11-22T10:05:00Z")},
		"without properties or dates": {OriginalID: "x", Status: "UNSUBSCRIBED", MobileStatus: "SUBSCRIBED"},
	}
	for name, c := range cases {
		t.Run(name, func(t *testing.T) {
			t.Parallel()
			m, diags := importedContactModel(ctx, contactsync.NewAttributes(nil), "42", &c)
			if diags.HasError() {
				t.Fatal(diags)
			}
			want := tfsdk.Resource{Raw: tftypes.NewValue(typ, nil), Schema: sch.Schema}
			if diags := want.Set(ctx, m); diags.HasError() {
				t.Fatal(diags)
			}
			got, err := m.terraformValue(ctx, typ)
			if err != nil {
				t.Fatal(err)
			}
			if !got.Equal(want.Raw) {
				t.Errorf("terraformValue:\n%s\nreflection:\n%s", got, want.Raw)
			}
		})
	}
	// A schema that no longer fits the model is an error, not a panic.
	other := tftypes.Object{AttributeTypes: map[string]tftypes.Type{"id": tftypes.String}}
	if _, err := (contactModel{}).terraformValue(ctx, other); err == nil {
		t.Error("a type without the contact's attributes was accepted")
	}
}
