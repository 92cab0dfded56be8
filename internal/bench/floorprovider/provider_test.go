package floorprovider

import (
	"context"
	"fmt"
	"sort"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/hashicorp/terraform-plugin-framework/providerserver"
	"github.com/hashicorp/terraform-plugin-framework/resource"
	"github.com/hashicorp/terraform-plugin-framework/resource/schema"
	"github.com/hashicorp/terraform-plugin-go/tfprotov6"

	"github.com/rms-labs/terraform-provider-rms/internal/provider"
)

// TestSchemasMatchTheRealProvider holds the floor to what Terraform sees
// of the real provider: the whole GetProviderSchema answer (provider block,
// every resource, data source, function, ...) and every identity schema.
func TestSchemasMatchTheRealProvider(t *testing.T) {
	ctx := context.Background()
	rms := providerserver.NewProtocol6(provider.New("dev")())()
	floor := providerserver.NewProtocol6(New("dev")())()

	want, err := rms.GetProviderSchema(ctx, &tfprotov6.GetProviderSchemaRequest{})
	if err != nil {
		t.Fatal(err)
	}
	got, err := floor.GetProviderSchema(ctx, &tfprotov6.GetProviderSchemaRequest{})
	if err != nil {
		t.Fatal(err)
	}
	if len(want.Diagnostics) > 0 || len(got.Diagnostics) > 0 {
		t.Fatalf("diagnostics: real %v, floor %v", want.Diagnostics, got.Diagnostics)
	}
	if _, ok := got.ResourceSchemas[ContactType]; !ok {
		t.Fatalf("the floor has no %s", ContactType)
	}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("GetProviderSchema (-real +floor):\n%s", diff)
	}

	wantID, err := rms.GetResourceIdentitySchemas(ctx, &tfprotov6.GetResourceIdentitySchemasRequest{})
	if err != nil {
		t.Fatal(err)
	}
	gotID, err := floor.GetResourceIdentitySchemas(ctx, &tfprotov6.GetResourceIdentitySchemasRequest{})
	if err != nil {
		t.Fatal(err)
	}
	if _, ok := gotID.IdentitySchemas[ContactType]; !ok {
		t.Fatalf("the floor's %s has no identity schema", ContactType)
	}
	if diff := cmp.Diff(wantID, gotID); diff != "" {
		t.Errorf("GetResourceIdentitySchemas (-real +floor):\n%s", diff)
	}
}

// TestContactBehaviourMatches compares what the protocol does not carry:
// each attribute's validators, plan modifiers and default, by their
// descriptions, and that the floor is the resource the provider serves.
func TestContactBehaviourMatches(t *testing.T) {
	ctx := context.Background()
	var floorContact resource.Resource
	for _, f := range New("dev")().Resources(ctx) {
		if r := f(); typeName(ctx, r) == ContactType {
			floorContact = r
		}
	}
	if _, ok := floorContact.(contact); !ok {
		t.Fatalf("the floor provider serves %T as %s, not the floor", floorContact, ContactType)
	}
	want := describe(ctx, t, provider.NewContactResource())
	got := describe(ctx, t, floorContact)
	if len(want) == 0 {
		t.Fatal("the real schema has no attributes")
	}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("attributes (-real +floor):\n%s", diff)
	}
}

// describe is each attribute of r's schema as text: its flags and the
// descriptions of its validators, plan modifiers and default.
func describe(ctx context.Context, t *testing.T, r resource.Resource) map[string]string {
	t.Helper()
	var resp resource.SchemaResponse
	r.Schema(ctx, resource.SchemaRequest{}, &resp)
	if resp.Diagnostics.HasError() {
		t.Fatalf("schema: %v", resp.Diagnostics)
	}
	out := map[string]string{}
	for name, a := range resp.Schema.Attributes {
		var parts []string
		parts = append(parts, fmt.Sprintf("%T required=%t optional=%t computed=%t sensitive=%t type=%s",
			a, a.IsRequired(), a.IsOptional(), a.IsComputed(), a.IsSensitive(), a.GetType()))
		switch a := a.(type) {
		case schema.StringAttribute:
			for _, v := range a.Validators {
				parts = append(parts, "validator: "+v.MarkdownDescription(ctx))
			}
			for _, m := range a.PlanModifiers {
				parts = append(parts, "plan modifier: "+m.MarkdownDescription(ctx))
			}
			if a.Default != nil {
				parts = append(parts, "default: "+a.Default.MarkdownDescription(ctx))
			}
		case schema.BoolAttribute:
			for _, v := range a.Validators {
				parts = append(parts, "validator: "+v.MarkdownDescription(ctx))
			}
			for _, m := range a.PlanModifiers {
				parts = append(parts, "plan modifier: "+m.MarkdownDescription(ctx))
			}
			if a.Default != nil {
				parts = append(parts, "default: "+a.Default.MarkdownDescription(ctx))
			}
		case schema.MapAttribute:
			for _, v := range a.Validators {
				parts = append(parts, "validator: "+v.MarkdownDescription(ctx))
			}
			for _, m := range a.PlanModifiers {
				parts = append(parts, "plan modifier: "+m.MarkdownDescription(ctx))
			}
			if a.Default != nil {
				parts = append(parts, "default: "+a.Default.MarkdownDescription(ctx))
			}
		default:
			t.Errorf("attribute %s is a %T, which describe does not know: add it", name, a)
		}
		sort.Strings(parts[1:])
		out[name] = strings.Join(parts, "\n")
	}
	return out
}
