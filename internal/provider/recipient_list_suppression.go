package provider

import (
	"context"
	"fmt"

	"github.com/hashicorp/terraform-plugin-framework/diag"
	"github.com/hashicorp/terraform-plugin-log/tflog"

	"github.com/rms-labs/terraform-provider-rms/internal/client"
)

// copyOptOutsBeforeDelete copies every unsubscribed channel of the list's
// contacts into the suppression list before the list is deleted: the
// service deletes the contacts with the list, and the list cannot tell
// which opt-outs were the recipients' own (the consent record belonged to
// rms_list_contacts, destroyed before it), so all are kept. False (and an
// error) when the copy failed: the list must not be deleted then.
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
	var n int
	if err == nil {
		n, err = s.Record(ctx, outs)
	}
	if err != nil {
		addAPIError(diags, "List not deleted: its opt-outs could not be copied into the suppression list",
			fmt.Errorf("list %s was not deleted, so no opt-out is lost; copying its unsubscribed contacts into the suppression list %s failed: %w. Fix the cause (or remove suppression_list_id to delete without the copy) and destroy again", listID, id, err), nil)
		return false
	}
	tflog.Info(ctx, "copied a list's opt-outs into the suppression list before deleting it", map[string]any{"list_id": listID, "suppression_list_id": id, "opt_outs": len(outs), "written": n})
	return true
}
