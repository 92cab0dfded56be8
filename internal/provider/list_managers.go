package provider

import (
	"context"
	"fmt"
	"sort"

	"github.com/hashicorp/terraform-plugin-framework/diag"
	"github.com/hashicorp/terraform-plugin-framework/path"
	"github.com/hashicorp/terraform-plugin-framework/resource"
	"github.com/hashicorp/terraform-plugin-framework/types"

	"github.com/rms-labs/terraform-provider-rms/internal/contactsync"
)

// Resources that share a list. exclusive = true means the
// resource owns its list; another contact resource of the configuration on
// the same list (rms_list_contacts, rms_contact) is refused at plan, naming
// both, unless keep_ids of the exclusive one names its contacts. Each plan
// (create or update, never a destroy) registers its resource in the run's
// contactsync.Managers before it checks, so that of two resources planned
// concurrently the second always sees the first; the text names both in a
// stable order, whichever reports it. What the provider cannot see: other
// states and configurations, another provider alias or configuration (a
// provider instance of its own), resources left out by -target, and list
// ids known only at apply (the apply's plan checks again).

// registerListManager registers me on listID and refuses the plan (an
// error) for each conflict it takes part in. It reports whether the plan
// may go on.
func registerListManager(data *providerData, listID types.String, me contactsync.Manager, diags *diag.Diagnostics) bool {
	if data == nil || data.contacts == nil || listID.IsNull() || listID.IsUnknown() {
		return true
	}
	id := listID.ValueString()
	for _, c := range data.contacts.Managers.Register(id, me) {
		summary, detail := managerConflictMessage(id, c)
		diags.AddError(summary, detail)
	}
	return !diags.HasError()
}

// managerConflictMessage is the refusal of one conflict, the same text
// whichever resource reports it.
func managerConflictMessage(listID string, c contactsync.ManagerConflict) (summary, detail string) {
	summary = "Two contact resources manage list " + listID
	if c.Other.Exclusive {
		return summary, fmt.Sprintf("%s and %s both manage list %s with exclusive = true: each would unsubscribe every contact of the list the other names. Nothing was written. Keep exclusive = true on one of them only, and name the other's contacts in its keep_ids.",
			c.Owner.Name, c.Other.Name, listID)
	}
	whose := "its contacts"
	if len(c.Unkept) > 0 {
		whose = firstNames(c.Unkept[:min(len(c.Unkept), contactsync.MaxNamedInWarning)], len(c.Unkept))
	}
	return summary, fmt.Sprintf("%s (exclusive = true) and %s both manage list %s in this configuration: exclusive = true unsubscribes every contact of the list its input does not name, so it would unsubscribe the other resource's contacts (%s), and report them as opted out afterwards. Nothing was written. "+
		"Drop exclusive = true, or name the other resource's contacts in keep_ids of the exclusive one, by reference: keep_ids = keys(rms_list_contacts.other.contacts) or keep_ids = [rms_contact.other.original_id]. "+
		"The provider sees only the resources of one configuration planned together: not other states, another provider alias, or resources left out by -target.",
		c.Owner.Name, c.Other.Name, listID, whose)
}

// listContactsManager describes an rms_list_contacts plan for the registry.
func listContactsManager(m listContactsModel) contactsync.Manager {
	mg := contactsync.Manager{Name: "rms_list_contacts with " + inputLabel(m), Exclusive: m.Exclusive.ValueBool() || m.Exclusive.IsUnknown()}
	switch {
	case m.KeepIDs.IsUnknown():
		mg.KeepUnknown = true
	case !m.KeepIDs.IsNull():
		mg.Keep = m.keepIDs()
	}
	if !m.isFile() && mapKnown(m.Contacts) && !m.Contacts.IsNull() {
		mg.IDs = make([]string, 0, len(m.Contacts.Elements()))
		for id := range m.Contacts.Elements() {
			mg.IDs = append(mg.IDs, id)
		}
	}
	return mg
}

// inputLabel names an rms_list_contacts by its input, for messages: the
// provider is not told resource addresses, and two resources on one list
// differ by their inputs.
func inputLabel(m listContactsModel) string {
	switch {
	case m.isFile() && m.SourceFile.IsUnknown():
		return "source_file known only at apply"
	case m.isFile():
		return "source_file " + quote(m.SourceFile.ValueString())
	case m.Contacts.IsUnknown() || !mapKnown(m.Contacts):
		return "contacts known only at apply"
	}
	ids := make([]string, 0, len(m.Contacts.Elements()))
	for id := range m.Contacts.Elements() {
		ids = append(ids, id)
	}
	if len(ids) == 0 {
		return "no contacts"
	}
	sort.Strings(ids)
	return "contacts " + firstNames(ids[:1], len(ids))
}

// registerContactManager is rms_contact's part: its plan (a create or an
// update) registers the contact on its list, so that an exclusive
// rms_list_contacts of the same list refuses, or is refused, as above.
func registerContactManager(ctx context.Context, data *providerData, req resource.ModifyPlanRequest, diags *diag.Diagnostics) bool {
	if req.Plan.Raw.IsNull() {
		return true // a destroy owns nothing
	}
	var listID, originalID types.String
	diags.Append(req.Plan.GetAttribute(ctx, path.Root("list_id"), &listID)...)
	diags.Append(req.Plan.GetAttribute(ctx, path.Root("original_id"), &originalID)...)
	if diags.HasError() {
		return false
	}
	me := contactsync.Manager{Name: "rms_contact with original_id known only at apply"}
	if !originalID.IsUnknown() && !originalID.IsNull() {
		me = contactsync.Manager{Name: "rms_contact " + quote(originalID.ValueString()), IDs: []string{originalID.ValueString()}}
	}
	return registerListManager(data, listID, me, diags)
}

// keptNote counts, for the plan's summary of an exclusive resource, the
// subscribed contacts its input does not name that keep_ids spares.
func keptNote(plan listContactsModel, desired *contactsync.Book, service *contactsync.ServiceList) string {
	keep := plan.keepIDs()
	if !plan.Exclusive.ValueBool() || len(keep) == 0 {
		return ""
	}
	kept := contactsync.KeptSubscribed(service, desired, keep)
	if len(kept) == 0 {
		return ""
	}
	return fmt.Sprintf(" %d subscribed contacts the input does not name are left as they are because keep_ids names them: %s.",
		len(kept), firstNames(kept[:min(len(kept), contactsync.MaxNamedInWarning)], len(kept)))
}
