package provider

import (
	"context"
	"fmt"

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

// exclusiveCount is what an exclusive diff unsubscribes out of the list.
func exclusiveCount(listID string, listSize int, diff contactsync.Diff) unsubscribeCount {
	_, _, unsub := diff.Counts()
	return unsubscribeCount{ListID: listID, Count: unsub, ListSize: listSize, What: "exclusive = true"}
}

// guardExclusivePlan checks a plan's exclusive unsubscriptions, counted
// from the refresh's listing.
func (r *listContactsResource) guardExclusivePlan(plan listContactsModel, service map[string]contactsync.ServiceContact, diff contactsync.Diff, diags *diag.Diagnostics) {
	if !plan.Exclusive.ValueBool() || !plan.limitsKnown() {
		return
	}
	checkUnsubscribeLimit(diags, exclusiveCount(plan.ListID.ValueString(), len(service), diff), r.limits(plan), guardTarget{Attr: path.Root(attrMaxUnsubscribe)})
}

// guardExclusiveUnlisted is the check of a plan that has no refresh
// listing: a create (nothing was refreshed) lists the list once, statuses
// only; a plan whose refresh was skipped, or the final plan of an apply,
// says it did not count (the apply checks before it writes).
func (r *listContactsResource) guardExclusiveUnlisted(ctx context.Context, plan listContactsModel, state *listContactsModel, desired []contactsync.Desired, changed bool, diags *diag.Diagnostics) {
	if !plan.Exclusive.ValueBool() {
		return
	}
	listID := plan.ListID.ValueString()
	if state != nil && !changed {
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
	diff := contactsync.Compare(desired, service, contactsync.Options{Exclusive: true})
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
func (r *listContactsResource) guardExclusiveApply(plan listContactsModel, service map[string]contactsync.ServiceContact, diff contactsync.Diff, diags *diag.Diagnostics) bool {
	if !plan.Exclusive.ValueBool() {
		return true
	}
	c := exclusiveCount(plan.ListID.ValueString(), len(service), diff)
	l := r.limits(plan)
	if !l.exceeds(c) {
		return true
	}
	var d diag.Diagnostics
	checkUnsubscribeLimit(&d, c, l, guardTarget{Attr: path.Root(attrMaxUnsubscribe)})
	diags.Append(d...)
	return false
}

// planDestroyGuard says what a destroy unsubscribes, with its share of the
// list where a listing is at hand, and holds the destroy back when the user
// set a limit (on the resource, read from the state, or in the provider
// block) and the destroy is above it. The protective default does not hold
// destroys: destroying the resource says what it does.
func (r *listContactsResource) planDestroyGuard(ctx context.Context, state listContactsModel, diags *diag.Diagnostics) {
	listID := state.ListID.ValueString()
	l := r.limits(state)
	fallback := func() {
		diags.AddWarning("Destroy unsubscribes contacts",
			fmt.Sprintf("The service has no call that deletes a contact: destroying rms_list_contacts for list %s unsubscribes its %d managed contacts from e-mail and mobile; they stay in the list.",
				listID, state.ContactCount.ValueInt64()))
	}
	if r.data == nil || r.data.client == nil {
		fallback()
		return
	}
	service, listed := r.data.contacts.Snapshots.Take(listID)
	if !listed {
		if !l.userSet() {
			fallback()
			return
		}
		var err error
		if service, err = contactsync.ListStatuses(ctx, r.data.client, listID); err != nil {
			if client.IsNotFound(err) {
				fallback() // the list is gone: destroy has nothing to unsubscribe
				return
			}
			fallback()
			diags.AddError("Unable to count what destroy unsubscribes",
				fmt.Sprintf("A limit on unsubscription is set (%s), so destroy counts what it unsubscribes first, and reading list %s failed: %s", l.describe(), listID, describeAPIError(err)))
			return
		}
	}
	desired, d := r.desiredOf(ctx, state, types.MapNull(listContactEntryType))
	if d.HasError() {
		fallback() // destroy then forgets without unsubscribing (see Delete)
		return
	}
	n := 0
	for _, w := range desired.Contacts {
		if s, ok := service[w.ID]; ok && s.SubscribedOnSomeChannel() {
			n++
		}
	}
	c := unsubscribeCount{ListID: listID, Count: n, ListSize: len(service), What: "destroying rms_list_contacts"}
	diags.AddWarning("Destroy unsubscribes contacts",
		fmt.Sprintf("The service has no call that deletes a contact: destroying rms_list_contacts for list %s unsubscribes %d of its %d managed contacts (the others are unsubscribed already or not in the list) from e-mail and mobile, %s %% of the list's %d contacts; they stay in the list.",
			listID, n, state.ContactCount.ValueInt64(), formatShare(c.share()), len(service)))
	if l.userSet() && l.exceeds(c) {
		checkUnsubscribeLimit(diags, c, l, guardTarget{Destroy: true})
	}
}
