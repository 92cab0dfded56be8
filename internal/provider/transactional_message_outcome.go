package provider

import (
	"context"
	"time"

	"github.com/hashicorp/terraform-plugin-framework/diag"

	"github.com/rms-labs/terraform-provider-rms/internal/client"
)

// A transactional message whose send got no answer may or may not have
// gone out, and the service cannot read a message back. The resource keeps
// such a message in the state as outcome "unknown" (a failed create would
// be tainted or dropped, and the next apply would send it again), warns on
// every plan, and sends it again only when the user replaces it.

// The values of rms_transactional_message.outcome.
const (
	outcomeSent    = "sent"
	outcomeUnknown = "unknown"
)

// unknownOutcomeNext says what the user does once they know.
const unknownOutcomeNext = "If the message was sent, nothing needs doing: once you have checked, the warning can be ignored (it stays while outcome is \"unknown\"). " +
	"If it was not sent, send it again with `terraform apply -replace=<this resource's address>` (or change an argument or `triggers`). " +
	"Never retry the apply hoping for a better answer: this resource will not send the message again by itself."

// privateUnknownSince is the private state key that keeps when a send
// with an unknown outcome was attempted, for the reports the user checks.
const privateUnknownSince = "unknown_outcome_since"

// noteUnknownSince records when the send was attempted.
func noteUnknownSince(ctx context.Context, p privateSetter, at time.Time) diag.Diagnostics {
	return p.SetKey(ctx, privateUnknownSince, []byte(`"`+at.UTC().Format(time.RFC3339)+`"`))
}

// unknownSince is when the send was attempted, as noted; the zero time
// when no note was kept.
func unknownSince(ctx context.Context, p privateGetter) time.Time {
	if p == nil {
		return time.Time{}
	}
	raw, _ := p.GetKey(ctx, privateUnknownSince)
	if len(raw) < 2 {
		return time.Time{}
	}
	t, err := time.Parse(time.RFC3339, string(raw[1:len(raw)-1]))
	if err != nil {
		return time.Time{}
	}
	return t
}

// recipient is the send's recipient as the client names it.
func (a transactionalMessageArgs) recipient() client.Recipient {
	if a.Recipient == nil {
		return client.Recipient{}
	}
	return client.Recipient{Email: a.Recipient.Email.ValueString(), Mobile: a.Recipient.Mobile.ValueString(), OriginalID: a.Recipient.OriginalID.ValueString()}
}
