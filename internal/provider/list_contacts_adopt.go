package provider

import (
	"context"
	"fmt"

	"github.com/hashicorp/terraform-plugin-framework/attr"
	"github.com/hashicorp/terraform-plugin-framework/diag"
	"github.com/hashicorp/terraform-plugin-framework/path"
	"github.com/hashicorp/terraform-plugin-framework/resource"
	"github.com/hashicorp/terraform-plugin-framework/types"

	"github.com/rms-labs/terraform-provider-rms/internal/contactsync"
)

// Adoption of a list that exists: `terraform import` (or an import block,
// with `terraform plan -generate-config-out`) takes the list id, and the
// refresh that follows the import fills the contacts map with what the list
// holds, up to adoptMaxContacts, so that Terraform 1.11+ writes a
// configuration from it that plans. The import marks its private state
// (privateAdopting) until the first apply: until then the map in state is
// the service's, not a configuration's, so neither a plan nor an apply
// takes the property keys missing from a configuration for values to
// remove. Above adoptMaxContacts the map is left empty and the error of a
// configuration without contacts and source_file names the block to write,
// beside the warning that says how many contacts the list holds.

const (
	privateAdopting = "adopting"
	// adoptMaxContacts bounds the map an adoption writes into a generated
	// configuration: above it a source file is the input to use.
	adoptMaxContacts = 1000
)

// markAdopting marks an import's private state.
func markAdopting(ctx context.Context, p privateSetter) diag.Diagnostics {
	return writeJSONKey(ctx, p, privateAdopting, true)
}

// adopting reports whether no apply has run since the import.
func adopting(ctx context.Context, p privateGetter) bool {
	if p == nil {
		return false
	}
	raw, d := p.GetKey(ctx, privateAdopting)
	return !d.HasError() && string(raw) == "true"
}

// endAdopting drops the mark: an apply made the list as configured.
func endAdopting(ctx context.Context, p privateSetter) diag.Diagnostics {
	return p.SetKey(ctx, privateAdopting, nil)
}

// adoptedEntries is the contacts map of what the list holds: every
// property by attribute name, the statuses the service shows.
func adoptedEntries(service *contactsync.ServiceList) (types.Map, diag.Diagnostics) {
	var diags diag.Diagnostics
	out := make(map[string]attr.Value, service.Len())
	status := func(s string) types.String {
		if s == "" {
			return types.StringNull()
		}
		return types.StringValue(s)
	}
	for id, s := range service.All() {
		props := make(map[string]attr.Value, len(s.Props))
		for k, v := range s.Props {
			if v != "" {
				props[k] = types.StringValue(v)
			}
		}
		pm, d := types.MapValue(types.StringType, props)
		diags.Append(d...)
		v, d := types.ObjectValue(listContactEntryType.AttrTypes, map[string]attr.Value{
			"properties": pm, "email_status": status(s.Email), "mobile_status": status(s.Mobile),
		})
		diags.Append(d...)
		out[id] = v
	}
	m, d := types.MapValue(listContactEntryType, out)
	diags.Append(d...)
	return m, diags
}

// adopt is the refresh right after an import: it fills the contacts map
// with the list's contacts or, above adoptMaxContacts, notes the list in
// the run's adoptions, whose warning the plan decides
// (list_contacts_adopt_warning.go).
func adopt(state *listContactsModel, service *contactsync.ServiceList, adopted *adoptedLists, diags *diag.Diagnostics) {
	if !state.Contacts.IsNull() || state.isFile() {
		return // an earlier refresh adopted the list, or a configuration applied
	}
	if service.Len() > adoptMaxContacts {
		adopted.note(state.ListID.ValueString(), service.Len())
		return
	}
	m, d := adoptedEntries(service)
	diags.Append(d...)
	if d.HasError() {
		return
	}
	state.Contacts = m
	state.ContactCount = types.Int64Value(int64(service.Len()))
}

// sourceFileHint names the block a list too large for a map needs, and
// the two ways to write its file (sourceFileWriters).
func sourceFileHint(listID string) string {
	return fmt.Sprintf("Write the list's contacts to a CSV file and give it as the input:\n\n"+
		"  list_id     = %q\n  source_file = \"${path.module}/list-%s.csv\"\n\n%s", listID, listID, sourceFileWriters(listID))
}

// listContactsInput is the rule "exactly one of contacts and source_file",
// with a message that says what to write, above all for a configuration
// generated from an adopted list too large for a map, which adopted (nil
// before the provider is configured) says it is.
type listContactsInput struct {
	adopted *adoptedLists
}

var _ resource.ConfigValidator = listContactsInput{}

func (listContactsInput) Description(context.Context) string {
	return "exactly one of contacts and source_file must be set"
}

func (v listContactsInput) MarkdownDescription(ctx context.Context) string { return v.Description(ctx) }

func (v listContactsInput) ValidateResource(ctx context.Context, req resource.ValidateConfigRequest, resp *resource.ValidateConfigResponse) {
	var contacts, file, listID attr.Value
	for name, to := range map[string]*attr.Value{"contacts": &contacts, "source_file": &file, "list_id": &listID} {
		resp.Diagnostics.Append(req.Config.GetAttribute(ctx, path.Root(name), to)...)
	}
	if resp.Diagnostics.HasError() || contacts.IsUnknown() || file.IsUnknown() {
		return
	}
	switch {
	case !contacts.IsNull() && !file.IsNull():
		resp.Diagnostics.AddAttributeError(path.Root("source_file"), "Give contacts or source_file, not both",
			"rms_list_contacts takes its contacts from a map (contacts) or from a CSV file (source_file): remove one of them.")
	case contacts.IsNull() && file.IsNull():
		id := "42"
		if s, ok := listID.(types.String); ok && !s.IsNull() && !s.IsUnknown() {
			id = s.ValueString()
			warnAdoptedWithoutContacts(&resp.Diagnostics, v.adopted, id)
		}
		resp.Diagnostics.AddAttributeError(path.Root("source_file"), "Give contacts or source_file",
			"rms_list_contacts needs its contacts, as a map (contacts = { \"<originalId>\" = { properties = { ... } } }) or as a CSV file (source_file). "+
				"A configuration generated for an imported list of more than "+fmt.Sprint(adoptMaxContacts)+" contacts has neither. "+sourceFileHint(id))
	}
}
