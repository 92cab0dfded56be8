package provider

import (
	"fmt"
	"strings"

	"github.com/hashicorp/terraform-plugin-framework/diag"
	"github.com/hashicorp/terraform-plugin-framework/path"

	"github.com/rms-labs/terraform-provider-rms/internal/client"
)

// rms_contact and an original_id a URL path cannot carry ("." or "..",
// client.PathSafeID): the create carries the id in its body (POST
// .../contacts, with the configured statuses) and reads go through the
// list's listing, so such a contact is created and refreshed like any
// other, and its state never fails a plan. Every later write of rms_contact
// is a single-contact call addressed by the id in the path, which the
// client refuses to send; an update that would write is refused at plan
// instead, naming original_id, and a destroy that would unsubscribe is
// refused before it writes.

// pathUnsafeWhy says why a contact of that original_id cannot be written
// after its create.
func pathUnsafeWhy(originalID string) string {
	return fmt.Sprintf("original_id %q is a dot segment: in a URL path a server resolves it as path navigation (RFC 3986), so the service's calls that change a contact, which address it by its original_id in the path, cannot reach this one; Terraform creates it (the create carries the id in its body) and reads it from the list's listing, and changes it no further", originalID)
}

// refusePathUnsafeUpdate refuses, at plan, an update of a contact whose
// original_id a path cannot carry that would write: changed properties, or
// a status the consent rule would send (send, as Update computes it).
func refusePathUnsafeUpdate(originalID string, propertiesChanged bool, send client.SubscriptionStatus, diags *diag.Diagnostics) {
	if client.PathSafeID(originalID) {
		return
	}
	var what []string
	if propertiesChanged {
		what = append(what, "its properties")
	}
	if send.Status != "" {
		what = append(what, "email_status "+send.Status)
	}
	if send.MobileStatus != "" {
		what = append(what, "mobile_status "+send.MobileStatus)
	}
	if len(what) == 0 {
		return
	}
	diags.AddAttributeError(path.Root("original_id"), "Contact cannot be changed after its create",
		fmt.Sprintf("This plan would write %s of the contact; %s. "+
			"Set the configuration to what the service holds (the refreshed state shows it), or change the contact on the service: "+
			"an ADD import (rms_list_import) sets its property values and an UNSUBSCRIBE import unsubscribes its e-mail; rms_list_contacts does both for such an id.",
			strings.Join(what, " and "), pathUnsafeWhy(originalID)))
}

// refusePathUnsafeDestroy refuses a destroy that would unsubscribe a contact
// whose original_id a path cannot carry, before it writes: it reports
// whether it refused.
func refusePathUnsafeDestroy(listID, originalID string, diags *diag.Diagnostics) bool {
	if client.PathSafeID(originalID) {
		return false
	}
	diags.AddAttributeError(path.Root("on_destroy"), "Contact cannot be unsubscribed on destroy",
		fmt.Sprintf("on_destroy = %q would unsubscribe contact %q of list %s; %s. Nothing was written, and the resource stays in the state. "+
			"Set on_destroy = %q and apply before destroying (the contact then stays in the list as it is), or unsubscribe its e-mail with an UNSUBSCRIBE import.",
			onDestroyUnsubscribe, originalID, listID, pathUnsafeWhy(originalID), onDestroyForget))
	return true
}
