package operation

import (
	"context"
	"errors"
	"fmt"

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
func SendTransactionalMessage(ctx context.Context, c *client.Client, triggerID string, msg client.TransactionalMessage) (*client.SentMessage, diag.Diagnostics) {
	var diags diag.Diagnostics
	sent, err := c.SendTransactionalMessage(ctx, triggerID, msg)
	switch {
	case errors.Is(err, client.ErrNotFound):
		diags.AddAttributeError(path.Root("trigger_id"), "Trigger not found",
			fmt.Sprintf("The service has no trigger with id %s, so nothing was sent. Create the trigger first (e.g. an rms_resource with collection = \"triggers\") and pass its id.\n\n%s", triggerID, err))
		return nil, diags
	case err != nil:
		apidiag.Add(&diags, "Unable to send the transactional message", err, messageFields)
		return nil, diags
	}
	tflog.Info(ctx, "sent transactional message", map[string]any{"trigger_id": triggerID, "message_id": sent.ID.String(), "channel": sent.Channel})
	return sent, diags
}
