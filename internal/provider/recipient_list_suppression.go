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
