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

func (r *listContactsResource) limits(m listContactsModel) unsubscribeLimits {
	var prov providerUnsubscribeLimits
	if r.data != nil {
		prov = r.data.unsubscribeLimits
	}
	return resolveUnsubscribeLimits(m.unsubscribeLimitArgs, prov, listContactsGuardScope)
}

// exclusiveCount is what an exclusive diff unsubscribes, per channel, out
// of the contacts the list holds subscribed on it: an exclusive
// unsubscription changes each channel the contact is not unsubscribed from.
func exclusiveCount(listID string, service *contactsync.ServiceList, diff contactsync.Diff) unsubscribeCount {
	email, mobile := 0, 0
	for _, ch := range diff.Changes {
		if !ch.Unsubscribe {
			continue
		}
		s, _ := service.Get(ch.ID)
		if s.Email != client.StatusUnsubscribed {
			email++
		}
		if s.Mobile != client.StatusUnsubscribed {
			mobile++
		}
	}
	return channelCount(listID, "exclusive = true", service, email, mobile)
}

// guardExclusivePlan checks a plan's exclusive unsubscriptions, counted
// from the refresh's listing.
func (r *listContactsResource) guardExclusivePlan(plan listContactsModel, service *contactsync.ServiceList, diff contactsync.Diff, diags *diag.Diagnostics) {
	if !plan.Exclusive.ValueBool() || !plan.limitsKnown() {
		return
	}
	checkUnsubscribeLimit(diags, exclusiveCount(plan.ListID.ValueString(), service, diff), r.limits(plan), guardTarget{Attr: path.Root(attrMaxUnsubscribe)})
}

// guardExclusiveUnlisted is the check of a plan that has no refresh
// listing: a create (nothing was refreshed) lists the list once, statuses
// only; a plan whose refresh was skipped, or the final plan of an apply,
// says it did not count (the apply checks before it writes).
//
// inRun says the refresh of this run read the list (the final plan of an
// apply, whose listing stayed in the plan's provider process): the plan
// counted there, and the apply counts again before it writes, so a listing
// here would add nothing but a read of the whole list.
func (r *listContactsResource) guardExclusiveUnlisted(ctx context.Context, plan listContactsModel, state *listContactsModel, desired *contactsync.Book, changed, inRun bool, diags *diag.Diagnostics) {
	if !plan.Exclusive.ValueBool() {
		return
	}
	listID := plan.ListID.ValueString()
	if state != nil && (!changed || inRun) {
		return
	}
	// The refresh was skipped (-refresh=false), or this is the final plan
	// of an apply: the statuses are listed here, as for a create.
	service, err := contactsync.ListStatuses(ctx, r.data.client, listID)
	if err != nil {
		// A list that is not there or not readable: the apply reports it.
		tflog.Info(ctx, "guardrail: list not read at plan", map[string]any{"list_id": listID, "error": err.Error()})
		warnUncounted(diags, "exclusive = true on list "+listID, "reading the list failed: "+err.Error())
		return
	}
	diff := contactsync.Diff{Changes: contactsync.ExclusiveChangesKeeping(desired, service, plan.keepIDs())}
	r.guardExclusivePlan(plan, service, diff, diags)
}

// guardExclusiveUnknown is the check of a plan whose list or contacts are
// not known yet: it cannot count, so it is refused unless a limit was set
// explicitly, which the apply then checks on its own listing
// (exclusiveLimitExplicit, list_contacts_resource_plan.go).
func (r *listContactsResource) guardExclusiveUnknown(plan listContactsModel, diags *diag.Diagnostics) {
	if plan.Exclusive.ValueBool() || plan.Exclusive.IsUnknown() {
		r.refuseExclusiveUncounted(plan, "the list id, the contacts, the source file or the provider configuration is known only during the apply", diags)
	}
}

// guardExclusiveApply is the apply's own check, on the listing it writes
// from: counts can change between plan and apply, and a plan may not have
// counted at all. It reports whether the apply may write.
func (r *listContactsResource) guardExclusiveApply(plan listContactsModel, service *contactsync.ServiceList, diff contactsync.Diff, diags *diag.Diagnostics) bool {
	if !plan.Exclusive.ValueBool() {
		return true
	}
	c := exclusiveCount(plan.ListID.ValueString(), service, diff)
	l := r.limits(plan)
	if !l.exceeds(c) {
		return true
	}
	var d diag.Diagnostics
	checkUnsubscribeLimit(&d, c, l, guardTarget{Attr: path.Root(attrMaxUnsubscribe)})
	diags.Append(d...)
	return false
}

// planDestroyGuard says what a destroy does. With on_destroy = "forget"
// (the default) it writes nothing, and the plan says so (and names the
// resource's import batches that may still be running). With
// "unsubscribe" it counts, per channel, the contacts it unsubscribes (the
// channels the input manages, see destroyTargetsOf) out of the contacts
// subscribed there, and holds the destroy back above the limits in force,
// the protective default included, like any mass unsubscription. The
// resource's limits come from the state (a destroy has no configuration).
func (r *listContactsResource) planDestroyGuard(ctx context.Context, state listContactsModel, pending []string, diags *diag.Diagnostics) {
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
	desired, d := r.desiredOf(ctx, state, types.MapNull(listContactEntryType))
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
	c := channelCount(listID, "destroying rms_list_contacts", service, len(t.Email), len(t.Mobile))
	diags.AddWarning("Destroy unsubscribes contacts",
		fmt.Sprintf("The service has no call that deletes a contact: destroying rms_list_contacts for list %s (on_destroy = %q) unsubscribes %d of its %d managed contacts on the channels the input sets a status for, %s; they stay in the list. "+
			"Channels the input leaves to the service, contacts unsubscribed already and contacts no longer in the list are left as they are.%s",
			listID, onDestroyUnsubscribe, t.contacts(), state.ContactCount.ValueInt64(), c.figures(), pendingUnsubscribeNote(pending)))
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
func (r *listContactsResource) exclusiveLimitExplicit(plan listContactsModel) bool {
	if !plan.MaxUnsubscribe.IsNull() || !plan.MaxUnsubscribePercent.IsNull() {
		return true
	}
	return r.data != nil && (r.data.unsubscribeLimits.count != nil || r.data.unsubscribeLimits.percent != nil)
}

// refuseExclusiveUncounted is the check of an exclusive plan that cannot
// count what it unsubscribes (why says why). The apply never does more than
// the plan showed: without a limit set explicitly such a plan is refused;
// with one it says it did not count, and the apply counts on its own
// listing and stops above the limit before it writes.
func (r *listContactsResource) refuseExclusiveUncounted(plan listContactsModel, why string, diags *diag.Diagnostics) {
	if r.exclusiveLimitExplicit(plan) {
		warnUncounted(diags, "exclusive = true", why)
		return
	}
	diags.AddAttributeError(path.Root("exclusive"), "Unsubscriptions cannot be counted",
		fmt.Sprintf("exclusive = true unsubscribes every subscribed contact of the list that the input does not name, but this plan cannot count them: %s. "+
			"A plan that cannot count is refused unless a limit is set explicitly: set %s or %s on this resource or in the provider block "+
			"(the apply then counts on its own listing and stops before it writes anything above the limit), "+
			"or make the list first (terraform apply -target on the list) so that the plan can count.",
			why, attrMaxUnsubscribe, attrMaxUnsubscribePercent))
}
