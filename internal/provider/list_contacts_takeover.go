package provider

import (
	"context"
	"encoding/json"
	"fmt"
	"strings"

	"github.com/hashicorp/terraform-plugin-framework/diag"
	"github.com/hashicorp/terraform-plugin-framework/types"
	"github.com/hashicorp/terraform-plugin-log/tflog"

	"github.com/rms-labs/terraform-provider-rms/internal/client"
	"github.com/rms-labs/terraform-provider-rms/internal/contactsync"
)

// A replacement of rms_list_contacts (-replace, a tainted object, a changed
// argument that forces one) must unsubscribe nobody, not even for the
// moment between the old object's destroy and the new one's create: the
// service tells the account's systems about every unsubscription
// (contact.unsubscribed webhooks), and a recipient shown UNSUBSCRIBED may
// not be subscribed again without their consent. The new object takes the
// list over instead, as an update would, and the old one lets it go.
//
// Terraform orders the two halves in one of two ways, and each way gives
// the provider one means of knowing:
//
//   - destroy, then create (the default): Terraform hands the create plan's
//     private state to the destroy half. The create plan (ModifyPlan with
//     no prior state) leaves a takeover note naming the list; a destroy
//     that finds a note unsubscribes nobody. The note also carries the
//     replaced object's consent record (what Terraform last applied, what
//     it unsubscribed itself), which the create plan takes from the
//     refresh of the same run (Terraform gives the create plan of a
//     tainted object's replacement no private state; other replacements
//     get the replaced object's, see below), and the destroy half hands it
//     to the create half in memory.
//   - create, then destroy (create_before_destroy): the deposed object's
//     destroy runs after the create in the same provider process, with its
//     own private state. The create registers its list in the run's
//     provenance; the deposed destroy of the same list finds it there.
//     The new object starts without the old one's consent record (the
//     framework hands a create no private state, and the destroy runs
//     last), so it errs on the side of consent: a contact shown
//     UNSUBSCRIBED counts as the recipient's own opt-out. It leaves those
//     contacts (the ones whose status it held back) in the run's
//     provenance, and the deposed destroy, which has the old record, sends
//     the statuses the old record shows were Terraform's to give back.
//
// A replacement that moves to another list (a changed list_id; above all a
// replaced rms_list, whose new id is known only at apply) carries the old
// list's opt-outs into the new one, destroy first only: Terraform destroys
// rms_list_contacts (old), destroys rms_list (old), creates rms_list (new)
// and creates rms_list_contacts (new), all in one provider process, after
// planning in another. What each half sees (checked with Terraform 1.11.4):
//
//   - the create plan of a replacement that is not tainted gets the
//     planned private of the update plan as prior private: the replaced
//     object's consent record, not its list id; a tainted object's create
//     plan gets no private at all;
//   - the destroy half gets the create plan's private (the note, and the
//     replaced object's record) and its own state, while the old list
//     still exists;
//   - the create half gets nothing of the plan: the apply plans the create
//     again with no prior private, and the framework hands Create no
//     private state; it knows its list id and its input.
//
// So the destroy half lists the old list (the plan's listing is in another
// process) and carries its opt-outs (contactsync.OptOutsOf) in the run's
// provenance, keyed by the new list id when the plan knew it, or else by
// the replacement key of the input the create plan wrote into the note
// (contactsync.ReplacementKey: the file's path or the map's ids). The
// create half finds them under its list id or its input's key, and starts
// each contact it adds UNSUBSCRIBED on a channel it had opted out of,
// unless allow_resubscribe, with a warning naming them. create_before_destroy
// cannot carry them: the new list is written before the old object's
// destroy runs, and a create never sees the replaced object.
//
// A plain destroy sees neither: a create starts with empty private state
// (the framework does not hand it the planned one), so the note never
// reaches the state, and a run's takeovers die with the provider process,
// so a deposed object destroyed by a later apply is an ordinary destroy.
// A destroy half unsubscribes nobody, whichever list the new object
// manages: a replacement that moves to another list forgets the old list's
// contacts, as an update that drops them would.

// privateTakeover is the private-state key of a contactsync.TakeoverNote.
const privateTakeover = "takeover"

// readTakeover returns the takeover note p holds, if any.
func readTakeover(ctx context.Context, p privateGetter) (contactsync.TakeoverNote, bool) {
	var note contactsync.TakeoverNote
	if p == nil {
		return note, false
	}
	raw, diags := p.GetKey(ctx, privateTakeover)
	if diags.HasError() || len(raw) == 0 || json.Unmarshal(raw, &note) != nil {
		return contactsync.TakeoverNote{}, false
	}
	return note, true
}

// replacementKey is contactsync.ReplacementKey of m's input; "" when the
// plan does not know it.
func replacementKey(m listContactsModel) string {
	switch {
	case m.isFile() && !m.SourceFile.IsUnknown():
		return contactsync.ReplacementKey(m.SourceFile.ValueString(), nil)
	case !m.isFile() && !m.Contacts.IsNull() && !m.Contacts.IsUnknown():
		ids := make([]string, 0, len(m.Contacts.Elements()))
		for id := range m.Contacts.Elements() {
			ids = append(ids, id)
		}
		return contactsync.ReplacementKey("", ids)
	}
	return ""
}

// carryOptOuts is the destroy half of a replacement that moves to another
// list: it reads the old list's opt-outs and leaves them for the create
// half. An error keeps the old object (and, through the dependency, the
// old list): a new list filled without them would subscribe recipients who
// had opted out.
func (r listTakeover) carryOptOuts(ctx context.Context, planned privateGetter, note contactsync.TakeoverNote, listID string, file bool, diags *diag.Diagnostics) {
	key := note.ListID
	if key == "" {
		key = note.Key
	}
	service, err := r.data.contacts.List(ctx, listID, contactsync.ListOptions{})
	if client.IsNotFound(err) {
		return // the list is gone, and its opt-outs with it
	}
	if err != nil {
		diags.AddError("Unable to read the opt-outs of list "+listID,
			"The replacement reads the old list's opt-outs before it lets the list go, so that the new list keeps them; nothing was changed, and the old object stays in the state. Apply again once the service answers.\n\n"+describeAPIError(err))
		return
	}
	old, d := readListApplied(ctx, planned, file)
	diags.Append(d...)
	optOuts := contactsync.OptOutsOf(listID, service, old)
	tflog.Info(ctx, "replacement to another list: the old list's opt-outs go to the new one", map[string]any{"list_id": listID, "new_list_id": note.ListID, "opt_outs": len(optOuts.Contacts)})
	if len(optOuts.Contacts) == 0 {
		return
	}
	if key == "" {
		diags.AddWarning("Opt-outs not carried into the new list",
			fmt.Sprintf("%d contacts of list %s had opted out (%s), but the plan knew neither the new list's id nor its input (the contacts map or source_file was known only at apply), so the new object cannot be told which they are. "+
				"Check the new list's statuses, and unsubscribe them again there if needed.",
				len(optOuts.Contacts), listID, firstNames(contactsync.SortedKeys(optOuts.Contacts)[:min(len(optOuts.Contacts), contactsync.MaxNamedInWarning)], len(optOuts.Contacts))))
		return
	}
	r.data.contacts.Provenance.CarryOptOuts(key, optOuts)
}

// withCarriedOptOuts adds to a create's record the opt-outs a destroy half
// of this run carried for its list or its input.
func (r listTakeover) withCarriedOptOuts(plan listContactsModel, applied contactsync.Record) contactsync.Record {
	o, ok := r.data.contacts.Provenance.OptOuts(plan.ListID.ValueString(), replacementKey(plan))
	if !ok {
		return applied
	}
	if applied.OptOuts != nil {
		o.Merge(*applied.OptOuts)
	}
	applied.OptOuts = &o
	return applied
}

// warnKeptOptOuts names the contacts an apply added UNSUBSCRIBED because
// they had opted out of the list the replaced object managed.
func warnKeptOptOuts(diags *diag.Diagnostics, listID string, applied contactsync.Record, kept []string) {
	if len(kept) == 0 {
		return
	}
	from := "the replaced list"
	if applied.OptOuts != nil && len(applied.OptOuts.From) > 0 {
		from = "list " + joinIDs(applied.OptOuts.From)
	}
	// The summary names the lists: Terraform folds warnings of one summary
	// into the first, and each replaced list's opt-outs must be shown.
	diags.AddWarning(fmt.Sprintf("Opt-outs of %s kept in list %s", from, listID),
		fmt.Sprintf("%d contacts had opted out of %s, which this resource managed before it was replaced, and were added to list %s unsubscribed on the channels they had left (whatever the configuration says): %s. "+
			"Set allow_resubscribe = true only if they agreed to be subscribed to the new list.",
			len(kept), from, listID, firstNames(kept[:min(len(kept), contactsync.MaxNamedInWarning)], len(kept))))
}

// joinIDs renders list ids for a message.
func joinIDs(ids []string) string {
	return strings.Join(ids, ", ")
}

// warnOptOutsToKeep names, in the plan of a replacement that moves to
// another list, the contacts the create will add UNSUBSCRIBED because they
// opted out of the old list. Only this plan (the one with the prior state)
// can warn: Terraform keeps no warning of the create plan that follows it.
// It works from the refresh's listing and says nothing without one (the
// apply reads the old list itself).
func (r listTakeover) warnOptOutsToKeep(ctx context.Context, private privateGetter, plan listContactsModel, state *listContactsModel, diags *diag.Diagnostics) {
	if state == nil || plan.ListID.Equal(state.ListID) || plan.AllowResubscribe.ValueBool() || r.data == nil || r.data.client == nil {
		return
	}
	oldList := state.ListID.ValueString()
	snap, ok := r.data.contacts.Snapshots.Take(oldList, replacementKey(*state))
	if !ok {
		return
	}
	applied, d := readListApplied(ctx, private, state.isFile())
	diags.Append(d...)
	optOuts := contactsync.OptOutsOf(oldList, snap.Service, applied).Contacts
	if len(optOuts) == 0 {
		return
	}
	kept := contactsync.SortedKeys(optOuts)
	if known := !plan.SourceFile.IsUnknown() && mapKnown(plan.Contacts); known {
		desired, d := listReaderOf(r.data).desiredOf(ctx, plan, types.MapNull(listContactEntryType))
		if d.HasError() {
			return // the plan reports the input's own errors
		}
		kept = kept[:0]
		for i := range desired.Len() {
			w := desired.Entry(i)
			o := optOuts[w.ID]
			if (o[0] && w.Email != client.StatusUnsubscribed) || (o[1] && w.Mobile != client.StatusUnsubscribed) {
				kept = append(kept, w.ID)
			}
		}
	}
	if len(kept) == 0 {
		return
	}
	if plan.ListID.IsUnknown() && replacementKey(plan) == "" {
		diags.AddWarning(fmt.Sprintf("Opt-outs of list %s cannot be kept in the new list", oldList),
			fmt.Sprintf("%d contacts had opted out of list %s (e-mail, mobile or both): %s. Neither the new list's id nor the input (the contacts map or source_file) is known before the apply, "+
				"so the replacement cannot tell the new object about them, and they would be added as the input says. Make the input known at plan time (keys that do not depend on the new list), or set their statuses in the input.",
				len(kept), oldList, firstNames(kept[:min(len(kept), contactsync.MaxNamedInWarning)], len(kept))))
		return
	}
	diags.AddWarning(fmt.Sprintf("Opt-outs of list %s to keep in the new list", oldList),
		fmt.Sprintf("%d contacts of the input had opted out of list %s (e-mail, mobile or both): %s. "+
			"In the default order (destroy, then create) the replacement adds them to the new list unsubscribed on the channels they had left, whatever the input says, and the apply names them again; "+
			"with create_before_destroy it cannot, and they would be added as the input says. Set allow_resubscribe = true only if they agreed to be subscribed to the new list.",
			len(kept), oldList, firstNames(kept[:min(len(kept), contactsync.MaxNamedInWarning)], len(kept))))
}

// noteCreatedInput registers a create by its input's replacement key as
// well as by its list (apply registers the list): a deposed object of a
// replacement that moved to another list in the create_before_destroy
// order looks its own list up, finds nothing, and would otherwise run an
// ordinary destroy, unsubscribing the old list with on_destroy =
// "unsubscribe".
func (r listTakeover) noteCreatedInput(plan listContactsModel) {
	if key := replacementKey(plan); key != "" {
		r.data.contacts.Provenance.Create(key, nil)
	}
}

// handedOverElsewhere reports whether a create of this run, on another
// list, took over the input of the object this destroy removes: the
// deposed half of a replacement that moved in the create_before_destroy
// order. Like the destroy half in the default order, it unsubscribes
// nobody: the new object manages these contacts now, in its list. A plain
// destroy beside a create of the same input (a renamed resource without a
// moved block) is taken the same way, which errs on the side of leaving
// recipients subscribed.
func (r listTakeover) handedOverElsewhere(ctx context.Context, state listContactsModel) bool {
	key := replacementKey(state)
	if key == "" {
		return false
	}
	if _, ok := r.data.contacts.Provenance.CreatedInRun(key); !ok {
		return false
	}
	tflog.Info(ctx, "replacement to another list (create before destroy): the new object has taken the input over; nobody is unsubscribed", map[string]any{"list_id": state.ListID.ValueString()})
	return true
}
