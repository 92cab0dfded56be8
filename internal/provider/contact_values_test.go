package provider

import (
	"context"
	"testing"

	"github.com/hashicorp/terraform-plugin-framework-timetypes/timetypes"
	"github.com/hashicorp/terraform-plugin-framework/attr"
	"github.com/hashicorp/terraform-plugin-framework/resource"
	"github.com/hashicorp/terraform-plugin-framework/tfsdk"
	"github.com/hashicorp/terraform-plugin-framework/types"
	"github.com/hashicorp/terraform-plugin-go/tftypes"

	"github.com/rms-labs/terraform-provider-rms/internal/client"
)

// TestContactValues: Read's hand-made conversions (contact_values.go) give
// exactly what the framework's reflection gives, and the types they use are
// those of the schemas, so Read writes the same state as State.Set would.
func TestContactValues(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	r := &contactResource{}
	var sch resource.SchemaResponse
	r.Schema(ctx, resource.SchemaRequest{}, &sch)
	if got := sch.Schema.Type().TerraformType(ctx); !got.Equal(contactObjectType) {
		t.Fatalf("contactObjectType is %s, the schema's type is %s", contactObjectType, got)
	}
	var ids resource.IdentitySchemaResponse
	r.IdentitySchema(ctx, resource.IdentitySchemaRequest{}, &ids)
	if got := ids.IdentitySchema.Type().TerraformType(ctx); !got.Equal(contactIdentityType) {
		t.Fatalf("contactIdentityType is %s, the identity schema's type is %s", contactIdentityType, got)
	}

	props := types.MapValueMust(types.StringType, map[string]attr.Value{"email": types.StringValue("ada@example.com"), "3": types.StringValue("Ada")})
	cases := map[string]contactModel{
		"everything set": {
			ID: types.StringValue("42/a"), ListID: types.StringValue("42"), OriginalID: types.StringValue("a"), Properties: props,
			EmailStatus: types.StringValue("SUBSCRIBED"), MobileStatus: types.StringValue("UNSUBSCRIBED"),
			DateCreated: rfc3339(client.TimestampOf("2026-11-22T10:00:00Z")), DateModified: rfc3339(client.TimestampOf("2026-11-22T10:05:00+01:00")),
			AllowResubscribe: types.BoolValue(true), ServiceEmailStatus: types.StringValue("UNSUBSCRIBED"), ServiceMobileStatus: types.StringValue("PENDING"),
			OnDestroy: types.StringValue("unsubscribe"),
		},
		"nulls": {
			ID: types.StringValue("42/b"), ListID: types.StringValue("42"), OriginalID: types.StringValue("b"),
			Properties: types.MapNull(types.StringType), EmailStatus: types.StringNull(), MobileStatus: types.StringNull(),
			DateCreated: timetypes.NewRFC3339Null(), DateModified: timetypes.NewRFC3339Null(),
			AllowResubscribe: types.BoolNull(), ServiceEmailStatus: types.StringNull(), ServiceMobileStatus: types.StringNull(),
			OnDestroy: types.StringNull(),
		},
		"empty map and unknowns": {
			ID: types.StringUnknown(), ListID: types.StringValue("42"), OriginalID: types.StringValue("c"),
			Properties: types.MapValueMust(types.StringType, map[string]attr.Value{}), EmailStatus: types.StringUnknown(), MobileStatus: types.StringValue(""),
			DateCreated: timetypes.NewRFC3339Unknown(), DateModified: timetypes.NewRFC3339Unknown(),
			AllowResubscribe: types.BoolUnknown(), ServiceEmailStatus: types.StringUnknown(), ServiceMobileStatus: types.StringValue(""),
			OnDestroy: types.StringUnknown(),
		},
	}
	for name, m := range cases {
		t.Run(name, func(t *testing.T) {
			t.Parallel()
			// Model to value, against State.Set.
			want := tfsdk.State{Raw: tftypes.NewValue(contactObjectType, nil), Schema: sch.Schema}
			if diags := want.Set(ctx, m); diags.HasError() {
				t.Fatal(diags)
			}
			got, err := m.terraformValue(ctx, contactObjectType)
			if err != nil {
				t.Fatal(err)
			}
			if !got.Equal(want.Raw) {
				t.Errorf("terraformValue:\n%s\nState.Set:\n%s", got, want.Raw)
			}
			// Value to model, against State.Get.
			var viaGet contactModel
			if diags := want.Get(ctx, &viaGet); diags.HasError() {
				t.Fatal(diags)
			}
			back, err := contactModelOf(ctx, want.Raw)
			if err != nil {
				t.Fatal(err)
			}
			if !sameContactModel(back, viaGet) || !sameContactModel(back, m) {
				t.Errorf("contactModelOf: %+v\nState.Get: %+v\nmodel: %+v", back, viaGet, m)
			}
			// Identity, against ResourceIdentity.Set.
			wantID := tfsdk.ResourceIdentity{Raw: tftypes.NewValue(contactIdentityType, nil), Schema: ids.IdentitySchema}
			if diags := wantID.Set(ctx, contactIdentity(m)); diags.HasError() {
				t.Fatal(diags)
			}
			gotID, err := contactIdentity(m).terraformValue(ctx)
			if err != nil {
				t.Fatal(err)
			}
			if !gotID.Equal(wantID.Raw) {
				t.Errorf("identity terraformValue:\n%s\nResourceIdentity.Set:\n%s", gotID, wantID.Raw)
			}
		})
	}
	// A value of another type is an error (Read then falls back to State.Get).
	if _, err := contactModelOf(ctx, tftypes.NewValue(tftypes.String, "x")); err == nil {
		t.Error("a string was read as a contact")
	}
}

// sameContactModel compares every field with its Equal, which also tells
// null, unknown and known apart.
func sameContactModel(a, b contactModel) bool {
	return a.ID.Equal(b.ID) && a.ListID.Equal(b.ListID) && a.OriginalID.Equal(b.OriginalID) && a.Properties.Equal(b.Properties) &&
		a.EmailStatus.Equal(b.EmailStatus) && a.MobileStatus.Equal(b.MobileStatus) &&
		a.DateCreated.Equal(b.DateCreated) && a.DateModified.Equal(b.DateModified) &&
		a.AllowResubscribe.Equal(b.AllowResubscribe) && a.ServiceEmailStatus.Equal(b.ServiceEmailStatus) && a.ServiceMobileStatus.Equal(b.ServiceMobileStatus) && a.OnDestroy.Equal(b.OnDestroy)
}
