package provider

import (
	"context"
	"encoding/json"
	"fmt"

	"github.com/hashicorp/terraform-plugin-framework/diag"
	"github.com/hashicorp/terraform-plugin-framework/path"
	"github.com/hashicorp/terraform-plugin-framework/types"

	"github.com/rms-labs/terraform-provider-rms/internal/client"
	"github.com/rms-labs/terraform-provider-rms/internal/contactsync"
)

// rms_contact follows the consent rule through its one decision per
// contact (contactsync.PlanContact, which also weighs the suppression
// list: contact_suppression.go). Telling a recipient's
// own opt-out apart from a change the configuration asks for needs what
// Terraform last applied, which state cannot hold: state must equal the
// plan, and the plan the configuration. So it is kept in private state,
// which Terraform stores with the resource and never shows or diffs.

// appliedStatusKey is the private-state key of an appliedStatus.
const appliedStatusKey = "applied_status"

// appliedStatus is the desired statuses Terraform last applied to a contact,
// written by Create and Update; "" for a channel the configuration left to
// the service.
type appliedStatus struct {
	Email  string `json:"email"`
	Mobile string `json:"mobile"`
	// Unknown: the contact was imported, and what was applied to it before
	// is not known. Read must not learn it from what the service shows: an
	// imported UNSUBSCRIBED would then count as applied by Terraform, and a
	// configuration saying SUBSCRIBED would re-subscribe the recipient.
	Unknown bool `json:"unknown,omitempty"`
}

// knownApplied is the applied status of each channel as
// contactsync.PlanContact takes it: "" when not known.
func (a appliedStatus) knownApplied(recorded bool) (email, mobile string) {
	if !recorded || a.Unknown {
		return "", ""
	}
	return a.Email, a.Mobile
}

// readApplied is the appliedStatus kept in private state; recorded is false
// for state written before it was kept (and for a value that cannot be
// read: the safe default, since an unknown applied status honours opt-outs).
func readApplied(ctx context.Context, p privateGetter) (a appliedStatus, recorded bool) {
	if p == nil {
		return a, false
	}
	raw, diags := p.GetKey(ctx, appliedStatusKey)
	if diags.HasError() || len(raw) == 0 || json.Unmarshal(raw, &a) != nil {
		return appliedStatus{}, false
	}
	return a, true
}

// writeApplied keeps a in private state.
func writeApplied(ctx context.Context, p privateSetter, a appliedStatus, diags *diag.Diagnostics) {
	if p == nil {
		return
	}
	raw, err := json.Marshal(a)
	if err != nil {
		diags.AddError("Unable to record the applied subscription status", err.Error())
		return
	}
	diags.Append(p.SetKey(ctx, appliedStatusKey, raw)...)
}

// contactInput is what PlanContact weighs for a contact Terraform holds:
// the statuses config sets, what was applied, what the service shows and
// allow_resubscribe. The suppression list and the consented channels are
// added by the callers that know them.
func contactInput(config contactModel, allow bool, applied appliedStatus, recorded bool, shown client.SubscriptionStatus) contactsync.ContactInput {
	appliedEmail, appliedMobile := applied.knownApplied(recorded)
	return contactsync.ContactInput{
		Desired: [2]string{knownString(config.EmailStatus), knownString(config.MobileStatus)},
		Applied: [2]string{appliedEmail, appliedMobile},
		Shown:   [2]string{shown.Status, shown.MobileStatus},
		Allow:   allow,
	}
}

// shownOf is what the service holds as m records it
// (service_email_status, service_mobile_status).
func shownOf(m contactModel) client.SubscriptionStatus {
	return client.SubscriptionStatus{Status: knownString(m.ServiceEmailStatus), MobileStatus: knownString(m.ServiceMobileStatus)}
}

// configuredStatus is the statuses a configuration (or plan of a create)
// sets, "" where it leaves them to the service.
func configuredStatus(m contactModel) appliedStatus {
	return appliedStatus{Email: knownString(m.EmailStatus), Mobile: knownString(m.MobileStatus)}
}

// honourOptOuts turns the model a read made (statuses as the service shows
// them) into the state Read saves. A status Terraform manages keeps its
// desired value (prior's) where the recipient opted out (PlanContact's
// OptedOut): the plan then shows no change, the plan warns (ModifyPlan)
// and nothing is sent. Any other difference from the desired status (a
// subscription made elsewhere, a state of the service's own, or an opt-out
// re-subscription is allowed for) shows what the service holds, so the
// plan sets the desired status again. A status the configuration left to
// the service follows the service.
//
// State written before private state was kept has no applied value: its
// statuses count as desired and an opt-out is honoured; once the service
// shows every desired status, they are recorded as applied (returned in
// learned), so that a later change of the configuration from UNSUBSCRIBED
// to SUBSCRIBED re-subscribes. settled is consented less the channels the
// service shows unsubscribed again (contact_consented.go).
func honourOptOuts(read *contactModel, prior contactModel, applied appliedStatus, recorded bool, consented consentedChannels) (learned *appliedStatus, settled consentedChannels) {
	// managed: Terraform sets this channel, or might (not known).
	managed := func(a string, desired types.String) types.String {
		if !recorded || applied.Unknown || a != "" {
			return desired
		}
		return types.StringNull()
	}
	desired := contactModel{EmailStatus: managed(applied.Email, prior.EmailStatus), MobileStatus: managed(applied.Mobile, prior.MobileStatus)}
	in := contactInput(desired, prior.AllowResubscribe.ValueBool(), applied, recorded, shownOf(*read))
	in.Consented = consented.channels()
	d := contactsync.PlanContact(in)
	steadyEmail := readChannel(&read.EmailStatus, desired.EmailStatus, in.Shown[0], d.Channels[0])
	steadyMobile := readChannel(&read.MobileStatus, desired.MobileStatus, in.Shown[1], d.Channels[1])
	settled = consentedOf(d.Consented())
	if recorded || !steadyEmail || !steadyMobile {
		return nil, settled
	}
	return &appliedStatus{Email: knownString(prior.EmailStatus), Mobile: knownString(prior.MobileStatus)}, settled
}

// readChannel applies honourOptOuts to one channel: state is the value read
// (changed to the desired one for an opt-out); it reports whether the
// service shows the desired value (or shows no statuses at all).
func readChannel(state *types.String, desiredValue types.String, shown string, d contactsync.ChannelPlan) (steady bool) {
	desired := knownString(desiredValue)
	if desired == "" {
		return shown == ""
	}
	if d.OptedOut {
		*state = desiredValue
		return false
	}
	return shown == "" || shown == desired
}

// keepDesired sets the configured statuses in m, the state an apply saves:
// Terraform requires it to equal the plan, and the plan holds the
// configured (desired) value even where an opt-out was honoured and the
// service shows otherwise (service_email_status, service_mobile_status).
func keepDesired(m *contactModel, config contactModel) {
	if d := knownString(config.EmailStatus); d != "" {
		m.EmailStatus = types.StringValue(d)
	}
	if d := knownString(config.MobileStatus); d != "" {
		m.MobileStatus = types.StringValue(d)
	}
}

// optOutWarnings are the plan's warnings for the opt-outs it honours
// (contactsync.NoticeOptedOut in d, PlanContact's decision for the plan):
// one per contact and channel, naming the contact and the two ways out.
// config is the configuration, state the refreshed state.
func optOutWarnings(config, state contactModel, d contactsync.ContactDecision) diag.Diagnostics {
	var diags diag.Diagnostics
	channels := []struct {
		attribute, what, desired, service string
	}{
		{"email_status", "e-mail", knownString(config.EmailStatus), knownString(state.ServiceEmailStatus)},
		{"mobile_status", "mobile (SMS)", knownString(config.MobileStatus), knownString(state.ServiceMobileStatus)},
	}
	for i, ch := range channels {
		if d.Channels[i].Notice != contactsync.NoticeOptedOut {
			continue
		}
		diags.AddAttributeWarning(path.Root(ch.attribute), "Contact opted out: not re-subscribed",
			fmt.Sprintf("Contact %q of list %s opted out of %s outside Terraform: the service shows it %s, the configuration says %s = %q. "+
				"Terraform honours the recipient's opt-out and does not re-subscribe the contact: this apply sends nothing for it.\n\n"+
				"To keep the opt-out, set %s = %q in the configuration (or remove %s, to leave the status to the service). "+
				"To re-subscribe the contact anyway (only with its consent), set allow_resubscribe = true.",
				state.OriginalID.ValueString(), state.ListID.ValueString(), ch.what, ch.service, ch.attribute, ch.desired,
				ch.attribute, client.StatusUnsubscribed, ch.attribute))
	}
	return diags
}
