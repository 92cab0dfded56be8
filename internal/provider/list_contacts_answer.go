package provider

import (
	"context"
	"errors"

	"github.com/hashicorp/terraform-plugin-framework/diag"
	"github.com/hashicorp/terraform-plugin-framework/path"
	"github.com/hashicorp/terraform-plugin-framework/tfsdk"
	"github.com/hashicorp/terraform-plugin-framework/types"

	"github.com/rms-labs/terraform-provider-rms/internal/contactsync"
)

// listContactsAnswer is what an apply of rms_list_contacts answers
// Terraform with, decided explicitly on every path. Terraform saves
// whatever non-null state and private state come back, with an error too,
// and an update's answer starts as the prior state, a create's as null: a
// refused or failed apply must not leave the refused input in the state
// (the next plan would show an update that writes nothing), nor record in
// private state an unsubscription it did not make (a later apply would
// take a recipient's opt-out for Terraform's own and undo it).
type listContactsAnswer struct {
	prior    *listContactsModel // nil for a create
	out      listContactsModel  // the planned values, as the apply leaves them
	applied  *contactsync.Record
	pending  *[]string
	private  privateSetter
	state    *tfsdk.State
	identity *tfsdk.ResourceIdentity
	diags    *diag.Diagnostics
	// wrote is set once the apply started writing to the service: a create
	// that fails after it is saved (and tainted by Terraform), so nothing
	// it made is orphaned.
	wrote bool
}

// answer maps what contactsync.Apply left onto the answer: the values the
// plan could not know, the refusals and warnings of the apply, and the
// state by how the apply ended. unrecorded is unrecorded_opt_outs as an
// apply leaves it (listSuppression.plannedUnrecorded).
func (a *listContactsAnswer) answer(ctx context.Context, plan listContactsModel, res contactsync.ApplyOutcome, unrecorded types.Int64) {
	listID := plan.ListID.ValueString()
	a.out = appliedValues(plan, res, unrecorded)
	var changed *contactsync.SourceChangedError
	if errors.As(res.Err, &changed) {
		a.diags.AddAttributeError(path.Root("source_file"), "Source file changed after the plan", changed.Error())
	}
	if res.Finished {
		warnKeptOptOuts(a.diags, listID, res.Settled, res.Diff.Kept)
		warnRejoined(a.diags, listID, res.Diff.Rejoined)
		warnSuppressed(a.diags, listID, suppressedKept(res.Diff), "were kept (or made)")
		warnLeftAsTheyAre(a.diags, listID, res.LeftAsTheyAre)
	}
	switch res.End {
	case contactsync.ApplyCutShort:
		a.waitCutShort(ctx)
	case contactsync.ApplyStopped:
		a.stopped(ctx)
	default:
		if !plan.Exclusive.ValueBool() {
			a.out.UnmanagedSubscribed = types.Int64Value(int64(contactsync.UnmanagedSubscribed(res.Service, res.Desired)))
		}
		warnHonoured(a.diags, listID, res.Honoured, exclusiveEver(plan, a.prior))
		a.done(ctx)
	}
}

// appliedValues are the planned values as an apply leaves them: the
// counts and digests of what it read, before it knows how it ended (an
// apply that did its work answers with them; a create that stopped after
// writing saves them, tainted).
func appliedValues(plan listContactsModel, res contactsync.ApplyOutcome, unrecorded types.Int64) listContactsModel {
	out := plan
	out.ID = types.StringValue(plan.ListID.ValueString())
	out.DesiredSHA256, out.ServiceSHA256 = types.StringNull(), types.StringNull()
	out.UnmanagedSubscribed = types.Int64Value(0)
	out.UnrecordedOptOuts = unrecorded
	out.SuppressedSubscribed = unrecorded // 0 with a suppression list, as planned (list_contacts_suppressed_subscribed.go)
	if res.Desired != nil {
		out.ContactCount = types.Int64Value(int64(res.Desired.Len()))
		if plan.isFile() {
			out.DesiredSHA256 = types.StringValue(contactsync.DesiredDigest(res.Desired))
			out.ServiceSHA256 = types.StringValue("")
			if res.End == contactsync.ApplyDone {
				out.ServiceSHA256 = out.DesiredSHA256
			}
		}
	}
	if res.Planned != nil && (out.PlannedChanges.IsUnknown() || out.PlannedChanges.IsNull()) {
		// The plan could not count (list_contacts_planned_changes.go): the
		// state holds what this apply counts before it writes.
		out.PlannedChanges = plannedChangesOf(*res.Planned, res.PlannedOf).value()
	}
	return out
}

// done answers with the planned values: the apply did its work, and an
// adopted list is managed from here on.
func (a *listContactsAnswer) done(ctx context.Context) {
	a.save(ctx, a.out)
	a.diags.Append(endAdopting(ctx, a.private)...)
}

// waitCutShort answers an apply whose wait for a batch ended early. A wait
// cut short by a timeout, an interrupt or an outage is a warning: the
// planned values are saved (Terraform requires them of an apply without
// errors), the batch ids stay in private state, and the next apply resumes
// them before it writes anything. A wait that ended with an error (the
// batch failed on the service) stops the apply.
func (a *listContactsAnswer) waitCutShort(ctx context.Context) {
	if a.diags.HasError() {
		a.wrote = true // a batch ran
		a.stopped(ctx)
		return
	}
	a.done(ctx)
}

// stopped answers an apply that ends with an error: an update keeps its
// prior state, a create that wrote nothing saves nothing (no taint, no
// destroy), and a create that wrote something saves the planned values,
// which Terraform taints. The private state holds the record as this apply
// leaves it: the prior one plus what the service confirmed, and the
// releases recorded before writes that started.
func (a *listContactsAnswer) stopped(ctx context.Context) {
	switch {
	case a.prior != nil:
		a.save(ctx, *a.prior)
	case a.wrote:
		a.done(ctx)
	}
}

// save answers with m, its identity, and the private state.
func (a *listContactsAnswer) save(ctx context.Context, m listContactsModel) {
	setListContacts(ctx, a.state, m, a.diags)
	setIdentity(ctx, a.identity, listContactsIdentity{ListID: m.ListID}, a.diags)
	a.diags.Append(writeJSONKey(ctx, a.private, privateApplied, *a.applied)...)
	a.diags.Append(writeJSONKey(ctx, a.private, privateBatches, *a.pending)...)
}
