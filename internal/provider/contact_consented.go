package provider

import (
	"context"
	"encoding/json"

	"github.com/hashicorp/terraform-plugin-framework/diag"

	"github.com/rms-labs/terraform-provider-rms/internal/contactsync"
)

// rms_contact remembers, channel by channel, what an allowed
// re-subscription subscribed although the suppression list holds the
// contact (allow_resubscribe = true with a configured SUBSCRIBED): the
// recipient agreed, so no later plan warns about it or unsubscribes it as
// suppressed, whether or not allow_resubscribe stays set, until the
// service shows that channel UNSUBSCRIBED again (a new opt-out). It is the
// rule rms_list_contacts keeps in its consent record
// (contactsync.Record.Consented). The suppression list's entry itself is
// never lifted. Which channels are consented, and which are forgotten, is
// contactsync.PlanContact's decision (ContactInput.Consented in,
// ContactDecision.Consented out). It is kept in private state, beside the
// applied statuses (contact_consent.go), for the same reason: state must
// equal the plan.

// consentedKey is the private-state key of a consentedChannels.
const consentedKey = "consented"

// consentedChannels are the channels an allowed re-subscription
// subscribed over the suppression list.
type consentedChannels struct {
	Email  bool `json:"email,omitempty"`
	Mobile bool `json:"mobile,omitempty"`
}

func (c consentedChannels) channels() contactsync.Channels {
	return contactsync.Channels{Email: c.Email, Mobile: c.Mobile}
}

func consentedOf(ch contactsync.Channels) consentedChannels {
	return consentedChannels{Email: ch.Email, Mobile: ch.Mobile}
}

// readConsented is the consentedChannels kept in private state: none for
// state written before they were kept, or a value that cannot be read (the
// suppression list then holds every channel it names, the safe default).
func readConsented(ctx context.Context, p privateGetter) consentedChannels {
	var c consentedChannels
	if p == nil {
		return c
	}
	raw, diags := p.GetKey(ctx, consentedKey)
	if diags.HasError() || len(raw) == 0 || json.Unmarshal(raw, &c) != nil {
		return consentedChannels{}
	}
	return c
}

// writeConsented keeps c in private state.
func writeConsented(ctx context.Context, p privateSetter, c consentedChannels, diags *diag.Diagnostics) {
	if p == nil {
		return
	}
	raw, err := json.Marshal(c)
	if err != nil {
		diags.AddError("Unable to record the allowed re-subscription", err.Error())
		return
	}
	diags.Append(p.SetKey(ctx, consentedKey, raw)...)
}
