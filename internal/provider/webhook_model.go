package provider

import (
	"context"

	"github.com/hashicorp/terraform-plugin-framework-timetypes/timetypes"
	"github.com/hashicorp/terraform-plugin-framework/attr"
	"github.com/hashicorp/terraform-plugin-framework/diag"
	"github.com/hashicorp/terraform-plugin-framework/types"
	"github.com/rms-labs/terraform-provider-rms/internal/client"
)

// webhookEvents are the event kinds of the service conventions guide.
var webhookEvents = []string{
	"contact.created", "contact.updated", "contact.deleted",
	"contact.subscribed", "contact.unsubscribed",
	"import.finished", "export.finished",
	"message.sent", "message.opened", "message.clicked", "message.bounced",
}

type webhookModel struct {
	ID              types.String      `tfsdk:"id"`
	URL             types.String      `tfsdk:"url"`
	Events          types.Set         `tfsdk:"events"`
	Active          types.Bool        `tfsdk:"active"`
	Description     types.String      `tfsdk:"description"`
	Secret          types.String      `tfsdk:"secret"`
	SecretWO        types.String      `tfsdk:"secret_wo"`
	SecretWOVersion types.Int64       `tfsdk:"secret_wo_version"`
	HasSecret       types.Bool        `tfsdk:"has_secret"`
	DateCreated     timetypes.RFC3339 `tfsdk:"date_created"`
	DateModified    timetypes.RFC3339 `tfsdk:"date_modified"`
}

// webhookToModel copies what the service holds into the model; the secret
// fields, which the service never returns, come from prior.
func webhookToModel(ctx context.Context, w *client.Webhook, prior webhookModel, diags *diag.Diagnostics) webhookModel {
	events, d := types.SetValueFrom(ctx, types.StringType, w.Events)
	diags.Append(d...)
	m := webhookModel{
		ID:              types.StringValue(w.ID.String()),
		URL:             types.StringValue(w.URL),
		Events:          events,
		Active:          types.BoolValue(w.Active),
		Description:     types.StringPointerValue(w.Description),
		Secret:          prior.Secret,
		SecretWO:        types.StringNull(),
		SecretWOVersion: prior.SecretWOVersion,
		HasSecret:       types.BoolValue(w.HasSecret),
		DateCreated:     rfc3339(w.DateCreated),
		DateModified:    rfc3339(w.DateModified),
	}
	if m.Events.IsNull() {
		m.Events = types.SetValueMust(types.StringType, []attr.Value{})
	}
	return m
}
