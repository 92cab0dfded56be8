package floorprovider

import (
	"context"
	"fmt"
	"time"

	"github.com/hashicorp/terraform-plugin-framework/diag"
	"github.com/hashicorp/terraform-plugin-framework/path"
	"github.com/hashicorp/terraform-plugin-framework/resource"
	"github.com/hashicorp/terraform-plugin-framework/tfsdk"
	"github.com/hashicorp/terraform-plugin-go/tftypes"

	"github.com/rms-labs/terraform-provider-rms/internal/provider"
)

// contact is rms_contact without I/O. Its schema and identity schema are
// the real resource's, asked from it each time, so the two cannot differ.
// It has no ModifyPlan, no ImportState and no Configure: what it costs in
// a no-change plan is the framework's handling of that schema alone.
type contact struct{}

var (
	_ resource.Resource             = contact{}
	_ resource.ResourceWithIdentity = contact{}
)

func newContact() resource.Resource { return contact{} }

// realContact is the resource whose schema the floor wears.
func realContact() resource.ResourceWithIdentity {
	r, ok := provider.NewContactResource().(resource.ResourceWithIdentity)
	if !ok {
		panic("rms_contact no longer has an identity: update the floor provider")
	}
	return r
}

func (contact) Metadata(ctx context.Context, req resource.MetadataRequest, resp *resource.MetadataResponse) {
	realContact().Metadata(ctx, req, resp)
}

func (contact) Schema(ctx context.Context, req resource.SchemaRequest, resp *resource.SchemaResponse) {
	realContact().Schema(ctx, req, resp)
}

func (contact) IdentitySchema(ctx context.Context, req resource.IdentitySchemaRequest, resp *resource.IdentitySchemaResponse) {
	realContact().IdentitySchema(ctx, req, resp)
}

// Read leaves the state the framework copied from the prior state as it
// is: the floor's remote object never changes. Only an identity missing
// (state of a Terraform without identities) is set, as the framework
// requires one after every read.
func (contact) Read(_ context.Context, _ resource.ReadRequest, resp *resource.ReadResponse) {
	if resp.Identity != nil && resp.Identity.Raw.IsNull() {
		setIdentity(resp.State, resp.Identity, &resp.Diagnostics)
	}
}

// Create saves the plan with its unknown values filled as the service
// would fill them, and the identity.
func (contact) Create(ctx context.Context, req resource.CreateRequest, resp *resource.CreateResponse) {
	resp.State.Raw = req.Plan.Raw.Copy()
	fillComputed(ctx, &resp.State, &resp.Diagnostics)
	if resp.Identity == nil || resp.Diagnostics.HasError() {
		return
	}
	setIdentity(resp.State, resp.Identity, &resp.Diagnostics)
}

// setIdentity sets the identity from the list and original id in state,
// as tftypes values: Read runs it for every contact of every plan under a
// Terraform without identities, and the floor is to cost as little as it
// can.
func setIdentity(state tfsdk.State, identity *tfsdk.ResourceIdentity, diags *diag.Diagnostics) {
	var attrs map[string]tftypes.Value
	if err := state.Raw.As(&attrs); err != nil {
		diags.AddError("Floor contact", fmt.Sprintf("reading the contact: %v", err))
		return
	}
	typ := identity.Raw.Type()
	obj, ok := typ.(tftypes.Object)
	if !ok {
		diags.AddError("Floor contact", fmt.Sprintf("the identity is a %s, not an object", typ))
		return
	}
	values := make(map[string]tftypes.Value, len(obj.AttributeTypes))
	for name := range obj.AttributeTypes {
		values[name] = attrs[name]
	}
	identity.Raw = tftypes.NewValue(typ, values)
}

// Update saves the plan, date_modified (unknown in an update's plan) set
// to now.
func (contact) Update(ctx context.Context, req resource.UpdateRequest, resp *resource.UpdateResponse) {
	resp.State.Raw = req.Plan.Raw.Copy()
	fillComputed(ctx, &resp.State, &resp.Diagnostics)
}

// Delete forgets the contact.
func (contact) Delete(context.Context, resource.DeleteRequest, *resource.DeleteResponse) {}

// fillComputed gives each unknown value of state what the service would
// answer for a new contact. A computed attribute the floor does not know
// (the real schema gained one) is an error, so that the floor never saves
// an unknown value and the bench stops instead of measuring a changed
// schema with a stale floor.
func fillComputed(ctx context.Context, state *tfsdk.State, diags *diag.Diagnostics) {
	var attrs map[string]tftypes.Value
	if err := state.Raw.As(&attrs); err != nil {
		diags.AddError("Floor contact", fmt.Sprintf("reading the planned contact: %v", err))
		return
	}
	now := time.Now().UTC().Format(time.RFC3339)
	str := func(name, otherwise string) string {
		var s string
		if v := attrs[name]; v.IsKnown() && !v.IsNull() && v.As(&s) == nil {
			return s
		}
		return otherwise
	}
	// A new contact starts SUBSCRIBED unless the configuration says
	// otherwise, and the service then shows what was set.
	filled := map[string]any{
		"id":                    str("list_id", "") + "/" + str("original_id", ""),
		"email_status":          "SUBSCRIBED",
		"mobile_status":         "SUBSCRIBED",
		"service_email_status":  str("email_status", "SUBSCRIBED"),
		"service_mobile_status": str("mobile_status", "SUBSCRIBED"),
		"date_created":          now,
		"date_modified":         now,
	}
	for name, v := range attrs {
		if v.IsKnown() {
			continue
		}
		value, ok := filled[name]
		if !ok {
			diags.AddAttributeError(path.Root(name), "Floor contact",
				"The floor provider has no value for the computed attribute "+name+": add one to fillComputed in internal/bench/floorprovider.")
			continue
		}
		diags.Append(state.SetAttribute(ctx, path.Root(name), value)...)
	}
}
