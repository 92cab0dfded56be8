package operation

import (
	"context"
	"errors"
	"fmt"
	"time"

	"github.com/hashicorp/terraform-plugin-framework/diag"
	"github.com/hashicorp/terraform-plugin-framework/path"
	"github.com/hashicorp/terraform-plugin-log/tflog"

	"github.com/rms-labs/terraform-provider-rms/internal/client"
	"github.com/rms-labs/terraform-provider-rms/internal/provider/apidiag"
)

// The transactional message send, run by the rms_transactional_message
// resource and the rms_send_transactional_message action. Both name the
// arguments alike, so the diagnostics below name attributes of either.

// messageFields maps the service's field names in a send body onto the
// attributes of the resource, for validation errors.
var messageFields = map[string]path.Path{
	"recipient":            path.Root("recipient"),
	"recipient.email":      path.Root("recipient").AtName("email"),
	"recipient.mobile":     path.Root("recipient").AtName("mobile"),
	"recipient.originalId": path.Root("recipient").AtName("original_id"),
	"properties":           path.Root("properties"),
	"orderRows":            path.Root("order_rows"),
}

// SendTransactionalMessage sends one message through a trigger and turns
// the service's refusals into diagnostics on the arguments. It is the one
// send operation: the resource and the rms_send_transactional_message
// action both call it.
//
// A send whose outcome is unknown (the connection dropped after the request
// went out, a gateway answered 5xx, the apply was interrupted during the
// call) is not a refusal: the service may have sent the message. It comes
// back as unknown, with no diagnostic, because the resource and the action
// must say different things (the resource keeps the message in state so
// that no retry sends it again; the action has no state and can only tell
// the user what to check). Nothing here sends it again: the service offers
// no way to read a sent message back.
func SendTransactionalMessage(ctx context.Context, c *client.Client, triggerID string, msg client.TransactionalMessage) (sent *client.SentMessage, diags diag.Diagnostics, unknown error) {
	sent, err := c.Triggers.Send(ctx, triggerID, msg)
	switch {
	case errors.Is(err, client.ErrNotFound):
		diags.AddAttributeError(path.Root("trigger_id"), "Trigger not found",
			fmt.Sprintf("The service has no trigger with id %s, so nothing was sent. Create the trigger first (e.g. an rms_resource with collection = \"triggers\") and pass its id.\n\n%s", triggerID, err))
		return nil, diags, nil
	case err != nil && (client.IsUncertain(err) || ctx.Err() != nil):
		tflog.Warn(ctx, "transactional message outcome unknown", map[string]any{"trigger_id": triggerID, "error": err.Error()})
		return nil, diags, err
	case err != nil:
		apidiag.Add(&diags, "Unable to send the transactional message", err, messageFields)
		return nil, diags, nil
	}
	tflog.Info(ctx, "sent transactional message", map[string]any{"trigger_id": triggerID, "message_id": sent.ID.String(), "channel": sent.Channel})
	return sent, diags, nil
}

// UnknownOutcomeCheck says how to find out whether a message whose send
// had an unknown outcome went out: the service cannot read a message back,
// but its reports and statistics exports list what it sent.
func UnknownOutcomeCheck(triggerID string, r client.Recipient, at time.Time) string {
	who := r.Email
	if who == "" {
		who = r.Mobile
	}
	if who == "" {
		who = r.OriginalID
	}
	when := "at the time of that apply"
	if !at.IsZero() {
		when = "at about " + at.UTC().Format(time.RFC3339)
	}
	return fmt.Sprintf("To find out whether %s received it, look for a message through trigger %s sent %s in the service's reports "+
		"(the Reports domain's report of the trigger), or run a statistics export of type SENT or MESSAGES over a period that covers it "+
		"(rms_statistics_export or the rms_run_statistics_export action; the service exports at most the last two weeks).",
		who, triggerID, when)
}
