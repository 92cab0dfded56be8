package provider

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"

	"github.com/hashicorp/terraform-plugin-framework/diag"
	"github.com/hashicorp/terraform-plugin-framework/path"

	"github.com/rms-labs/terraform-provider-rms/internal/contactsync"
)

// An exclusive apply unsubscribes nobody the plan did not count.
//
// What the plan counted must reach the apply, which runs in another
// provider process after Terraform plans the resource once more. The only
// thing of the reviewed plan that this final plan, and so the apply, sees
// is what Read left in private state (as for the source file's digest,
// list_contacts_file_digest.go): Read keeps there the exclusive candidates
// it found, the contacts subscribed on some channel that the state's input
// does not name (contactsync.Counted: by id up to 1,000 of them, else a
// count and a digest, so that a million-contact list costs a few bytes).
// The final plan's private state starts from it, and Update reads it from
// the planned private state before its first write: a contact it would
// unsubscribe that is neither a candidate nor named by the state's input
// (the plan counted those it drops) stops the apply, naming the contacts,
// whatever the limits. Update drops the key from what it saves.
//
// Without a count the apply stops if it would unsubscribe anyone at all,
// unless max_unsubscribe or max_unsubscribe_percent is set explicitly (then
// those limits hold): a create (the framework hands Create no private
// state, and Terraform plans a create again from nothing, so what its plan
// counted cannot reach it; a list made in the same run is empty and goes
// through), and an update whose state carries no count (a plan made with
// -refresh=false after an apply; a count left by an earlier refresh that
// changed nothing is the one used then). The plans say so.

// privateExclusiveCounted is the private state key Read writes.
const privateExclusiveCounted = "exclusive_counted"

// recordExclusiveCounted is Read's part: the candidates of service against
// the ids named (nil when the input could not be read: no key then).
func recordExclusiveCounted(ctx context.Context, p privateState, service *contactsync.ServiceList, named *contactsync.Book, readable bool) diag.Diagnostics {
	if !readable {
		return dropPrivateKey(ctx, p, privateExclusiveCounted)
	}
	return writeJSONKey(ctx, p, privateExclusiveCounted, contactsync.CountCandidates(service, named))
}

// readExclusiveCounted is the count a private state holds, if any.
func readExclusiveCounted(ctx context.Context, p privateGetter) (*contactsync.Counted, bool) {
	if p == nil {
		return nil, false
	}
	raw, d := p.GetKey(ctx, privateExclusiveCounted)
	if d.HasError() || len(raw) == 0 {
		return nil, false
	}
	var c contactsync.Counted
	if json.Unmarshal(raw, &c) != nil {
		return nil, false
	}
	return &c, true
}

// exclusiveGuardOf is what the apply holds exclusive to: the limits in
// force, and what the plan counted against which state (prior is nil for
// a create). The core decides from it (contactsync/apply_guard.go).
func exclusiveGuardOf(ctx context.Context, data *providerData, plan listContactsModel, prior *listContactsModel, counted *contactsync.Counted) contactsync.ExclusiveGuard {
	g := listGuardOf(data)
	guard := contactsync.ExclusiveGuard{On: plan.Exclusive.ValueBool(), Limits: g.limits(plan).rule(), LimitExplicit: g.exclusiveLimitExplicit(plan), Counted: counted}
	if prior != nil {
		guard.Prior = &contactsync.PriorInput{File: prior.isFile()}
		if !prior.isFile() {
			// A map's earlier keys: what the plan counted of them is known.
			guard.Prior.Keys = keysBook(ctx, prior.Contacts)
		}
	}
	return guard
}

// reportRefusal turns the core's refusal of an apply (err, if it is one)
// into its diagnostics: the limits exceeded, or the contacts the plan did
// not count, with why and what to do.
func (r listGuard) reportRefusal(plan listContactsModel, err error, diags *diag.Diagnostics) {
	var refusal *contactsync.GuardRefusal
	if !errors.As(err, &refusal) {
		return
	}
	if refusal.Over != nil {
		checkUnsubscribeLimit(diags, *refusal.Over, r.limits(plan), guardTarget{Attr: path.Root(attrMaxUnsubscribe)})
		return
	}
	var why, then string
	switch refusal.Why {
	case contactsync.UncountedCreate:
		why = "this resource is created in this apply, and a create's plan cannot hand what it counted to its apply"
		then = "Set max_unsubscribe or max_unsubscribe_percent explicitly on this resource or in the provider block (the apply then unsubscribes within those limits), or apply first with exclusive = false and then set exclusive = true (the plan of that update counts, and its apply holds to the count)."
	case contactsync.UncountedNoRefresh:
		why = "the plan did not count what it unsubscribes (it was made without a refresh, e.g. -refresh=false)"
		then = "Plan again with a refresh (terraform plan) and review what it unsubscribes, or set max_unsubscribe or max_unsubscribe_percent explicitly on this resource or in the provider block (the apply then unsubscribes within those limits)."
	case contactsync.UncountedSincePlan:
		why = fmt.Sprintf("they were not subscribed when the plan counted (the plan's refresh found %d contacts to unsubscribe): they signed up, or were subscribed again, after the plan was made", refusal.Counted.Count)
		then = "Plan again (terraform plan) and review what the new plan unsubscribes; then apply that plan."
	default:
		why = fmt.Sprintf("the plan read the source file another way than this apply, and counted %d contacts subscribed in the list, fewer than this apply would unsubscribe", refusal.Counted.Subscribed)
		then = "Plan again (terraform plan) and review what the new plan unsubscribes; then apply that plan."
	}
	addUncountedError(diags, refusal.ListID, refusal.Uncounted, len(refusal.Uncounted), why, then)
}

// addUncountedError is the apply's stop, before its first write, naming
// the first contacts it would have unsubscribed without a count.
func addUncountedError(diags *diag.Diagnostics, listID string, ids []string, total int, why, then string) {
	diags.AddAttributeError(path.Root("exclusive"), "Unsubscriptions not counted by the plan",
		fmt.Sprintf("exclusive = true would unsubscribe %d contacts of list %s that the plan did not count (%s): %s. Nothing was written: the apply unsubscribes nobody the plan did not count. %s",
			total, listID, firstNames(ids[:min(len(ids), contactsync.MaxNamedInWarning)], total), why, then))
}
