package provider

import (
	"context"
	"strings"

	"github.com/hashicorp/terraform-plugin-framework-timetypes/timetypes"
	"github.com/hashicorp/terraform-plugin-framework/diag"
	"github.com/hashicorp/terraform-plugin-framework/types"
	"github.com/rms-labs/terraform-provider-rms/internal/client"
	"github.com/rms-labs/terraform-provider-rms/internal/contactsync"
)

// contactModel is the state of an rms_contact: the resource, its import,
// its identity and the list resource that reads contacts all fill it.
type contactModel struct {
	ID           types.String      `tfsdk:"id"`
	ListID       types.String      `tfsdk:"list_id"`
	OriginalID   types.String      `tfsdk:"original_id"`
	Properties   types.Map         `tfsdk:"properties"`
	EmailStatus  types.String      `tfsdk:"email_status"`
	MobileStatus types.String      `tfsdk:"mobile_status"`
	DateCreated  timetypes.RFC3339 `tfsdk:"date_created"`
	DateModified timetypes.RFC3339 `tfsdk:"date_modified"`

	AllowResubscribe    types.Bool   `tfsdk:"allow_resubscribe"`
	ServiceEmailStatus  types.String `tfsdk:"service_email_status"`
	ServiceMobileStatus types.String `tfsdk:"service_mobile_status"`
	OnDestroy           types.String `tfsdk:"on_destroy"`
	SuppressionListID   types.String `tfsdk:"suppression_list_id"`
}

// contactImportID is the id of an rms_contact: list id and original id
// joined by a slash. The list id is digits, so the first slash splits them
// even when the original id holds slashes.
func contactImportID(listID, originalID string) string { return listID + "/" + originalID }

func splitContactImportID(id string) (listID, originalID string, ok bool) {
	listID, originalID, ok = strings.Cut(id, "/")
	return listID, originalID, ok && isEntityID(listID) && originalID != ""
}

var subscriptionStates = []string{client.StatusSubscribed, client.StatusUnsubscribed}

// importedContactModel is the state of a contact taken under management:
// every value the contact holds becomes managed, since there is no
// configuration yet to say which keys are. Import and the rms_contact list
// resource (terraform query) both use it, so that configuration generated
// from a query matches what an import then reads.
func importedContactModel(ctx context.Context, attrs *contactsync.Attributes, listID string, c *client.Contact) (contactModel, diag.Diagnostics) {
	var diags diag.Diagnostics
	props := types.MapNull(types.StringType)
	named, err := attrs.ByName(ctx, c.Properties)
	if err != nil {
		diags.AddError("Unable to read the account's contact attributes", describeAPIError(err))
		return contactModel{}, diags
	}
	if len(named) > 0 {
		props, diags = types.MapValueFrom(ctx, types.StringType, map[string]string(named))
	}
	return contactFields(listID, c, props, contactModel{}), diags
}

// contactFields is the model of contact c of list listID with props as
// its properties. The interface does not show a contact's statuses: a
// service whose answer leaves one out keeps prior's value (the configured
// or last known one; null when there is none), so that no answer invents a
// change and a status the service does show is still compared.
func contactFields(listID string, c *client.Contact, props types.Map, prior contactModel) contactModel {
	return contactModel{
		ID:           types.StringValue(contactImportID(listID, c.OriginalID)),
		ListID:       types.StringValue(listID),
		OriginalID:   types.StringValue(c.OriginalID),
		Properties:   props,
		EmailStatus:  statusOrPrior(c.Status, prior.EmailStatus),
		MobileStatus: statusOrPrior(c.MobileStatus, prior.MobileStatus),
		DateCreated:  rfc3339(c.DateCreated),
		DateModified: rfc3339(c.DateModified),
		// Null in state written before it existed (and after an import):
		// false, its default, so that no plan shows it changing.
		AllowResubscribe:    types.BoolValue(prior.AllowResubscribe.ValueBool()),
		ServiceEmailStatus:  shownStatus(c.Status),
		ServiceMobileStatus: shownStatus(c.MobileStatus),
		OnDestroy:           onDestroyOr(prior.OnDestroy),
		// Not the service's: configuration only (null after an import).
		SuppressionListID: prior.SuppressionListID,
	}
}

// onDestroyOr is prior's known on_destroy, else the default (an import,
// or the list resource, has no prior value).
func onDestroyOr(prior types.String) types.String {
	if prior.IsNull() || prior.IsUnknown() {
		return types.StringValue(onDestroyForget)
	}
	return prior
}

// shownStatus is a status as the service shows it: null when not shown.
func shownStatus(shown string) types.String {
	if shown == "" {
		return types.StringNull()
	}
	return types.StringValue(shown)
}

// statusOrPrior is the status a contact answer shows, else prior's known
// value, else null.
func statusOrPrior(shown string, prior types.String) types.String {
	switch {
	case shown != "":
		return types.StringValue(shown)
	case prior.IsUnknown():
		return types.StringNull()
	default:
		return prior
	}
}
