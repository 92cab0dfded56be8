package provider

import (
	"context"
	"encoding/json"
	"strings"
	"testing"

	"github.com/hashicorp/terraform-plugin-framework/diag"
	"github.com/hashicorp/terraform-plugin-framework/resource"
	"github.com/hashicorp/terraform-plugin-framework/tfsdk"
	"github.com/hashicorp/terraform-plugin-framework/types"
	"github.com/hashicorp/terraform-plugin-go/tftypes"

	"github.com/rms-labs/terraform-provider-rms/internal/dynamic"
)

// moveSource is an rms_resource state for a move request.
type moveSource struct {
	typeName, address, collection, id string
	body, output                      map[string]any
}

// runMove calls target's StateMover on src and returns the response.
func runMove(t *testing.T, target resource.ResourceWithMoveState, src moveSource) resource.MoveStateResponse {
	t.Helper()
	ctx := context.Background()
	movers := target.MoveState(ctx)
	if len(movers) != 1 {
		t.Fatalf("%d state movers, want 1", len(movers))
	}
	sourceState := tfsdk.State{Schema: *movers[0].SourceSchema, Raw: tftypes.NewValue(movers[0].SourceSchema.Type().TerraformType(ctx), nil)}
	body, err := dynamic.FromJSON(src.body, types.DynamicNull())
	if err != nil {
		t.Fatal(err)
	}
	output := types.DynamicNull()
	if src.output != nil {
		if output, err = dynamic.FromJSON(src.output, types.DynamicNull()); err != nil {
			t.Fatal(err)
		}
	}
	diags := sourceState.Set(ctx, genericResourceModel{
		ID: types.StringValue(src.id), Collection: types.StringValue(src.collection), Body: body, Output: output,
		SensitiveBody: types.DynamicNull(), SensitiveBodyVersion: types.StringNull(),
	})
	if diags.HasError() {
		t.Fatal(diags)
	}

	var schemaResp resource.SchemaResponse
	target.(resource.Resource).Schema(ctx, resource.SchemaRequest{}, &schemaResp)
	var identityResp resource.IdentitySchemaResponse
	target.(resource.ResourceWithIdentity).IdentitySchema(ctx, resource.IdentitySchemaRequest{}, &identityResp)
	resp := resource.MoveStateResponse{
		TargetState:    tfsdk.State{Schema: schemaResp.Schema, Raw: tftypes.NewValue(schemaResp.Schema.Type().TerraformType(ctx), nil)},
		TargetIdentity: &tfsdk.ResourceIdentity{Schema: identityResp.IdentitySchema, Raw: tftypes.NewValue(identityResp.IdentitySchema.Type().TerraformType(ctx), nil)},
	}
	movers[0].StateMover(ctx, resource.MoveStateRequest{
		SourceTypeName:        src.typeName,
		SourceProviderAddress: src.address,
		SourceState:           &sourceState,
	}, &resp)
	return resp
}

// diagText is every diagnostic as "Severity: summary: detail" lines.
func diagText(diags diag.Diagnostics) string {
	var b strings.Builder
	for _, d := range diags {
		b.WriteString(d.Severity().String() + ": " + d.Summary() + ": " + d.Detail() + "\n")
	}
	return b.String()
}

func TestMoveFromGeneric(t *testing.T) {
	t.Parallel()
	const rms = "registry.terraform.io/rms-labs/rms"
	project := map[string]any{"name": "Newsletter", "description": "monthly"}
	tests := []struct {
		name   string
		target resource.ResourceWithMoveState
		src    moveSource
		// skipped: no state and no diagnostics, so that the framework
		// reports that nothing moves the source.
		skipped bool
		// want are parts of the diagnostics, in order; none when empty.
		want  []string
		state map[string]any // attributes of the moved state
	}{
		{
			name: "project", target: &projectResource{},
			src: moveSource{"rms_resource", rms, "projects", "42", project,
				map[string]any{"id": json.Number("42"), "name": "Newsletter", "description": "monthly", "dateCreated": json.Number("1700000000"), "dateModified": "2024-01-02T03:04:05Z"}},
			state: map[string]any{"id": "42", "name": "Newsletter", "description": "monthly", "date_created": "2023-11-14T22:13:20Z", "date_modified": "2024-01-02T03:04:05Z"},
		},
		{
			name: "OpenTofu's bare provider address", target: &projectResource{},
			src:   moveSource{"rms_resource", "rms", "projects", "42", project, nil},
			state: map[string]any{"id": "42", "name": "Newsletter", "date_created": nil},
		},
		{
			name: "another resource type", target: &projectResource{}, skipped: true,
			src: moveSource{"terraform_data", "terraform.io/builtin/terraform", "projects", "42", project, nil},
		},
		{
			name: "another provider's rms_resource", target: &projectResource{}, skipped: true,
			src: moveSource{"rms_resource", "registry.terraform.io/example/other", "projects", "42", project, nil},
		},
		{
			name: "a collection without a typed resource", target: &projectResource{},
			src:  moveSource{"rms_resource", rms, "campaigns", "7", map[string]any{"name": "Spring sale"}, nil},
			want: []string{`Error: Cannot move rms_resource of collection "campaigns" to rms_project`, `keep it as rms_resource and remove the moved block`},
		},
		{
			name: "the collection of another typed resource", target: &projectResource{},
			src:  moveSource{"rms_resource", rms, "lists", "7", map[string]any{"name": "Customers"}, nil},
			want: []string{`Error: Cannot move rms_resource of collection "lists" to rms_project`, `Move it to rms_list instead`},
		},
		{
			name: "a nested collection", target: &recipientListResource{},
			src:  moveSource{"rms_resource", rms, "lists/3/notes", "7", map[string]any{"name": "n"}, nil},
			want: []string{`Error: Cannot move rms_resource of collection "lists/3/notes" to rms_list`},
		},
		{
			name: "keys the typed resource does not manage", target: &projectResource{},
			src: moveSource{"rms_resource", rms, "projects", "42", map[string]any{"name": "Newsletter", "owner": "marketing", "budget": json.Number("3")},
				map[string]any{"id": "42", "name": "Newsletter", "owner": "marketing", "budget": json.Number("3")}},
			want:  []string{`Warning: Keys not moved to rms_project: rms_resource.body sets "budget", "owner", which rms_project has no attribute for`, `keep the entity as rms_resource`},
			state: map[string]any{"id": "42", "name": "Newsletter"},
		},
		{
			name: "a body key of the wrong type", target: &projectResource{},
			src:  moveSource{"rms_resource", rms, "projects", "42", map[string]any{"name": json.Number("5")}, nil},
			want: []string{`Error: Unable to move rms_resource to rms_project`, `name`},
		},
		{
			name: "list: an empty description the body does not set stays null", target: &recipientListResource{},
			src: moveSource{"rms_resource", rms, "lists", "9", map[string]any{"name": "Customers", "senderEmail": "news@example.com"},
				map[string]any{"id": json.Number("9"), "name": "Customers", "description": "", "senderName": nil, "senderEmail": "news@example.com"}},
			state: map[string]any{"id": "9", "name": "Customers", "description": nil, "sender_name": nil, "sender_email": "news@example.com"},
		},
		{
			name: "webhook: a secret in body moves into secret", target: &webhookResource{},
			src: moveSource{"rms_resource", rms, "webhooks", "5", map[string]any{"url": "https://h.example.com", "events": []any{"message.sent"}, "secret": "s1"},
				map[string]any{"id": json.Number("5"), "url": "https://h.example.com", "events": []any{"message.sent"}, "active": true, "hasSecret": true}},
			state: map[string]any{"id": "5", "secret": "s1", "has_secret": true, "active": true, "secret_wo_version": nil},
		},
		{
			name: "webhook: a secret the state does not hold is named", target: &webhookResource{},
			src: moveSource{"rms_resource", rms, "webhooks", "5", map[string]any{"url": "https://h.example.com", "events": []any{"message.sent"}},
				map[string]any{"id": json.Number("5"), "url": "https://h.example.com", "events": []any{"message.sent"}, "active": true, "hasSecret": true}},
			want:  []string{`Warning: Webhook secret not moved`, "`secret_wo` with `secret_wo_version`", "planned as an update"},
			state: map[string]any{"id": "5", "secret": nil, "has_secret": true},
		},
		{
			name: "webhook without a secret", target: &webhookResource{},
			src: moveSource{"rms_resource", rms, "webhooks", "5", map[string]any{"url": "https://h.example.com", "events": []any{"message.sent"}, "active": false},
				map[string]any{"id": json.Number("5"), "url": "https://h.example.com", "events": []any{"message.sent"}, "active": false, "hasSecret": false}},
			state: map[string]any{"id": "5", "active": false, "has_secret": false, "url": "https://h.example.com"},
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			resp := runMove(t, tt.target, tt.src)
			got := diagText(resp.Diagnostics)
			if len(tt.want) == 0 && got != "" {
				t.Errorf("unexpected diagnostics:\n%s", got)
			}
			rest := got
			for _, part := range tt.want {
				i := strings.Index(rest, part)
				if i < 0 {
					t.Fatalf("diagnostics lack %q (in order):\n%s", part, got)
				}
				rest = rest[i+len(part):]
			}
			if tt.skipped || resp.Diagnostics.HasError() {
				if !resp.TargetState.Raw.IsNull() {
					t.Errorf("a skipped or failed move set state %v", resp.TargetState.Raw)
				}
				return
			}
			if resp.TargetState.Raw.IsNull() {
				t.Fatal("the move set no state")
			}
			var attrs map[string]tftypes.Value
			if err := resp.TargetState.Raw.As(&attrs); err != nil {
				t.Fatal(err)
			}
			for name, want := range tt.state {
				if g := primitive(t, attrs[name]); g != want {
					t.Errorf("%s = %v, want %v", name, g, want)
				}
			}
			var ident idIdentityModel
			if d := resp.TargetIdentity.Get(context.Background(), &ident); d.HasError() || ident.ID.ValueString() != tt.src.id {
				t.Errorf("identity %v (%v), want id %s", ident, d, tt.src.id)
			}
		})
	}
}

// primitive is a string, bool, int64 or nil state value as Go.
func primitive(t *testing.T, v tftypes.Value) any {
	t.Helper()
	if v.IsNull() {
		return nil
	}
	switch {
	case v.Type().Is(tftypes.String):
		var s string
		_ = v.As(&s)
		return s
	case v.Type().Is(tftypes.Bool):
		var b bool
		_ = v.As(&b)
		return b
	}
	t.Fatalf("no Go form for %v", v)
	return nil
}

// A source state the framework could not read with rms_resource's schema
// (another schema version), or one without an id, is refused with what to
// do.
func TestMoveFromGenericUnreadable(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	mover := (&projectResource{}).MoveState(ctx)[0]
	var resp resource.MoveStateResponse
	mover.StateMover(ctx, resource.MoveStateRequest{
		SourceTypeName: "rms_resource", SourceProviderAddress: "registry.terraform.io/rms-labs/rms", SourceSchemaVersion: 3,
	}, &resp)
	if got := diagText(resp.Diagnostics); !strings.Contains(got, "Error: Unable to move rms_resource to rms_project") || !strings.Contains(got, "(schema version 3)") || !strings.Contains(got, "then add the moved block again") {
		t.Errorf("diagnostics:\n%s", got)
	}

	resp = runMove(t, &projectResource{}, moveSource{"rms_resource", "rms", "projects", "", map[string]any{"name": "n"}, nil})
	if got := diagText(resp.Diagnostics); !strings.Contains(got, "holds no id") || !strings.Contains(got, "let rms_project create the project") {
		t.Errorf("diagnostics:\n%s", got)
	}
}
