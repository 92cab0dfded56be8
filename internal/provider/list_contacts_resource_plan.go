package provider

import (
	"context"

	"github.com/hashicorp/terraform-plugin-framework/resource"
	"github.com/hashicorp/terraform-plugin-framework/types"

	"github.com/rms-labs/terraform-provider-rms/internal/contactsync"
	"github.com/rms-labs/terraform-provider-rms/internal/protocol"
)

// ModifyPlan plans the computed attributes and says, in a warning, what an
// apply will change where Terraform's own diff cannot show it: for a file
// input the contacts added, changed and unsubscribed (counts and the first
// ids), for exclusive the contacts unsubscribed, and the opt-outs honoured.
// It uses the listing the refresh of this run made (no second listing);
// without one (refresh skipped, or the final plan of an apply) it works
// from the state and says so.
func (r *listContactsResource) ModifyPlan(ctx context.Context, req resource.ModifyPlanRequest, resp *resource.ModifyPlanResponse) {
	if req.Plan.Raw.IsNull() {
		r.planDestroy(ctx, req, resp)
		return
	}
	p, ok := r.startPlan(ctx, req, resp)
	if !ok {
		return
	}
	// The refresh's digest of the source file is for this plan only
	// (list_contacts_file_digest.go): it is read below, and no apply saves it.
	defer func() { resp.Diagnostics.Append(dropRefreshedFile(ctx, resp.Private)...) }()
	defer func() { resp.Diagnostics.Append(dropPrivateKey(ctx, resp.Private, privateRefreshedListing)...) }()
	if p.plan.ListID.IsUnknown() || p.inputUnknown() {
		p.planUnknown(ctx)
		return
	}
	snap, listed := listReaderOf(r.data).takeSnapshot(p.plan, p.state)
	desired, ok := p.desired(ctx, snap, listed)
	if !ok {
		return
	}
	changed, ok := p.planKnown(ctx, desired)
	if !ok {
		return
	}
	if !listed {
		p.planUnlisted(ctx, desired, changed)
		return
	}
	p.planListed(ctx, snap, desired, changed)
}

// startPlan reads the plan and the state, registers the resource on its
// list, notes a create's takeover and warns of opt-outs kept; false when
// the plan goes no further.
func (r *listContactsResource) startPlan(ctx context.Context, req resource.ModifyPlanRequest, resp *resource.ModifyPlanResponse) (*listContactsPlanner, bool) {
	p := &listContactsPlanner{r: r, req: req, resp: resp, prior: types.MapNull(listContactEntryType)}
	resp.Diagnostics.Append(req.Plan.Get(ctx, &p.plan)...)
	resp.Diagnostics.Append(withCarriedContacts(ctx, &p.plan, protocol.RolePlan)...)
	if resp.Diagnostics.HasError() || !registerListManager(r.data, p.plan.ListID, listContactsManager(p.plan), &resp.Diagnostics) {
		return nil, false
	}
	if req.State.Raw.IsNull() {
		listTakeoverOf(r.data).noteTakeover(ctx, p.plan, resp)
	} else {
		p.state = &listContactsModel{}
		resp.Diagnostics.Append(req.State.Get(ctx, p.state)...)
		resp.Diagnostics.Append(withCarriedContacts(ctx, p.state, protocol.RoleState)...)
	}
	if resp.Diagnostics.HasError() {
		return nil, false
	}
	listTakeoverOf(r.data).warnOptOutsToKeep(ctx, req.Private, p.plan, p.state, &resp.Diagnostics)
	p.plan.UnrecordedOptOuts = listSuppressionOf(r.data).plannedUnrecorded(p.plan)
	p.plan.SuppressedSubscribed = p.plan.UnrecordedOptOuts // 0 with a suppression list: the apply unsubscribes them
	if !listSuppressionOf(r.data).suppressionReadable(ctx, p.plan, &resp.Diagnostics) {
		return nil, false
	}
	if p.state != nil && !adopting(ctx, req.Private) {
		// (An adopted list's map is the service's until the first apply:
		// a key missing from the configuration is no value to remove.)
		p.prior = p.state.Contacts
	}
	return p, true
}

// noteTakeover leaves a takeover note in a create plan's private state
// (list_contacts_takeover.go): if this create replaces an object, its
// destroy half finds the note and unsubscribes nobody. A create that
// replaces nothing never shows the note to anyone.
func (r listTakeover) noteTakeover(ctx context.Context, plan listContactsModel, resp *resource.ModifyPlanResponse) {
	note := contactsync.TakeoverNote{}
	if plan.ListID.IsUnknown() {
		note.Key = replacementKey(plan)
	} else {
		note.ListID = plan.ListID.ValueString()
		if r.data != nil {
			if rec, ok := r.data.contacts.Provenance.TakeRefreshed(note.ListID, replacementKey(plan)); ok {
				note.Applied = &rec
			}
		}
	}
	resp.Diagnostics.Append(writeJSONKey(ctx, resp.Private, privateTakeover, note)...)
}

// listContactsChanged reports whether an apply has anything to do: an
// argument changed, the file's contacts changed, or the last refresh found
// the service out of line.
func listContactsChanged(plan listContactsModel, state *listContactsModel) bool {
	if state == nil {
		return true
	}
	switch {
	case !plan.Contacts.Equal(state.Contacts), !plan.SourceFile.Equal(state.SourceFile),
		!plan.Delimiter.Equal(state.Delimiter), !plan.Encoding.Equal(state.Encoding),
		!plan.IdentityColumn.Equal(state.IdentityColumn), !plan.Exclusive.Equal(state.Exclusive),
		!plan.AllowResubscribe.Equal(state.AllowResubscribe), !plan.AllowResubscribeIDs.Equal(state.AllowResubscribeIDs), !plan.BatchThreshold.Equal(state.BatchThreshold):
		return true
	case plan.isFile() && (!plan.DesiredSHA256.Equal(state.DesiredSHA256) || !state.ServiceSHA256.Equal(state.DesiredSHA256)):
		return true
	case plan.Exclusive.ValueBool() && state.UnmanagedSubscribed.ValueInt64() != 0:
		return true
	case state.SuppressedSubscribed.ValueInt64() != 0 && !plan.SuppressedSubscribed.IsNull():
		// The refresh found suppressed contacts subscribed: the apply
		// unsubscribes them (list_contacts_suppressed_subscribed.go).
		return true
	}
	return false
}

// planDestroy says what destroy does (on_destroy, read from the state),
// and holds back one that unsubscribes above the limits
// (list_contacts_resource_guardrail.go).
func (r *listContactsResource) planDestroy(ctx context.Context, req resource.ModifyPlanRequest, resp *resource.ModifyPlanResponse) {
	var state listContactsModel
	if req.State.Raw.IsNull() {
		return
	}
	resp.Diagnostics.Append(req.State.Get(ctx, &state)...)
	resp.Diagnostics.Append(withCarriedContacts(ctx, &state, protocol.RoleState)...)
	if resp.Diagnostics.HasError() {
		return
	}
	pending, d := readBatches(ctx, req.Private)
	resp.Diagnostics.Append(d...)
	listGuardOf(r.data).planDestroyGuard(ctx, state, pending, &resp.Diagnostics)
}

// takeSnapshot takes the listing this resource's refresh made, kept by its
// list and its input (contactsync.Snapshots): another resource on the same
// list never takes this one's, nor this one its. A create, or a plan that
// moves to another list, has none of its own for the planned list.
func (r listReader) takeSnapshot(plan listContactsModel, state *listContactsModel) (contactsync.Snapshot, bool) {
	if state == nil || !plan.ListID.Equal(state.ListID) {
		return contactsync.Snapshot{}, false
	}
	return r.data.contacts.Snapshots.Take(state.ListID.ValueString(), replacementKey(*state))
}
