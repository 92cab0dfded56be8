package provider

import (
	"context"
	"fmt"

	"github.com/hashicorp/terraform-plugin-framework-timetypes/timetypes"
	"github.com/hashicorp/terraform-plugin-framework/diag"
	"github.com/hashicorp/terraform-plugin-framework/path"
	"github.com/hashicorp/terraform-plugin-framework/resource"
	"github.com/hashicorp/terraform-plugin-framework/types"
	"github.com/hashicorp/terraform-plugin-log/tflog"

	"github.com/rms-labs/terraform-provider-rms/internal/client"
	"github.com/rms-labs/terraform-provider-rms/internal/contactsync"
)

// rms_contact and the account's suppression list (contactsync.Suppression):
//
//   - Honoured: a contact the suppression list holds (by original_id, or by
//     the value of its email attribute) is never made or left SUBSCRIBED on
//     a suppressed channel. It is created UNSUBSCRIBED there (in the create
//     call itself); a configured SUBSCRIBED is kept as the desired value,
//     as for a recipient's own opt-out (contact_consent.go), and the plan
//     warns; an existing contact the service shows SUBSCRIBED there is
//     planned as an update that unsubscribes it. allow_resubscribe = true
//     lets a configured SUBSCRIBED through, and the channels it let through
//     are remembered (contact_consented.go): no later plan unsubscribes
//     them, with or without the argument, until a new opt-out.
//   - Recorded: an opt-out the consent rule keeps (a configured SUBSCRIBED
//     the recipient left; the applied record tells it from an UNSUBSCRIBED
//     Terraform made) that the suppression list does not hold yet makes
//     the plan an update that names it; the apply copies it into the
//     suppression list.
//
// What is sent, kept, warned about and recorded on each channel is
// contactsync.PlanContact's decision (ContactInput.Suppressed), the rule
// rms_list_contacts follows (contactsync.Compare): the suppression list
// first, then a kept opt-out, then the configuration. The plan marks
// service_email_status or service_mobile_status unknown for such a
// channel: Terraform calls Update only for a planned change.

// contactSuppression is what the suppression list says of one contact.
type contactSuppression struct {
	sup           *contactsync.Suppression
	email, mobile string               // the contact's e-mail and mobile values
	held          contactsync.Channels // the channels the suppression list holds
}

// suppressionOf looks up the contact of m in its suppression list: nil
// when it answers to none. props are the contact's properties (keyed by
// name or id); a contact whose e-mail they lack is looked up by full when
// full is given (the contact as the service holds it).
func (r *contactResource) suppressionOf(ctx context.Context, m contactModel, props map[string]string, full func() (*client.Contact, error)) (*contactSuppression, error) {
	sup, _ := r.data.suppressionFor(m.SuppressionListID, m.ListID.ValueString())
	if sup == nil {
		return nil, nil
	}
	email, mobile, err := r.data.contacts.RecipientOf(ctx, props)
	if err != nil {
		return nil, err
	}
	if email == "" && full != nil {
		c, err := full()
		if err != nil {
			return nil, err
		}
		e, mob, err := r.data.contacts.RecipientOf(ctx, c.Properties)
		if err != nil {
			return nil, err
		}
		if email == "" {
			email = e
		}
		if mobile == "" {
			mobile = mob
		}
	}
	held, err := sup.Suppressed(ctx, m.OriginalID.ValueString(), email)
	if err != nil {
		return nil, err
	}
	return &contactSuppression{sup: sup, email: email, mobile: mobile, held: held}, nil
}

// planContactSuppression is ModifyPlan's part for an existing contact: it
// plans the update that unsubscribes a suppressed channel or records an
// opt-out, and warns, naming the contact. in is the plan's input without
// the suppression list; it returns PlanContact's decision with it (without
// it where the contact answers to none, or it cannot be read), for the
// opt-out warnings.
func (r *contactResource) planContactSuppression(ctx context.Context, config, state contactModel, in contactsync.ContactInput, resp *resource.ModifyPlanResponse) contactsync.ContactDecision {
	unsuppressed := contactsync.PlanContact(in)
	if state.SuppressionListID.IsUnknown() && config.SuppressionListID.IsUnknown() {
		return unsuppressed
	}
	m := state
	m.SuppressionListID = config.SuppressionListID
	if sup, _ := r.data.suppressionFor(m.SuppressionListID, m.ListID.ValueString()); sup == nil {
		return unsuppressed // most contacts: nothing more to do on every plan
	}
	props, d := stringMap(ctx, state.Properties)
	if d.HasError() {
		return unsuppressed
	}
	listID, originalID := state.ListID.ValueString(), state.OriginalID.ValueString()
	s, err := r.suppressionOf(ctx, m, props, func() (*client.Contact, error) { return r.data.contacts.Listings.Read(ctx, listID, originalID) })
	if client.IsNotFound(err) {
		resp.Diagnostics.Append(suppressionListNotFound(config.SuppressionListID, r.data))
		return unsuppressed
	}
	if err != nil {
		resp.Diagnostics.AddAttributeWarning(path.Root(attrSuppressionListID), "Suppression list not checked",
			fmt.Sprintf("Contact %q of list %s could not be checked against the suppression list: %s. The apply checks it again before it writes.", originalID, listID, describeAPIError(err)))
		return unsuppressed
	}
	if s == nil {
		return unsuppressed
	}
	in.SuppressionList, in.Suppressed = true, s.held
	dec := contactsync.PlanContact(in)
	for i, ch := range []struct {
		attribute, service, what string
	}{
		{"email_status", "service_email_status", "e-mail"},
		{"mobile_status", "service_mobile_status", "mobile (SMS)"},
	} {
		c := dec.Channels[i]
		desired := in.Desired[i]
		switch {
		case c.Notice == contactsync.NoticeSuppressedUnsubscribed:
			// The status write changes the contact's date_modified too.
			resp.Diagnostics.Append(resp.Plan.SetAttribute(ctx, path.Root(ch.service), types.StringUnknown())...)
			resp.Diagnostics.Append(resp.Plan.SetAttribute(ctx, path.Root("date_modified"), timetypes.NewRFC3339Unknown())...)
			if desired == "" {
				resp.Diagnostics.Append(resp.Plan.SetAttribute(ctx, path.Root(ch.attribute), types.StringUnknown())...)
			}
			resp.Diagnostics.AddAttributeWarning(path.Root(attrSuppressionListID), "Suppressed contact: unsubscribed",
				fmt.Sprintf("Contact %q of list %s is subscribed to %s, but the suppression list %s holds it (by original id or e-mail address): 1 suppressed account-wide stays unsubscribed. This apply unsubscribes it on %s. "+
					"To keep it subscribed (only with the recipient's consent), set %s = %q and allow_resubscribe = true.",
					originalID, listID, ch.what, s.sup.ListID(), ch.what, ch.attribute, client.StatusSubscribed))
		case c.Notice == contactsync.NoticeSuppressedNotSubscribed:
			resp.Diagnostics.AddAttributeWarning(path.Root(ch.attribute), "Suppressed contact: not subscribed",
				fmt.Sprintf("Contact %q of list %s is unsubscribed from %s and the configuration says %s = %q, but the suppression list %s holds it (by original id or e-mail address): 1 suppressed account-wide stays unsubscribed, and this apply sends nothing for it. "+
					"To agree with it, set %s = %q; to subscribe it anyway (only with the recipient's consent), set allow_resubscribe = true.",
					originalID, listID, ch.what, ch.attribute, desired, s.sup.ListID(), ch.attribute, client.StatusUnsubscribed))
		case c.Record:
			resp.Diagnostics.Append(resp.Plan.SetAttribute(ctx, path.Root(ch.service), types.StringUnknown())...)
			resp.Diagnostics.AddAttributeWarning(path.Root(attrSuppressionListID), "Opt-out to record in the suppression list",
				fmt.Sprintf("Contact %q of list %s opted out of %s, and the suppression list %s does not hold that opt-out yet. This apply copies it there (a contact with the same original id and e-mail and mobile values, unsubscribed on %s), so that it is honoured in every list of the account; it changes nothing of this contact.",
					originalID, listID, ch.what, s.sup.ListID(), ch.what))
		}
	}
	return dec
}

// applyContactSuppression is Update's part: it records the contact's own
// opt-outs the suppression list lacks (PlanContact's ToRecord, against the
// contact as the service holds it now), and returns the channels it holds
// (nil when the contact answers to none). in is the update's input without
// the suppression list.
func (r *contactResource) applyContactSuppression(ctx context.Context, plan contactModel, in contactsync.ContactInput, diags *diag.Diagnostics) (*contactSuppression, bool) {
	listID, originalID := plan.ListID.ValueString(), plan.OriginalID.ValueString()
	var full *client.Contact
	s, err := r.suppressionOf(ctx, plan, nil, func() (*client.Contact, error) {
		c, err := r.data.client.Contacts.Get(ctx, listID, originalID)
		full = c
		return c, err
	})
	if err != nil {
		diags.AddAttributeError(path.Root(attrSuppressionListID), "Unable to check the contact against the suppression list",
			fmt.Sprintf("Contact %q of list %s: %s\n\nNothing was written; apply again.", originalID, listID, describeAPIError(err)))
		return nil, false
	}
	if s == nil || full == nil {
		return s, true
	}
	shown := statusOf(full)
	in.Shown = [2]string{shown.Status, shown.MobileStatus}
	in.SuppressionList, in.Suppressed = true, s.held
	own := contactsync.PlanContact(in).ToRecord()
	if !own.Any() {
		return s, true
	}
	if _, err := s.sup.Record(ctx, []contactsync.OptOut{{OriginalID: originalID, Email: s.email, Mobile: s.mobile, Channels: own}}); err != nil {
		diags.AddAttributeError(path.Root(attrSuppressionListID), "Unable to record the opt-out in the suppression list",
			fmt.Sprintf("Contact %q of list %s opted out of %s; copying that into the suppression list %s failed: %s\n\nApply again.", originalID, listID, own, s.sup.ListID(), describeAPIError(err)))
		return nil, false
	}
	tflog.Info(ctx, "recorded the contact's opt-out in the suppression list", map[string]any{"list_id": listID, "original_id": originalID, "channels": own.String()})
	s.held = s.held.Union(own)
	return s, true
}

// suppressionCreateWarnings are the plan's warnings for a new contact the
// suppression list holds: it is created unsubscribed on those channels.
func (r *contactResource) suppressionCreateWarnings(ctx context.Context, plan contactModel) diag.Diagnostics {
	var diags diag.Diagnostics
	if plan.ListID.IsUnknown() || plan.OriginalID.IsUnknown() || plan.SuppressionListID.IsUnknown() || plan.Properties.IsUnknown() || r.data == nil || r.data.contacts == nil {
		return diags
	}
	if sup, _ := r.data.suppressionFor(plan.SuppressionListID, plan.ListID.ValueString()); sup == nil {
		return diags
	}
	props, d := stringMap(ctx, plan.Properties)
	if d.HasError() {
		return diags
	}
	s, err := r.suppressionOf(ctx, plan, props, nil)
	if client.IsNotFound(err) {
		diags.Append(suppressionListNotFound(plan.SuppressionListID, r.data))
		return diags
	}
	if err != nil || s == nil || !s.held.Any() {
		return diags // another error: the create checks again
	}
	unsub := contactsync.PlanContact(createInput(plan, s)).Noticed(contactsync.NoticeCreatedUnsubscribed)
	if !unsub.Any() {
		return diags
	}
	diags.AddAttributeWarning(path.Root(attrSuppressionListID), "Suppressed contact: created unsubscribed",
		fmt.Sprintf("The suppression list %s holds contact %q (by original id or e-mail address): 1 suppressed account-wide stays unsubscribed. It is created in list %s unsubscribed on %s, whatever email_status and mobile_status say; a configured %q is kept as the desired value, as for a recipient's opt-out. "+
			"To subscribe it anyway (only with the recipient's consent), set allow_resubscribe = true.",
			s.sup.ListID(), plan.OriginalID.ValueString(), plan.ListID.ValueString(), unsub, client.StatusSubscribed))
	return diags
}

// suppressionListNotFound is the plan's error for a suppression list that
// does not exist: own is the resource's suppression_list_id (null: the
// provider block's).
func suppressionListNotFound(own types.String, data *providerData) diag.Diagnostic {
	id, where := own.ValueString(), "suppression_list_id"
	if own.IsNull() && data != nil {
		id, where = data.suppressionListID, "the provider block's suppression_list_id (or "+envSuppressionListID+")"
	}
	return diag.NewAttributeErrorDiagnostic(path.Root(attrSuppressionListID), "Unable to use the suppression list "+id,
		fmt.Sprintf("Not found: no list has id %q in this account, so %s names no suppression list to check contacts against, and nothing would be honoured or recorded. "+
			"Set it to the id of an existing list kept for opt-outs (e.g. rms_list.suppression.id), or remove it.", id, where))
}

// createInput is what PlanContact weighs for a contact to create from plan:
// s is its suppression (nil: none).
func createInput(plan contactModel, s *contactSuppression) contactsync.ContactInput {
	in := contactsync.ContactInput{
		Create:  true,
		Desired: [2]string{knownString(plan.EmailStatus), knownString(plan.MobileStatus)},
		Allow:   plan.AllowResubscribe.ValueBool(),
	}
	if s != nil {
		in.SuppressionList, in.Suppressed = true, s.held
	}
	return in
}
