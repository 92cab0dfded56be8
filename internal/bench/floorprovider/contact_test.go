package floorprovider

import (
	"context"
	"testing"

	"github.com/hashicorp/terraform-plugin-framework/resource"
	"github.com/hashicorp/terraform-plugin-framework/tfsdk"
	"github.com/hashicorp/terraform-plugin-go/tftypes"
)

// TestContactCreate: a create's state has no unknown value left, the
// configured values as planned, the service's statuses those configured,
// and the identity set.
func TestContactCreate(t *testing.T) {
	ctx := context.Background()
	var s resource.SchemaResponse
	contact{}.Schema(ctx, resource.SchemaRequest{}, &s)
	var is resource.IdentitySchemaResponse
	contact{}.IdentitySchema(ctx, resource.IdentitySchemaRequest{}, &is)
	typ, ok := s.Schema.Type().TerraformType(ctx).(tftypes.Object)
	if !ok {
		t.Fatal("the schema is not an object")
	}
	str := func(v string) tftypes.Value { return tftypes.NewValue(tftypes.String, v) }
	unknownString := tftypes.NewValue(tftypes.String, tftypes.UnknownValue)
	planned := map[string]tftypes.Value{
		"id":          unknownString,
		"list_id":     str("42"),
		"original_id": str("c-1"),
		"properties": tftypes.NewValue(tftypes.Map{ElementType: tftypes.String},
			map[string]tftypes.Value{"email": str("c-1@example.com")}),
		"email_status":          str("UNSUBSCRIBED"),
		"mobile_status":         unknownString,
		"date_created":          unknownString,
		"date_modified":         unknownString,
		"allow_resubscribe":     tftypes.NewValue(tftypes.Bool, false),
		"on_destroy":            str("forget"),
		"service_email_status":  unknownString,
		"service_mobile_status": unknownString,
		"suppression_list_id":   tftypes.NewValue(tftypes.String, nil),
	}
	if len(planned) != len(typ.AttributeTypes) {
		t.Fatalf("the test plans %d attributes, the schema has %d: update the test", len(planned), len(typ.AttributeTypes))
	}
	req := resource.CreateRequest{Plan: tfsdk.Plan{Schema: s.Schema, Raw: tftypes.NewValue(typ, planned)}}
	identityType := is.IdentitySchema.Type().TerraformType(ctx)
	resp := resource.CreateResponse{
		State:    tfsdk.State{Schema: s.Schema, Raw: tftypes.NewValue(typ, nil)},
		Identity: &tfsdk.ResourceIdentity{Schema: is.IdentitySchema, Raw: tftypes.NewValue(identityType, nil)},
	}
	contact{}.Create(ctx, req, &resp)
	if resp.Diagnostics.HasError() {
		t.Fatalf("create: %v", resp.Diagnostics)
	}
	if !resp.State.Raw.IsFullyKnown() {
		t.Errorf("unknown values left in %v", resp.State.Raw)
	}
	var got map[string]tftypes.Value
	if err := resp.State.Raw.As(&got); err != nil {
		t.Fatal(err)
	}
	for name, want := range map[string]string{
		"id": "42/c-1", "list_id": "42", "original_id": "c-1",
		"email_status": "UNSUBSCRIBED", "service_email_status": "UNSUBSCRIBED",
		"mobile_status": "SUBSCRIBED", "service_mobile_status": "SUBSCRIBED",
	} {
		var v string
		if err := got[name].As(&v); err != nil || v != want {
			t.Errorf("%s = %q (%v), want %q", name, v, err, want)
		}
	}
	if !got["properties"].Equal(planned["properties"]) {
		t.Errorf("properties = %v, want %v", got["properties"], planned["properties"])
	}
	var ident map[string]tftypes.Value
	if err := resp.Identity.Raw.As(&ident); err != nil {
		t.Fatal(err)
	}
	if !ident["list_id"].Equal(str("42")) || !ident["original_id"].Equal(str("c-1")) {
		t.Errorf("identity = %v", resp.Identity.Raw)
	}
}
