package provider

import (
	"context"
	"fmt"
	"strings"
	"time"

	"github.com/hashicorp/terraform-plugin-framework/diag"
	"github.com/hashicorp/terraform-plugin-framework/path"
	"github.com/hashicorp/terraform-plugin-framework/types"

	"github.com/rms-labs/terraform-provider-rms/internal/client"
	"github.com/rms-labs/terraform-provider-rms/internal/contactsync"
)

// rms_contact and an original_id a URL path cannot carry ("." or "..",
// client.PathSafeID): every call of rms_contact that addresses the contact
// by its id in the path is refused by the client, so such a contact goes
// through the calls that carry the id in a body, as rms_list_contacts'
// do (list_contacts_path_unsafe.go): the create (POST .../contacts, with
// the configured statuses), reads from the list's listing, property values
// by an ADD import row and an e-mail unsubscription by an UNSUBSCRIBE
// import row. What none of them can do (removing a value, subscribing the
// contact, any mobile status once it exists) is refused at plan, naming
// original_id; a destroy that would unsubscribe mobile says it could not.

// pathUnsafeImportTimeout bounds the wait for the import batch of one such
// contact's update or destroy (rms_contact has no timeouts argument).
const pathUnsafeImportTimeout = 10 * time.Minute

// pathUnsafeChange is the change an update of a contact whose id a path
// cannot carry writes: the property patch by attribute name and the
// statuses the consent rule sends.
func pathUnsafeChange(ctx context.Context, data *providerData, originalID string, plan, state types.Map, send client.SubscriptionStatus) (contactsync.Change, diag.Diagnostics) {
	ch := contactsync.Change{ID: originalID, Status: send}
	if plan.IsUnknown() || plan.Equal(state) {
		return ch, nil
	}
	patch, diags := propertiesPatch(ctx, data, plan, state)
	if diags.HasError() {
		return ch, diags
	}
	for _, key := range contactsync.SortedKeys(patch) {
		name := key
		if n, ok, err := data.contacts.Attributes.NameOf(ctx, key); err == nil && ok {
			name = n // an import file names its columns by attribute name
		}
		if v := patch[key]; v == nil {
			ch.Remove = append(ch.Remove, name)
		} else {
			if ch.Set == nil {
				ch.Set = map[string]string{}
			}
			ch.Set[name] = *v
		}
	}
	return ch, diags
}

// refusePathUnsafeUpdate refuses, at plan, an update of a contact whose
// original_id a path cannot carry that no call carrying the id in a body
// can write.
func refusePathUnsafeUpdate(ctx context.Context, data *providerData, plan, state contactModel, send client.SubscriptionStatus, diags *diag.Diagnostics) {
	originalID := state.OriginalID.ValueString()
	if client.PathSafeID(originalID) || data == nil || data.contacts == nil {
		return
	}
	ch, d := pathUnsafeChange(ctx, data, originalID, plan.Properties, state.Properties, send)
	diags.Append(d...)
	_, _, unwritable := contactsync.SplitPathUnsafe([]contactsync.Change{ch})
	if len(unwritable) == 0 {
		return
	}
	diags.AddAttributeError(path.Root("original_id"), "Contact change no call can write",
		fmt.Sprintf("Contact %q of list %s cannot be written as this plan asks: %s. "+
			"Its original_id is a dot segment: in a URL path a server resolves it as path navigation (RFC 3986), so the service's calls that address a contact by its original_id in the path cannot reach it. "+
			"Terraform creates such a contact (the create carries the id in its body), reads it from the list's listing, sets its property values by ADD import rows and unsubscribes its e-mail by UNSUBSCRIBE import rows; nothing else can be written for it. "+
			"Set the configuration to what the service holds (the refreshed state shows it), or leave the value or status out.",
			originalID, state.ListID.ValueString(), strings.Join(unwritable[0].What, "; ")))
}

// updatePathUnsafe writes an update of a contact whose original_id a path
// cannot carry by import rows, then reads it from the listing into state.
func updatePathUnsafe(ctx context.Context, data *providerData, plan, state, config contactModel, send client.SubscriptionStatus, out stateSetter, diags *diag.Diagnostics) {
	listID, originalID := state.ListID.ValueString(), state.OriginalID.ValueString()
	ch, d := pathUnsafeChange(ctx, data, originalID, plan.Properties, state.Properties, send)
	diags.Append(d...)
	if diags.HasError() {
		return
	}
	if !ch.Empty() {
		ctx, cancel := context.WithTimeout(ctx, pathUnsafeImportTimeout)
		defer cancel()
		w := &contactWriter{data: data, listID: listID, timeout: pathUnsafeImportTimeout, fileAttr: path.Root("original_id")}
		if _, finished := w.writeChanges(ctx, []contactsync.Change{ch}, func(string) {}, diags); !finished && !diags.HasError() {
			diags.AddError("Contact update not confirmed",
				fmt.Sprintf("The import batch that writes contact %q of list %s did not finish within %s; it goes on on the service. The next plan reads the contact and shows what is left.", originalID, listID, pathUnsafeImportTimeout))
		}
		if diags.HasError() {
			return
		}
	}
	c, err := data.client.Contacts.Lookup(ctx, listID, originalID)
	if err != nil {
		addContactError(diags, "Unable to read contact", listID, err)
		return
	}
	m, d := toContactModel(ctx, data, c, plan)
	keepDesired(&m, config)
	diags.Append(d...)
	diags.Append(out.Set(ctx, m)...)
}

// destroyPathUnsafe is destroy's unsubscription of a contact whose
// original_id a path cannot carry: e-mail by an UNSUBSCRIBE import row;
// mobile, which no such call reaches, is left and named in a warning. It
// reports whether the contact's e-mail was unsubscribed as send asks.
func destroyPathUnsafe(ctx context.Context, data *providerData, listID, originalID string, send client.SubscriptionStatus, diags *diag.Diagnostics) bool {
	ctx, cancel := context.WithTimeout(ctx, pathUnsafeImportTimeout)
	defer cancel()
	w := &contactWriter{data: data, listID: listID, timeout: pathUnsafeImportTimeout, destroying: true, fileAttr: path.Root("original_id")}
	_, finished := w.writeChanges(ctx, []contactsync.Change{{ID: originalID, Status: send}}, func(string) {}, diags)
	if !finished && !diags.HasError() {
		diags.AddError("Contact not unsubscribed",
			fmt.Sprintf("The UNSUBSCRIBE import of contact %q of list %s did not finish within %s; it goes on on the service. Destroy again to check, or unsubscribe the contact on the service.", originalID, listID, pathUnsafeImportTimeout))
	}
	return finished && !diags.HasError()
}

// warnPathUnsafeCreateStatus warns where a contact whose original_id a path
// cannot carry was created with statuses other than the ones its create
// asked for (a service that starts contacts unsubscribed, say): nothing
// can set them afterwards.
func warnPathUnsafeCreateStatus(originalID string, want, got client.SubscriptionStatus, diags *diag.Diagnostics) {
	var differ []string
	if want.Status != "" && got.Status != "" && got.Status != want.Status {
		differ = append(differ, fmt.Sprintf("email_status %s (asked %s)", got.Status, want.Status))
	}
	if want.MobileStatus != "" && got.MobileStatus != "" && got.MobileStatus != want.MobileStatus {
		differ = append(differ, fmt.Sprintf("mobile_status %s (asked %s)", got.MobileStatus, want.MobileStatus))
	}
	if len(differ) == 0 {
		return
	}
	diags.AddAttributeWarning(path.Root("original_id"), "Contact created with other statuses",
		fmt.Sprintf("The service created contact %q with %s. Its original_id is a dot segment, which no call that sets a status can carry in its URL path, so Terraform cannot change them; the service's own process (a confirmation e-mail, say) may.",
			originalID, strings.Join(differ, " and ")))
}

// takeOverPathUnsafe is the create half of a replacement of a contact whose
// original_id a path cannot carry: the configured values by an ADD import
// row, a configured e-mail UNSUBSCRIBED by an UNSUBSCRIBE row, and the
// contact read from the listing (nil after an error).
func takeOverPathUnsafe(ctx context.Context, data *providerData, listID, originalID string, props map[string]string, want, had client.SubscriptionStatus, diags *diag.Diagnostics) *client.Contact {
	ch := contactsync.Change{ID: originalID}
	for k, v := range props {
		if v == "" {
			continue
		}
		if ch.Set == nil {
			ch.Set = map[string]string{}
		}
		if n, ok, err := data.contacts.Attributes.NameOf(ctx, k); err == nil && ok {
			k = n
		}
		ch.Set[k] = v
	}
	if want.Status == client.StatusUnsubscribed && had.Status != client.StatusUnsubscribed {
		ch.Status.Status = client.StatusUnsubscribed
	}
	if !ch.Empty() {
		ctx, cancel := context.WithTimeout(ctx, pathUnsafeImportTimeout)
		defer cancel()
		w := &contactWriter{data: data, listID: listID, timeout: pathUnsafeImportTimeout, fileAttr: path.Root("original_id")}
		if _, finished := w.writeChanges(ctx, []contactsync.Change{ch}, func(string) {}, diags); !finished && !diags.HasError() {
			diags.AddError("Unable to take over the existing contact",
				fmt.Sprintf("The import batch that writes contact %q of list %s did not finish within %s; it goes on on the service.", originalID, listID, pathUnsafeImportTimeout))
		}
		if diags.HasError() {
			return nil
		}
	}
	c, err := data.client.Contacts.Lookup(ctx, listID, originalID)
	if err != nil {
		addContactError(diags, "Unable to take over the existing contact", listID, err)
		return nil
	}
	return c
}
