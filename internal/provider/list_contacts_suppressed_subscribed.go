package provider

import (
	"context"
	"fmt"

	"github.com/hashicorp/terraform-plugin-framework/diag"
	"github.com/hashicorp/terraform-plugin-framework/resource/schema"
	"github.com/hashicorp/terraform-plugin-framework/types"

	"github.com/rms-labs/terraform-provider-rms/internal/contactsync"
)

// A contact the suppression list holds, but that the service shows
// subscribed on a suppressed channel (an opt-out recorded from another
// list, a CRM that subscribed it again here), must be unsubscribed by the
// next apply, whatever else the configuration changes. Nothing in the
// configuration differs, so the plan would be "No changes" and the person
// would keep receiving mail: suppressed_subscribed carries the decision
// into the plan the way unrecorded_opt_outs does. A refresh counts the
// contacts contactsync.Plan would unsubscribe because of the suppression
// list (Change.SuppressedWrite), and the plan sets 0, so the plan is an
// update that counts and names them, and its apply unsubscribes them.

const attrSuppressedSubscribed = "suppressed_subscribed"

// suppressedSubscribedAttribute is the count that makes a plan an update
// while suppressed contacts are subscribed in the list.
func suppressedSubscribedAttribute() schema.Int64Attribute {
	return schema.Int64Attribute{
		Computed: true,
		Description: "With a suppression list (`suppression_list_id`, or the provider block's): the contacts the configuration names that the suppression list holds and that the service shows subscribed on a suppressed channel. " +
			"A refresh counts them and the plan sets it to 0, so the plan is an update that unsubscribes them there (counted in `planned_changes.suppressed` and named in a warning), even when nothing else changes. " +
			"A re-subscription the configuration allowed (`allow_resubscribe_ids`) is not counted. Null without a suppression list.",
	}
}

// refreshSuppressedSubscribed is suppressed_subscribed as a refresh finds
// it: the contacts the decision of the input in state (read by desired,
// only where there is a suppression list) against this listing
// unsubscribes because of the suppression list. A suppression list that
// cannot be read keeps the last value, with a warning.
func (r listSuppression) refreshSuppressedSubscribed(ctx context.Context, m listContactsModel, desiredOf func() *contactsync.Book, service *contactsync.ServiceList, applied contactsync.Record, diags *diag.Diagnostics) types.Int64 {
	s, id := r.suppression(m)
	if s == nil {
		return types.Int64Null()
	}
	desired := desiredOf()
	if desired == nil || !service.Comparable(desired) {
		return m.SuppressedSubscribed // the input could not be read
	}
	lookup, err := s.Lookup(ctx)
	if err != nil {
		diags.AddWarning("Suppression list not read", fmt.Sprintf("The contacts of list %s could not be compared with the suppression list %s; suppressed_subscribed keeps its last value: %s", m.ListID.ValueString(), id, describeAPIError(err)))
		return m.SuppressedSubscribed
	}
	opts := m.rules().Options(applied)
	opts.Suppressed = lookup
	return types.Int64Value(int64(len(contactsync.Plan(contactsync.PlanInput{Desired: desired, Service: service, Options: opts}).SuppressedWrites())))
}

// suppressedKept are the contacts of diff.Suppressed that no write
// unsubscribes: created unsubscribed, or left unsubscribed against the
// input. The writes are named with the plan's other changes.
func suppressedKept(diff contactsync.Diff) []string {
	written := map[string]bool{}
	for _, id := range (contactsync.PlanResult{Diff: diff}).SuppressedWrites() {
		written[id] = true
	}
	var ids []string
	for _, id := range diff.Suppressed {
		if !written[id] {
			ids = append(ids, id)
		}
	}
	return ids
}
