package provider

import (
	"context"
	"fmt"

	"github.com/hashicorp/terraform-plugin-framework/diag"
	"github.com/hashicorp/terraform-plugin-log/tflog"

	"github.com/rms-labs/terraform-provider-rms/internal/client"
	"github.com/rms-labs/terraform-provider-rms/internal/contactsync"
)

// attrDeletionProtection is rms_list's argument that refuses to delete a
// list holding contacts.
const attrDeletionProtection = "deletion_protection"

// listHeld is what a protected list holds when its deletion is refused:
// what the refusal names.
type listHeld struct {
	ID, Name string
	// Contacts is how many contacts the list holds; UnsubscribedEmail and
	// UnsubscribedMobile how many of them are unsubscribed on each channel
	// (the opt-outs its deletion would lose).
	Contacts, UnsubscribedEmail, UnsubscribedMobile int
	// SuppressionListID is the suppression list the delete copies the
	// opt-outs into first ("" when none is configured).
	SuppressionListID string
}

// countListHeld lists a list's contacts once, statuses only, and counts
// them. gone reports a list the service no longer has (404): nothing to
// protect.
func countListHeld(ctx context.Context, c *client.Client, id, name string) (held listHeld, gone bool, err error) {
	service, err := contactsync.ListStatuses(ctx, c, id)
	if client.IsNotFound(err) {
		return listHeld{}, true, nil
	}
	if err != nil {
		return listHeld{}, false, fmt.Errorf("counting the contacts of list %s: %w", id, err)
	}
	held = listHeld{ID: id, Name: name, Contacts: service.Len()}
	for _, ct := range service.All() {
		if ct.Email == client.StatusUnsubscribed {
			held.UnsubscribedEmail++
		}
		if ct.Mobile == client.StatusUnsubscribed {
			held.UnsubscribedMobile++
		}
	}
	return held, false, nil
}

// listDeletionRefusal is the one wording of a refused deletion, at plan and
// at apply (atApply says which). Whatever a deletion would do first (a copy
// of the opt-outs elsewhere, say) is one more sentence here.
func listDeletionRefusal(h listHeld, atApply bool) (summary, detail string) {
	when := "This plan deletes nothing"
	if atApply {
		when = "The delete was refused before anything was deleted (the plan could not see it: a plan made without a refresh or before the contacts were added, or a replacement Terraform decided, such as -replace or replace_triggered_by)"
	}
	copied := " No suppression list is configured (suppression_list_id): set one to keep the opt-outs account-wide before the list goes."
	if h.SuppressionListID != "" {
		copied = fmt.Sprintf(" Once protection is lifted, the delete first copies the %d e-mail and %d mobile opt-outs into suppression list %s, and deletes nothing if that copy fails.", h.UnsubscribedEmail, h.UnsubscribedMobile, h.SuppressionListID)
	}
	return "List holds contacts: deletion protection is on",
		fmt.Sprintf("rms_list %q (id %s) holds %d contacts, %d of them unsubscribed on e-mail and %d on mobile. "+
			"Deleting or replacing the list deletes its contacts with it, and with them their opt-outs: a list made later from the same people would subscribe them again. "+
			"%s: %s is true (the default, and what a state or an import without it means). "+
			"To delete the list anyway, set %s = false on this rms_list and apply that first, then destroy or replace it. "+
			"The provider cannot order a list deleted and a new list fed the same people in the same run: delete the old list first, in an apply of its own.%s",
			h.Name, h.ID, h.Contacts, h.UnsubscribedEmail, h.UnsubscribedMobile, when, attrDeletionProtection, attrDeletionProtection, copied)
}

// checkListDeletion refuses to delete a protected list that holds contacts.
// It reports whether the deletion may go on: the list is unprotected, empty
// or gone. At plan a listing that fails is a warning (the delete checks
// again); at apply it refuses, since nothing may be deleted uncounted.
// Its errors carry no attribute path: a destroy may have no configuration
// left to point into.
func checkListDeletion(ctx context.Context, d *providerData, state listResourceModel, atApply bool, diags *diag.Diagnostics) bool {
	if !deletionProtected(state.DeletionProtection) {
		return true
	}
	id, name := state.ID.ValueString(), state.Name.ValueString()
	if d == nil || d.client == nil {
		diags.AddWarning("Deletion protection not checked",
			fmt.Sprintf("rms_list %q (id %s) has %s on, and this plan cannot count its contacts: the provider configuration is known only during the apply. The delete counts them and refuses if the list holds any.", name, id, attrDeletionProtection))
		return true
	}
	held, gone, err := countListHeld(ctx, d.client, id, name)
	switch {
	case gone:
		tflog.Info(ctx, "list is gone: nothing to protect", map[string]any{"id": id})
		return true
	case err != nil && atApply:
		diags.AddError("Unable to check deletion protection",
			fmt.Sprintf("rms_list %q (id %s) has %s on, so it is deleted only when it holds no contacts, and counting them failed; nothing was deleted: %s. Try again, or set %s = false and apply that first to delete it without counting.", name, id, attrDeletionProtection, describeAPIError(err), attrDeletionProtection))
		return false
	case err != nil:
		diags.AddWarning("Deletion protection not checked",
			fmt.Sprintf("rms_list %q (id %s) has %s on, and this plan could not count its contacts: %s. The delete counts them again and refuses if the list holds any.", name, id, attrDeletionProtection, describeAPIError(err)))
		return true
	case held.Contacts == 0:
		return true
	}
	_, held.SuppressionListID = d.suppressionFor(state.SuppressionListID, id)
	summary, detail := listDeletionRefusal(held, atApply)
	diags.AddError(summary, detail)
	return false
}
