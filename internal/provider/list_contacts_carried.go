package provider

import (
	"context"
	"maps"
	"slices"

	"github.com/hashicorp/terraform-plugin-framework/attr"
	"github.com/hashicorp/terraform-plugin-framework/diag"
	"github.com/hashicorp/terraform-plugin-framework/path"
	"github.com/hashicorp/terraform-plugin-framework/resource"
	"github.com/hashicorp/terraform-plugin-framework/resource/schema"
	"github.com/hashicorp/terraform-plugin-framework/schema/validator"
	"github.com/hashicorp/terraform-plugin-framework/types"

	"github.com/rms-labs/terraform-provider-rms/internal/protocol"
)

// The contacts map of rms_list_contacts crosses the framework out of band
// (internal/protocol, carry.go): the framework's walks over a map of
// objects cost O(n²) in its size, so the protocol server hands the
// framework a placeholder and the resource the real map. Every read of a
// model of this resource takes the real map with withCarriedContacts, and
// every write hands it back with forFramework; validation of the entries,
// which the framework no longer sees, runs in ValidateConfig with the
// schema's own validators. Without the protocol server (unit tests that
// call the resource directly) both are no-ops and the framework holds the
// real map as before.

// listContactsCarry names the attribute for protocol.Wrap.
var listContactsCarry = protocol.Carry{TypeName: "rms_list_contacts", Attribute: "contacts"}

// listContactsMapType is the type of the contacts attribute.
var listContactsMapType = types.MapType{ElemType: listContactEntryType}

// withCarriedContacts sets m.Contacts to the map the request carried for
// role, when it carried one (a null or wholly unknown map is not carried:
// the framework's value is the real one then).
func withCarriedContacts(ctx context.Context, m *listContactsModel, role protocol.Role) diag.Diagnostics {
	var diags diag.Diagnostics
	v, ok := protocol.CarriedValue(ctx, role)
	if !ok {
		return diags
	}
	av, err := listContactsMapType.ValueFromTerraform(ctx, v)
	if err != nil {
		diags.AddAttributeError(path.Root("contacts"), "Unreadable contacts map", "The provider could not read the contacts map Terraform sent: "+err.Error()+". This is a bug in the provider; please report it.")
		return diags
	}
	m.Contacts = av.(types.Map)
	return diags
}

// forFramework is m as the framework's answer should hold it: the real
// contacts map goes to the answer past the framework, and the framework
// keeps a known empty map in its place (null and unknown stay as they are).
func forFramework(ctx context.Context, m listContactsModel) (listContactsModel, diag.Diagnostics) {
	var diags diag.Diagnostics
	if !protocol.Carrying(ctx) {
		return m, diags
	}
	tv, err := m.Contacts.ToTerraformValue(ctx)
	if err != nil {
		diags.AddAttributeError(path.Root("contacts"), "Unwritable contacts map", "The provider could not write the contacts map: "+err.Error()+". This is a bug in the provider; please report it.")
		return m, diags
	}
	protocol.SetCarriedValue(ctx, tv)
	if !m.Contacts.IsNull() && !m.Contacts.IsUnknown() {
		m.Contacts = types.MapValueMust(listContactEntryType, map[string]attr.Value{})
	}
	return m, diags
}

// readListContacts is readModel for this resource: the model of a plan or
// a state with its real contacts map (role says which the request carried),
// and whether the call can go on.
func readListContacts(ctx context.Context, from interface {
	Get(context.Context, any) diag.Diagnostics
}, role protocol.Role, d *providerData, diags *diag.Diagnostics) (listContactsModel, bool) {
	m, ok := readModel[listContactsModel](ctx, from, d, diags)
	if !ok {
		return m, false
	}
	diags.Append(withCarriedContacts(ctx, &m, role)...)
	return m, !diags.HasError()
}

// setListContacts writes m to a plan or a state, its contacts map past
// the framework.
func setListContacts(ctx context.Context, to interface {
	Set(context.Context, any) diag.Diagnostics
}, m listContactsModel, diags *diag.Diagnostics) {
	m, d := forFramework(ctx, m)
	diags.Append(d...)
	if d.HasError() {
		return
	}
	diags.Append(to.Set(ctx, m)...)
}

// ValidateConfig runs the validators the schema declares for the fields
// of each contact, which the framework does not see when the map is
// carried past it; the diagnostics are the framework's own, at the same
// paths.
func (r *listContactsResource) ValidateConfig(ctx context.Context, req resource.ValidateConfigRequest, resp *resource.ValidateConfigResponse) {
	var m listContactsModel
	if _, carried := protocol.CarriedValue(ctx, protocol.RoleConfig); !carried {
		return // the framework validated the real map
	}
	resp.Diagnostics.Append(withCarriedContacts(ctx, &m, protocol.RoleConfig)...)
	if resp.Diagnostics.HasError() || m.Contacts.IsNull() || m.Contacts.IsUnknown() {
		return
	}
	var s resource.SchemaResponse
	r.Schema(ctx, resource.SchemaRequest{}, &s)
	nested, ok := s.Schema.Attributes["contacts"].(schema.MapNestedAttribute)
	if !ok {
		return
	}
	entries := m.Contacts.Elements()
	for _, key := range slices.Sorted(maps.Keys(entries)) {
		e, ok := entries[key].(types.Object)
		if !ok || e.IsNull() || e.IsUnknown() {
			continue // known at apply, and validated then
		}
		fields := e.Attributes()
		for _, name := range slices.Sorted(maps.Keys(nested.NestedObject.Attributes)) {
			// Only string fields declare validators; a test holds it.
			a, okA := nested.NestedObject.Attributes[name].(schema.StringAttribute)
			value, okV := fields[name].(types.String)
			if !okA || !okV {
				continue
			}
			p := path.Root("contacts").AtMapKey(key).AtName(name)
			for _, v := range a.Validators {
				vr := validator.StringRequest{Path: p, PathExpression: p.Expression(), Config: req.Config, ConfigValue: value}
				var out validator.StringResponse
				v.ValidateString(ctx, vr, &out)
				resp.Diagnostics.Append(out.Diagnostics...)
			}
		}
	}
}
