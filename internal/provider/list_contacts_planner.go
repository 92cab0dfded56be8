package provider

import (
	"context"

	"github.com/hashicorp/terraform-plugin-framework/diag"
	"github.com/hashicorp/terraform-plugin-framework/resource"
	"github.com/hashicorp/terraform-plugin-framework/types"

	"github.com/rms-labs/terraform-provider-rms/internal/contactsync"
)

// listContactsPlanner is one plan of rms_list_contacts as ModifyPlan makes
// it, step by step: the planned values, then what the apply will change.
type listContactsPlanner struct {
	r     *listContactsResource
	req   resource.ModifyPlanRequest
	resp  *resource.ModifyPlanResponse
	plan  listContactsModel
	state *listContactsModel // nil for a create
	prior types.Map          // the contacts map in state that desiredOf keeps values of
}

// inputUnknown: the input is known only at apply.
func (p *listContactsPlanner) inputUnknown() bool {
	plan := p.plan
	return plan.Contacts.IsUnknown() || plan.SourceFile.IsUnknown() || !mapKnown(plan.Contacts) || p.r.data == nil || p.r.data.client == nil ||
		(plan.isFile() && (plan.Delimiter.IsUnknown() || plan.Encoding.IsUnknown() || plan.IdentityColumn.IsUnknown()))
}

// planUnknown plans a list or an input known only at apply.
func (p *listContactsPlanner) planUnknown(ctx context.Context) {
	plan, diags := p.plan, &p.resp.Diagnostics
	plan.ContactCount, plan.DesiredSHA256, plan.ServiceSHA256, plan.UnmanagedSubscribed = types.Int64Unknown(), types.StringUnknown(), types.StringUnknown(), types.Int64Unknown()
	if !p.inputUnknown() {
		// A list made in the same apply: what the input wants needs
		// the account's attributes, not the list, so the plan shows it
		// and the apply cannot take a file rewritten since.
		desired, d := listReaderOf(p.r.data).desiredOf(ctx, plan, p.prior)
		diags.Append(d...)
		if diags.HasError() {
			return
		}
		if refuseUnknownResubscribeIDs(ctx, p.req.Private, plan, desired, diags); diags.HasError() {
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
	setListContacts(ctx, &p.resp.Plan, plan, diags)
	listGuardOf(p.r.data).guardExclusiveUnknown(ctx, p.req.Private, plan, p.state, diags)
}

// desired is what the input wants. The refresh of this run listed the
// list (its snapshot), held against the file as it read it: a file read
// the same way is not read a second time.
func (p *listContactsPlanner) desired(ctx context.Context, snap contactsync.Snapshot, listed bool) (*contactsync.Book, bool) {
	plan, diags := p.plan, &p.resp.Diagnostics
	var desired *contactsync.Book
	if listed && plan.isFile() && snap.Service.Book() != nil && snap.File == plan.fileOptions() {
		desired = snap.Service.Book()
		listReaderOf(p.r.data).warnUnknownColumns(ctx, desired, diags)
	} else {
		var d diag.Diagnostics
		desired, d = listReaderOf(p.r.data).desiredOf(ctx, plan, p.prior)
		diags.Append(d...)
		if diags.HasError() {
			return nil, false
		}
	}
	if refuseUnknownResubscribeIDs(ctx, p.req.Private, plan, desired, diags); diags.HasError() {
		return nil, false
	}
	return desired, true
}

// planKnown plans the computed values of a known input, and answers
// whether the apply has anything to do.
func (p *listContactsPlanner) planKnown(ctx context.Context, desired *contactsync.Book) (changed, ok bool) {
	plan, state, diags := &p.plan, p.state, &p.resp.Diagnostics
	plan.ID = plan.ListID
	plan.ContactCount = types.Int64Value(int64(desired.Len()))
	plan.DesiredSHA256, plan.ServiceSHA256 = types.StringNull(), types.StringNull()
	if plan.isFile() {
		digest := contactsync.DesiredDigest(desired)
		plan.DesiredSHA256 = types.StringValue(digest)
		if fileChangedSinceRefresh(ctx, p.req.Private, *plan, state, digest, diags); diags.HasError() {
			return false, false
		}
	}
	changed = listContactsChanged(*plan, state)
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
	setListContacts(ctx, &p.resp.Plan, *plan, diags)
	return changed, true
}

// planUnlisted plans without a listing in this process: the final plan
// Terraform makes inside an apply (the plan's refresh read the list, in
// another process: its digest is in the prior private state), or a plan
// whose refresh was skipped, which alone is worth a word.
func (p *listContactsPlanner) planUnlisted(ctx context.Context, desired *contactsync.Book, changed bool) {
	plan, state, diags := p.plan, p.state, &p.resp.Diagnostics
	inRun := plan.isFile() && refreshedInRun(ctx, p.req.Private, plan, plan.DesiredSHA256.ValueString())
	if changed && state != nil && plan.isFile() && !inRun {
		diags.AddWarning("Contacts to change not counted",
			"The list was not read in this run (the refresh was skipped, e.g. -refresh=false): this plan works from the state, and the apply reads the list and writes what differs.")
	}
	if changed && state != nil && !diags.HasError() {
		p.r.recountUnlisted(ctx, p.req, p.resp, plan, *state, desired)
	}
	listGuardOf(p.r.data).guardExclusiveUnlisted(ctx, p.req.Private, plan, state, desired, changed, inRun, diags)
}

// planListed names, from the refresh's listing, what the apply will
// change, and holds back what the guardrails do not allow.
func (p *listContactsPlanner) planListed(ctx context.Context, snap contactsync.Snapshot, desired *contactsync.Book, changed bool) {
	plan, diags, r := p.plan, &p.resp.Diagnostics, p.r
	listID := plan.ListID.ValueString()
	service := snap.Service
	if !service.Comparable(desired) {
		// The refresh read the file another way than this plan (the
		// configuration changed source_file, delimiter, encoding or
		// identity_column), or could not read it: list again, held
		// against the file as this plan reads it.
		var err error
		if service, err = r.data.contacts.List(ctx, listID, listOptionsOf(plan, desired)); err != nil {
			addAPIError(diags, "Unable to read the contacts of list "+listID, err, nil)
			return
		}
	}
	applied, d := readListApplied(ctx, p.req.Private, plan.isFile())
	diags.Append(d...)
	opts := plan.rules().Options(applied)
	if !listSuppressionOf(r.data).withSuppression(ctx, plan, &opts, diags) {
		return
	}
	diff := contactsync.Plan(contactsync.PlanInput{Desired: desired, Service: service, Options: opts}).Diff
	running := batchesRunningAtRefresh(ctx, p.req.Private)
	if changed && len(running) == 0 {
		setPlannedChanges(ctx, p.resp, plannedChangesOf(diff, service.Len()).value())
	}
	warnBatchRunning(diags, listID, running)
	if changed {
		// A plan with nothing to do says nothing of the contacts the
		// suppression list keeps unsubscribed: nothing happens to them.
		warnSuppressed(diags, listID, suppressedKept(diff), "will stay (or be made)")
	}
	listSuppressionOf(r.data).warnUnrecorded(ctx, plan, desired, service, applied, diags)
	if title, msg := planWarning(ctx, listID, diff, exclusiveEver(plan, p.state), snap.RecordedOptOuts, applied); msg != "" {
		// The title names the input: Terraform folds warnings of one title
		// into the first, and resources sharing a list each have theirs.
		diags.AddWarning(title+" ("+inputLabel(plan)+")", msg+keptNote(plan, desired, service))
	}
	listGuardOf(r.data).guardExclusivePlan(plan, service, diff, diags)
	refusePathUnsafe(plan, diff, diags)
	warnMobileOutOfReach(plan, desired, service, diags)
}
