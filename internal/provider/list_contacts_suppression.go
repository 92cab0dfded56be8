package provider

import (
	"context"
	"fmt"

	"github.com/hashicorp/terraform-plugin-framework/diag"
	"github.com/hashicorp/terraform-plugin-framework/resource/schema"
	"github.com/hashicorp/terraform-plugin-framework/types"
	"github.com/hashicorp/terraform-plugin-log/tflog"

	"github.com/rms-labs/terraform-provider-rms/internal/contactsync"
)

// rms_list_contacts and the account's suppression list
// (suppression_list.go, contactsync.Suppression): opt-outs of the list's
// contacts are recorded there (unrecorded_opt_outs makes the plan an
// update until they are), and a contact it holds is created, kept and
// left unsubscribed on its suppressed channels (contactsync.Plan).

const attrUnrecordedOptOuts = "unrecorded_opt_outs"

// unrecordedOptOutsAttribute is the count that makes a plan an update
// while opt-outs wait to be recorded.
func unrecordedOptOutsAttribute() schema.Int64Attribute {
	return schema.Int64Attribute{
		Computed: true,
		Description: "With a suppression list (`suppression_list_id`, or the provider block's): the contacts the configuration names that opted out (the service shows them `UNSUBSCRIBED` on a channel, and Terraform did not unsubscribe them there) and that the suppression list does not hold yet. " +
			"A refresh counts them and the plan sets it to 0, so the plan is an update (naming them in a warning) until an apply has copied them into the suppression list. Null without a suppression list.",
	}
}

// suppression is the suppression list the resource answers to, if any.
func (r listSuppression) suppression(m listContactsModel) (*contactsync.Suppression, string) {
	if r.data == nil || m.ListID.IsUnknown() {
		return nil, ""
	}
	return r.data.suppressionFor(m.SuppressionListID, m.ListID.ValueString())
}

// plannedUnrecorded is unrecorded_opt_outs as a plan or an apply sets it:
// 0 with a suppression list (the apply records every opt-out it finds),
// null without, unknown while the lists are.
func (r listSuppression) plannedUnrecorded(m listContactsModel) types.Int64 {
	if m.ListID.IsUnknown() || m.SuppressionListID.IsUnknown() {
		return types.Int64Unknown() // whether the suppression list is the list itself is not known yet
	}
	if _, id := r.suppression(m); id != "" {
		return types.Int64Value(0)
	}
	return types.Int64Null()
}

// suppressionReadable checks at plan that the suppression list can be
// read (the one listing of this run, which the plan's diff uses anyway).
func (r listSuppression) suppressionReadable(ctx context.Context, m listContactsModel, diags *diag.Diagnostics) bool {
	s, id := r.suppression(m)
	if s == nil || r.data.client == nil {
		return true
	}
	if err := s.Load(ctx); err != nil {
		addSuppressionError(diags, id, err)
		return false
	}
	return true
}

// withSuppression lets a diff honour the suppression list; false (and an
// error) when it cannot be read.
func (r listSuppression) withSuppression(ctx context.Context, m listContactsModel, opts *contactsync.Options, diags *diag.Diagnostics) bool {
	lookup, ok := r.lookup(ctx, m, diags)
	opts.Suppressed = lookup
	return ok
}

// lookup reads what the suppression list holds (nil without one); false
// (and an error) when it cannot be read.
func (r listSuppression) lookup(ctx context.Context, m listContactsModel, diags *diag.Diagnostics) (contactsync.SuppressedFunc, bool) {
	s, id := r.suppression(m)
	if s == nil {
		return nil, true
	}
	lookup, err := s.Lookup(ctx)
	if err != nil {
		addSuppressionError(diags, id, err)
		return nil, false
	}
	return lookup, true
}

// unrecordedOptOuts are the opt-outs of the named contacts that the
// suppression list does not hold yet (nil without one).
func (r listSuppression) unrecordedOptOuts(ctx context.Context, m listContactsModel, desired *contactsync.Book, service *contactsync.ServiceList, applied contactsync.Record) ([]contactsync.OptOut, error) {
	s, _ := r.suppression(m)
	if s == nil || desired == nil {
		return nil, nil
	}
	return r.data.contacts.OptOutsToRecord(ctx, desired, service, applied.Lookup, func(o contactsync.OptOut) (contactsync.Channels, error) {
		return s.Missing(ctx, o)
	})
}

// refreshUnrecorded is unrecorded_opt_outs as a refresh finds it.
func (r listSuppression) refreshUnrecorded(ctx context.Context, m listContactsModel, desired *contactsync.Book, service *contactsync.ServiceList, applied contactsync.Record, diags *diag.Diagnostics) types.Int64 {
	if _, id := r.suppression(m); id == "" {
		return types.Int64Null()
	}
	if desired == nil {
		return m.UnrecordedOptOuts // the file could not be read
	}
	outs, err := r.unrecordedOptOuts(ctx, m, desired, service, applied)
	if err != nil {
		diags.AddWarning("Suppression list not read", fmt.Sprintf("The opt-outs of list %s could not be compared with the suppression list; unrecorded_opt_outs keeps its last value: %s", m.ListID.ValueString(), describeAPIError(err)))
		return m.UnrecordedOptOuts
	}
	return types.Int64Value(int64(len(outs)))
}

// warnUnrecorded names, in a plan, the opt-outs the apply will record.
func (r listSuppression) warnUnrecorded(ctx context.Context, m listContactsModel, desired *contactsync.Book, service *contactsync.ServiceList, applied contactsync.Record, diags *diag.Diagnostics) {
	outs, err := r.unrecordedOptOuts(ctx, m, desired, service, applied)
	if err != nil || len(outs) == 0 {
		return
	}
	_, id := r.suppression(m)
	diags.AddWarning("Opt-outs to record in the suppression list",
		fmt.Sprintf("%d contacts of list %s opted out and are not in the suppression list %s yet; the apply copies them there (same original_id, e-mail and mobile values, unsubscribed on the channels they left): %s.",
			len(outs), m.ListID.ValueString(), id, optOutNames(outs)))
}

// recordOptOuts copies, before the apply's first write, the opt-outs the
// core decided into the suppression list (what it lacks of them); false
// (and an error) when that fails: nothing else is written then.
func (r listSuppression) recordOptOuts(ctx context.Context, m listContactsModel, desired *contactsync.Book, service *contactsync.ServiceList, decided []contactsync.OptOutDecision, diags *diag.Diagnostics) bool {
	s, id := r.suppression(m)
	if s == nil {
		return true
	}
	outs, err := r.data.contacts.CompleteOptOuts(ctx, desired, service, decided, func(o contactsync.OptOut) (contactsync.Channels, error) {
		return s.Missing(ctx, o)
	})
	if err == nil && len(outs) > 0 {
		var n int
		n, err = s.Record(ctx, outs)
		tflog.Info(ctx, "recorded opt-outs in the suppression list", map[string]any{"list_id": m.ListID.ValueString(), "suppression_list_id": id, "recorded": n})
	}
	if err != nil {
		addSuppressionError(diags, id, err)
		return false
	}
	return true
}

// warnSuppressed names the contacts the suppression list kept
// unsubscribed against the input.
func warnSuppressed(diags *diag.Diagnostics, listID string, ids []string, outcome string) {
	if len(ids) == 0 {
		return
	}
	diags.AddWarning(fmt.Sprintf("%d suppressed account-wide stay unsubscribed", len(ids)),
		fmt.Sprintf("%d contacts of list %s are in the suppression list on a channel the configuration leaves subscribed (or to the service), and %s unsubscribed there: %s. "+
			"Name them in allow_resubscribe_ids (or set allow_resubscribe) only if they agreed to be subscribed again.",
			len(ids), listID, outcome, firstNames(ids[:min(len(ids), contactsync.MaxNamedInWarning)], len(ids))))
}

// optOutNames names the first opt-outs with their channels.
func optOutNames(outs []contactsync.OptOut) string {
	ids := make([]string, 0, min(len(outs), contactsync.MaxNamedInWarning))
	for _, o := range outs[:min(len(outs), contactsync.MaxNamedInWarning)] {
		ids = append(ids, fmt.Sprintf("%s (%s)", o.OriginalID, o.Channels))
	}
	return firstNames(ids, len(outs))
}

// addSuppressionError reports a suppression list that could not be read
// or written.
func addSuppressionError(diags *diag.Diagnostics, id string, err error) {
	addAPIError(diags, "Unable to use the suppression list "+id, fmt.Errorf("%w (suppression_list_id: a list of the account that holds opt-outs; nothing was written to the managed list)", err), nil)
}
