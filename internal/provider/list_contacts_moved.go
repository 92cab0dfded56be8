package provider

import (
	"fmt"

	"github.com/hashicorp/terraform-plugin-framework/diag"

	"github.com/rms-labs/terraform-provider-rms/internal/contactsync"
)

// warnLeftAsTheyAre names the contacts that moved on between the plan and
// the apply (contactsync.Moved): the apply did not write them, so that it
// does no more than the plan counted, and planned_changes holds what the
// plan counted, not what was written.
func warnLeftAsTheyAre(diags *diag.Diagnostics, listID string, ids []string) {
	if len(ids) == 0 {
		return
	}
	diags.AddWarning("Contacts changed since the plan left as they are",
		fmt.Sprintf("%d contacts of list %s changed status, or joined the list, after the plan was made (a recipient's own opt-out or sign-up, another writer, or an import batch an earlier apply started): "+
			"this apply wrote nothing to them, so it did no more than the plan counted, and planned_changes still holds the plan's counts. An opt-out is kept; nobody who joined is unsubscribed. "+
			"The next plan shows what is left to do for them: %s.",
			len(ids), listID, firstNames(ids[:min(len(ids), contactsync.MaxNamedInWarning)], len(ids))))
}
