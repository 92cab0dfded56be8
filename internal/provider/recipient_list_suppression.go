package provider

import (
	"context"
	"fmt"

	"github.com/hashicorp/terraform-plugin-framework/diag"
	"github.com/hashicorp/terraform-plugin-log/tflog"

	"github.com/rms-labs/terraform-provider-rms/internal/client"
	"github.com/rms-labs/terraform-provider-rms/internal/contactsync"
)

// copyOptOutsBeforeDelete copies the list's contacts' opt-outs into the
// suppression list before the list is deleted: the service deletes the
// contacts with the list. The consent records of the rms_list_contacts
// this run destroyed on the list tell Terraform's own unsubscriptions
// apart (contactsync.Retired), and those are not copied: only a
// recipient's own opt-out enters the suppression list. Without such a
// record (the contacts resource destroyed by another run or another
// provider configuration) the list cannot tell them apart, so every
// unsubscribed channel is copied. False (and an error) when the copy
// failed: the list must not be deleted then.
func (r *recipientListResource) copyOptOutsBeforeDelete(ctx context.Context, state listResourceModel, diags *diag.Diagnostics) bool {
	listID := state.ID.ValueString()
	s, id := r.data.suppressionFor(state.SuppressionListID, listID)
	if s == nil {
		return true
	}
	outs, err := r.data.contacts.OptOutsOf(ctx, listID)
	if client.IsNotFound(err) {
		return true // gone already, and its contacts with it
	}
	var n, own int
	if channels, ok := r.data.contacts.Retired.Take(listID); ok && err == nil {
		all := len(outs)
		outs = contactsync.RecipientsOwn(outs, channels)
		own = all - len(outs)
	}
	if err == nil {
		n, err = s.Record(ctx, outs)
	}
	if err != nil {
		addAPIError(diags, "List not deleted: its opt-outs could not be copied into the suppression list",
			fmt.Errorf("list %s was not deleted, so no opt-out is lost; copying its unsubscribed contacts into the suppression list %s failed: %w. Fix the cause (or remove suppression_list_id to delete without the copy) and destroy again", listID, id, err), nil)
		return false
	}
	tflog.Info(ctx, "copied a list's opt-outs into the suppression list before deleting it", map[string]any{"list_id": listID, "suppression_list_id": id, "opt_outs": len(outs), "written": n, "terraforms_own": own})
	return true
}

// warnOptOutsCopy is the destroy plan's warning of what the delete copies
// into the suppression list: every unsubscribed channel, counted with one
// listing (statuses only), unless the list's rms_list_contacts hands its
// consent record over in the same apply (contactsync.Retired). The plan
// cannot see that: Terraform plans the two destroys with no order between
// them, and another provider configuration's never. So it warns whenever
// the list holds unsubscribed channels, and says how to copy opt-outs
// only. A listing that fails is only logged: the delete lists again.
func (r *recipientListResource) warnOptOutsCopy(ctx context.Context, state listResourceModel, diags *diag.Diagnostics) {
	listID := state.ID.ValueString()
	s, supID := r.data.suppressionFor(state.SuppressionListID, listID)
	if s == nil || r.data.client == nil {
		return
	}
	held, gone, err := countListHeld(ctx, r.data.client, listID, state.Name.ValueString())
	if err != nil {
		tflog.Warn(ctx, "could not count the opt-outs a list's delete copies", map[string]any{"list_id": listID, "error": err.Error()})
		return
	}
	if gone || held.UnsubscribedEmail+held.UnsubscribedMobile == 0 {
		return
	}
	diags.AddWarning("Unsubscribed contacts copied into the suppression list",
		fmt.Sprintf("Deleting list %s (rms_list %q) copies %d unsubscribed e-mail and %d mobile statuses into suppression list %s (%s) before the service deletes the list's contacts with it. "+
			"How many of them Terraform made itself (exclusive, an input's %s, on_destroy = %q) and how many are recipients' own opt-outs cannot be told apart from the list: all of them are recorded as opt-outs, and a list fed the same people later creates them %s. "+
			"Only when the list's rms_list_contacts is destroyed in the same apply, by the same provider configuration, with its list_id referring to this rms_list, does its consent record tell them apart, and the delete copies recipients' own opt-outs only; this plan cannot see whether it is. "+
			"To copy opt-outs only, remove the rms_list_contacts together with this rms_list; to delete the list without the copy, remove %s and apply that first.",
			listID, held.Name, held.UnsubscribedEmail, held.UnsubscribedMobile, supID, attrSuppressionListID,
			client.StatusUnsubscribed, onDestroyUnsubscribe, client.StatusUnsubscribed, attrSuppressionListID))
}
