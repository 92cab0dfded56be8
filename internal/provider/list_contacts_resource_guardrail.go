package provider

import (
	"context"
	"fmt"
	"strings"

	"github.com/hashicorp/terraform-plugin-framework/diag"
	"github.com/hashicorp/terraform-plugin-framework/path"
	"github.com/hashicorp/terraform-plugin-framework/types"
	"github.com/hashicorp/terraform-plugin-log/tflog"

	"github.com/rms-labs/terraform-provider-rms/internal/client"
	"github.com/rms-labs/terraform-provider-rms/internal/contactsync"
)

// The guardrail on mass unsubscription for rms_list_contacts: what
// `exclusive` unsubscribes (plan and apply) and what a destroy does. The
// rule and the messages are in unsubscribe_guardrail.go.

const listContactsGuardScope = "this resource"

func (r listGuard) limits(m listContactsModel) unsubscribeLimits {
	var prov providerUnsubscribeLimits
	if r.data != nil {
		prov = r.data.unsubscribeLimits
	}
	return resolveUnsubscribeLimits(m.unsubscribeLimitArgs, prov, listContactsGuardScope)
}

// guardExclusivePlan checks a plan's exclusive unsubscriptions, counted
// from the refresh's listing.
func (r listGuard) guardExclusivePlan(plan listContactsModel, service *contactsync.ServiceList, diff contactsync.Diff, diags *diag.Diagnostics) {
	if !plan.Exclusive.ValueBool() || !plan.limitsKnown() {
		return
	}
	checkUnsubscribeLimit(diags, contactsync.ExclusiveCount(plan.ListID.ValueString(), service, diff), r.limits(plan), guardTarget{Attr: path.Root(attrMaxUnsubscribe)})
}

// guardExclusiveUnlisted is the check of a plan that has no refresh
// listing: a create (nothing was refreshed) lists the list once, statuses
// only; an update lists it when its state carries a count for the apply
// (the final plan of an apply, whose refresh ran in the plan's process, or
// a plan whose refresh was skipped after a refresh that changed nothing),
// and otherwise says that it unsubscribes nobody it could not count (a plan
// made with -refresh=false after an apply: the apply has no count to hold
// to, list_contacts_exclusive_counted.go).
//
// inRun says the refresh of this run read the list (the final plan of an
// apply, whose listing stayed in the plan's provider process): the plan
// counted there, and the apply counts again before it writes, so a listing
// here would add nothing but a read of the whole list.
func (r listGuard) guardExclusiveUnlisted(ctx context.Context, prior privateGetter, plan listContactsModel, state *listContactsModel, desired *contactsync.Book, changed, inRun bool, diags *diag.Diagnostics) {
	if !plan.Exclusive.ValueBool() {
		return
	}
	listID := plan.ListID.ValueString()
	if state != nil && (!changed || inRun) {
		return
	}
	_, haveCount := readExclusiveCounted(ctx, prior)
	if state != nil && !haveCount {
		r.warnPromisesZero(plan, state, false, "the list was not read in this run (the refresh was skipped, e.g. -refresh=false)", diags)
		return
	}
	// A create, or a plan whose refresh was skipped, or the final plan of
	// an apply: the statuses are listed here.
	service, err := contactsync.ListStatuses(ctx, r.data.client, listID)
	if err != nil {
		// A list that is not there or not readable: the apply reports it.
		tflog.Info(ctx, "guardrail: list not read at plan", map[string]any{"list_id": listID, "error": err.Error()})
		r.warnPromisesZero(plan, state, haveCount, "reading the list failed: "+err.Error(), diags)
		return
	}
	diff := contactsync.PlanExclusive(desired, service, plan.keepIDs()).Diff
	r.guardExclusivePlan(plan, service, diff, diags)
	if state == nil {
		r.refuseCreateUnsubscribing(plan, diff, diags)
	}
}

// refuseCreateUnsubscribing is the check of a create plan that counted
// contacts to unsubscribe: a create cannot hand its count to its apply
// (list_contacts_exclusive_counted.go), whose only safe course would be to
// stop, so the plan says so now, unless a limit is set explicitly.
func (r listGuard) refuseCreateUnsubscribing(plan listContactsModel, diff contactsync.Diff, diags *diag.Diagnostics) {
	ids := contactsync.ExclusiveUnsubscribed(diff)
	if len(ids) == 0 || r.exclusiveLimitExplicit(plan) || diags.HasError() {
		return
	}
	diags.AddAttributeError(path.Root("exclusive"), "Unsubscriptions on create need a limit set explicitly",
		fmt.Sprintf("exclusive = true on this new resource unsubscribes %d contacts of list %s that the input does not name (%s). "+
			"A create's apply cannot know what its plan counted (Terraform plans a create again, from nothing, inside the apply), so it unsubscribes nobody unless a limit is set explicitly. "+
			"Set %s = %d (or %s) on this resource or in the provider block: the apply then unsubscribes within those limits; "+
			"or apply first with exclusive = false, then set exclusive = true: the plan of that update counts, and its apply unsubscribes nobody else.",
			len(ids), plan.ListID.ValueString(), firstNames(ids[:min(len(ids), contactsync.MaxNamedInWarning)], len(ids)),
			attrMaxUnsubscribe, len(ids), attrMaxUnsubscribePercent))
}

// guardExclusiveUnknown is the check of a plan whose list or contacts are
// not known yet: it cannot count, so it promises to unsubscribe nobody it
// could not count (the apply holds to it).
func (r listGuard) guardExclusiveUnknown(ctx context.Context, prior privateGetter, plan listContactsModel, state *listContactsModel, diags *diag.Diagnostics) {
	if plan.Exclusive.ValueBool() || plan.Exclusive.IsUnknown() {
		_, haveCount := readExclusiveCounted(ctx, prior)
		r.warnPromisesZero(plan, state, haveCount, "the list id, the contacts, the source file or the provider configuration is known only during the apply", diags)
	}
}

// planDestroyGuard says what a destroy does. With on_destroy = "forget"
// (the default) it writes nothing, and the plan says so (and names the
// resource's import batches that may still be running). With
// "unsubscribe" it counts, per channel, the contacts it unsubscribes (the
// channels the input manages, see destroyTargetsOf) out of the contacts
// subscribed there, and holds the destroy back above the limits in force,
// the protective default included, like any mass unsubscription. The
// resource's limits come from the state (a destroy has no configuration).
func (r listGuard) planDestroyGuard(ctx context.Context, state listContactsModel, pending []string, diags *diag.Diagnostics) {
	listID := state.ListID.ValueString()
	if !unsubscribesOnDestroy(state.OnDestroy) {
		if r.data != nil {
			r.data.contacts.Snapshots.Take(listID, replacementKey(state)) // the refresh's listing is not needed
		}
		diags.AddWarning("Destroy forgets contacts",
			fmt.Sprintf("Destroying rms_list_contacts for list %s forgets its %d contacts: nothing is written to the service, and they stay in the list with the statuses they have (on_destroy = %q). "+
				"To unsubscribe them on destroy instead, set on_destroy = %q and apply before destroying.%s",
				listID, state.ContactCount.ValueInt64(), onDestroyForget, onDestroyUnsubscribe, pendingForgetNote(pending)))
		return
	}
	l := r.limits(state)
	uncounted := func(why string) {
		diags.AddWarning("Destroy unsubscribes contacts",
			fmt.Sprintf("Destroying rms_list_contacts for list %s unsubscribes (on_destroy = %q) its managed contacts on the channels the input sets a status for; they stay in the list. This plan cannot count them: %s. The destroy counts them and checks %s.",
				listID, onDestroyUnsubscribe, why, l.describe()))
	}
	if r.data == nil || r.data.client == nil {
		uncounted("the provider configuration is known only during the apply")
		return
	}
	snap, listed := r.data.contacts.Snapshots.Take(listID, replacementKey(state))
	service := snap.Service
	desired, d := listReaderOf(r.data).desiredOf(ctx, state, types.MapNull(listContactEntryType))
	if d.HasError() {
		diags.AddWarning("Destroy forgets contacts",
			fmt.Sprintf("The source file could not be read, so destroy cannot tell which contacts of list %s it manages: it forgets them without unsubscribing anyone: %s", listID, d.Errors()[0].Detail()))
		return
	}
	if !listed {
		var err error
		if service, err = contactsync.ListStatuses(ctx, r.data.client, listID); err != nil {
			if client.IsNotFound(err) {
				return // the list is gone: destroy has nothing to unsubscribe
			}
			diags.AddError("Unable to count what destroy unsubscribes",
				fmt.Sprintf("on_destroy = %q: destroy counts what it unsubscribes before it writes anything, and reading list %s failed: %s", onDestroyUnsubscribe, listID, describeAPIError(err)))
			return
		}
	}
	t := destroyTargetsOf(desired, service)
	c := contactsync.ChannelCount(listID, "destroying rms_list_contacts", service, len(t.Email), len(t.Mobile))
	diags.AddWarning("Destroy unsubscribes contacts",
		fmt.Sprintf("The service has no call that deletes a contact: destroying rms_list_contacts for list %s (on_destroy = %q) unsubscribes %d of its %d managed contacts on the channels the input sets a status for, %s; they stay in the list. "+
			"Channels the input leaves to the service, contacts unsubscribed already and contacts no longer in the list are left as they are.%s",
			listID, onDestroyUnsubscribe, t.contacts(), state.ContactCount.ValueInt64(), figuresOf(c), pendingUnsubscribeNote(pending)))
	if l.exceeds(c) {
		checkUnsubscribeLimit(diags, c, l, guardTarget{Destroy: true})
	}
}

// pendingForgetNote tells a destroy that forgets about the resource's
// import batches an apply stopped waiting for.
func pendingForgetNote(pending []string) string {
	if len(pending) == 0 {
		return ""
	}
	return fmt.Sprintf(" Import batch %s of this resource had not been seen finished: whatever it adds, changes or unsubscribes is written when it finishes, after the destroy, and no Terraform state manages those contacts then.", joinBatches(pending))
}

// pendingUnsubscribeNote: a destroy that unsubscribes first waits for the
// resource's own import batches.
func pendingUnsubscribeNote(pending []string) string {
	if len(pending) == 0 {
		return ""
	}
	return fmt.Sprintf(" Import batch %s of this resource had not been seen finished: destroy waits for it (within timeouts.delete) before it unsubscribes anyone, and fails, writing nothing, if it does not finish in time.", joinBatches(pending))
}

func joinBatches(ids []string) string { return strings.Join(ids, ", ") }

// exclusiveLimitExplicit reports whether a limit on unsubscription was set
// explicitly, on the resource (a value known only at apply counts: the
// apply checks it) or in the provider block, rather than left to the
// defaults.
func (r listGuard) exclusiveLimitExplicit(plan listContactsModel) bool {
	if !plan.MaxUnsubscribe.IsNull() || !plan.MaxUnsubscribePercent.IsNull() {
		return true
	}
	return r.data != nil && (r.data.unsubscribeLimits.count != nil || r.data.unsubscribeLimits.percent != nil)
}

// warnPromisesZero is the word of an exclusive plan that cannot count what
// it unsubscribes (why says why): the apply unsubscribes nobody it did not
// count, and stops before its first write if it would, unless a limit is
// set explicitly (then it unsubscribes within the limits). haveCount says
// an update's apply holds to what a refresh counted instead
// (list_contacts_exclusive_counted.go).
func (r listGuard) warnPromisesZero(plan listContactsModel, state *listContactsModel, haveCount bool, why string, diags *diag.Diagnostics) {
	if r.exclusiveLimitExplicit(plan) {
		diags.AddWarning("Unsubscriptions not counted",
			fmt.Sprintf("exclusive = true unsubscribes every subscribed contact of the list that the input does not name, but this plan cannot count them: %s. "+
				"%s or %s is set explicitly: the apply counts them on its own listing and unsubscribes them within %s, stopping before it writes anything above them.",
				why, attrMaxUnsubscribe, attrMaxUnsubscribePercent, r.limits(plan).describe()))
		return
	}
	then := "if it would unsubscribe anyone, it stops before it writes anything"
	switch {
	case haveCount && state != nil:
		then = "if it would unsubscribe anyone that the refresh counted as subscribed and not named by the input in the state (or that input names), it stops before it writes anything"
	case state == nil:
		then += ". A list made in the same run is empty: nobody to unsubscribe"
	}
	diags.AddWarning("Unsubscriptions not counted",
		fmt.Sprintf("exclusive = true unsubscribes every subscribed contact of the list that the input does not name, but this plan cannot count them: %s. "+
			"This plan unsubscribes nobody it could not count: the apply counts on its own listing, and %s. "+
			"To let the apply unsubscribe without a count, set %s or %s explicitly, on this resource or in the provider block.",
			why, then, attrMaxUnsubscribe, attrMaxUnsubscribePercent))
}
