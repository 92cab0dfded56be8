package provider

import (
	"context"

	"github.com/hashicorp/terraform-plugin-framework/diag"
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
	var plan listContactsModel
	resp.Diagnostics.Append(req.Plan.Get(ctx, &plan)...)
	resp.Diagnostics.Append(withCarriedContacts(ctx, &plan, protocol.RolePlan)...)
	if resp.Diagnostics.HasError() || !registerListManager(r.data, plan.ListID, listContactsManager(plan), &resp.Diagnostics) {
		return
	}
	if req.State.Raw.IsNull() {
		r.noteTakeover(ctx, plan, resp)
	}
	var state *listContactsModel
	if !req.State.Raw.IsNull() {
		state = &listContactsModel{}
		resp.Diagnostics.Append(req.State.Get(ctx, state)...)
		resp.Diagnostics.Append(withCarriedContacts(ctx, state, protocol.RoleState)...)
	}
	if resp.Diagnostics.HasError() {
		return
	}
	r.warnOptOutsToKeep(ctx, req.Private, plan, state, &resp.Diagnostics)
	plan.UnrecordedOptOuts = r.plannedUnrecorded(plan)
	if !r.suppressionReadable(ctx, plan, &resp.Diagnostics) {
		return
	}
	// The refresh's digest of the source file is for this plan only
	// (list_contacts_file_digest.go): it is read below, and no apply saves it.
	defer func() { resp.Diagnostics.Append(dropRefreshedFile(ctx, resp.Private)...) }()
	defer func() { resp.Diagnostics.Append(dropPrivateKey(ctx, resp.Private, privateRefreshedListing)...) }()
	prior := types.MapNull(listContactEntryType)
	if state != nil && !adopting(ctx, req.Private) {
		// (An adopted list's map is the service's until the first apply:
		// a key missing from the configuration is no value to remove.)
		prior = state.Contacts
	}
	inputUnknown := plan.Contacts.IsUnknown() || plan.SourceFile.IsUnknown() || !mapKnown(plan.Contacts) || r.data == nil || r.data.client == nil ||
		(plan.isFile() && (plan.Delimiter.IsUnknown() || plan.Encoding.IsUnknown() || plan.IdentityColumn.IsUnknown()))
	if plan.ListID.IsUnknown() || inputUnknown {
		plan.ContactCount, plan.DesiredSHA256, plan.ServiceSHA256, plan.UnmanagedSubscribed = types.Int64Unknown(), types.StringUnknown(), types.StringUnknown(), types.Int64Unknown()
		if !inputUnknown {
			// A list made in the same apply: what the input wants needs
			// the account's attributes, not the list, so the plan shows it
			// and the apply cannot take a file rewritten since.
			desired, d := r.desiredOf(ctx, plan, prior)
			resp.Diagnostics.Append(d...)
			if resp.Diagnostics.HasError() {
				return
			}
			if refuseUnknownResubscribeIDs(ctx, req.Private, plan, desired, &resp.Diagnostics); resp.Diagnostics.HasError() {
				return
			}
			plan.ContactCount = types.Int64Value(int64(desired.Len()))
			plan.DesiredSHA256 = types.StringNull()
			if plan.isFile() {
				plan.DesiredSHA256 = types.StringValue(contactsync.DesiredDigest(desired))
			}
		}
		if plan.Exclusive.ValueBool() {
			plan.UnmanagedSubscribed = types.Int64Value(0)
		}
		plan.PlannedChanges = plannedChangesUnknown()
		setListContacts(ctx, &resp.Plan, plan, &resp.Diagnostics)
		r.guardExclusiveUnknown(ctx, req.Private, plan, state, &resp.Diagnostics)
		return
	}
	// The refresh of this run listed the list (its snapshot), held
	// against the file as it read it: a file read the same way is not
	// read a second time.
	snap, listed := r.takeSnapshot(plan, state)
	var desired *contactsync.Book
	if listed && plan.isFile() && snap.Service.Book() != nil && snap.File == plan.fileOptions() {
		desired = snap.Service.Book()
	} else {
		var d diag.Diagnostics
		desired, d = r.desiredOf(ctx, plan, prior)
		resp.Diagnostics.Append(d...)
		if resp.Diagnostics.HasError() {
			return
		}
	}
	if refuseUnknownResubscribeIDs(ctx, req.Private, plan, desired, &resp.Diagnostics); resp.Diagnostics.HasError() {
		return
	}
	plan.ID = plan.ListID
	plan.ContactCount = types.Int64Value(int64(desired.Len()))
	plan.DesiredSHA256, plan.ServiceSHA256 = types.StringNull(), types.StringNull()
	if plan.isFile() {
		digest := contactsync.DesiredDigest(desired)
		plan.DesiredSHA256 = types.StringValue(digest)
		if fileChangedSinceRefresh(ctx, req.Private, plan, state, digest, &resp.Diagnostics); resp.Diagnostics.HasError() {
			return
		}
	}
	changed := listContactsChanged(plan, state)
	switch {
	case !plan.isFile():
	case changed:
		plan.ServiceSHA256 = types.StringUnknown()
	default:
		plan.ServiceSHA256 = state.ServiceSHA256
	}
	switch {
	case plan.Exclusive.ValueBool():
		plan.UnmanagedSubscribed = types.Int64Value(0)
	case changed || state == nil:
		plan.UnmanagedSubscribed = types.Int64Unknown()
	default:
		plan.UnmanagedSubscribed = state.UnmanagedSubscribed
	}
	plan.PlannedChanges = plannedChangesUnknown() // counted below, where the plan can
	if !changed {
		plan.PlannedChanges = keptPlannedChanges(state)
	}
	setListContacts(ctx, &resp.Plan, plan, &resp.Diagnostics)

	if !listed {
		// Without a listing in this process: the final plan Terraform makes
		// inside an apply (the plan's refresh read the list, in another
		// process: its digest is in the prior private state), or a plan
		// whose refresh was skipped, which alone is worth a word.
		inRun := plan.isFile() && refreshedInRun(ctx, req.Private, plan, plan.DesiredSHA256.ValueString())
		if changed && state != nil && plan.isFile() && !inRun {
			resp.Diagnostics.AddWarning("Contacts to change not counted",
				"The list was not read in this run (the refresh was skipped, e.g. -refresh=false): this plan works from the state, and the apply reads the list and writes what differs.")
		}
		if changed && state != nil && !resp.Diagnostics.HasError() {
			r.recountUnlisted(ctx, req, resp, plan, *state, desired)
		}
		r.guardExclusiveUnlisted(ctx, req.Private, plan, state, desired, changed, inRun, &resp.Diagnostics)
		return
	}
	service := snap.Service
	if !service.Comparable(desired) {
		// The refresh read the file another way than this plan (the
		// configuration changed source_file, delimiter, encoding or
		// identity_column), or could not read it: list again, held
		// against the file as this plan reads it.
		var err error
		if service, err = r.data.contacts.List(ctx, plan.ListID.ValueString(), listOptionsOf(plan, desired)); err != nil {
			addAPIError(&resp.Diagnostics, "Unable to read the contacts of list "+plan.ListID.ValueString(), err, nil)
			return
		}
	}
	applied, d := readListApplied(ctx, req.Private, plan.isFile())
	resp.Diagnostics.Append(d...)
	opts := plan.rules().Options(applied)
	if !r.withSuppression(ctx, plan, &opts, &resp.Diagnostics) {
		return
	}
	diff := contactsync.Compare(desired, service, opts)
	if changed {
		setPlannedChanges(ctx, resp, plannedChangesOf(diff, service.Len()).value())
	}
	warnSuppressed(&resp.Diagnostics, plan.ListID.ValueString(), diff.Suppressed, "will stay (or be made)")
	r.warnUnrecorded(ctx, plan, desired, service, applied, &resp.Diagnostics)
	if title, msg := planWarning(ctx, plan.ListID.ValueString(), diff, exclusiveEver(plan, state), snap.RecordedOptOuts, applied); msg != "" {
		// The title names the input: Terraform folds warnings of one title
		// into the first, and resources sharing a list each have theirs.
		resp.Diagnostics.AddWarning(title+" ("+inputLabel(plan)+")", msg+keptNote(plan, desired, service))
	}
	r.guardExclusivePlan(plan, service, diff, &resp.Diagnostics)
	refusePathUnsafe(plan, diff, &resp.Diagnostics)
	warnMobileOutOfReach(plan, desired, service, &resp.Diagnostics)
}

// noteTakeover leaves a takeover note in a create plan's private state
// (list_contacts_takeover.go): if this create replaces an object, its
// destroy half finds the note and unsubscribes nobody. A create that
// replaces nothing never shows the note to anyone.
func (r *listContactsResource) noteTakeover(ctx context.Context, plan listContactsModel, resp *resource.ModifyPlanResponse) {
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
	r.planDestroyGuard(ctx, state, pending, &resp.Diagnostics)
}

// takeSnapshot takes the listing this resource's refresh made, kept by its
// list and its input (contactsync.Snapshots): another resource on the same
// list never takes this one's, nor this one its. A create, or a plan that
// moves to another list, has none of its own for the planned list.
func (r *listContactsResource) takeSnapshot(plan listContactsModel, state *listContactsModel) (contactsync.Snapshot, bool) {
	if state == nil || !plan.ListID.Equal(state.ListID) {
		return contactsync.Snapshot{}, false
	}
	return r.data.contacts.Snapshots.Take(state.ListID.ValueString(), replacementKey(*state))
}
