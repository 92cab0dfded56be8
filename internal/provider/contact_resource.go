package provider

import (
	"context"
	"errors"
	"fmt"

	"github.com/hashicorp/terraform-plugin-framework-validators/stringvalidator"
	"github.com/hashicorp/terraform-plugin-framework/diag"
	"github.com/hashicorp/terraform-plugin-framework/path"
	"github.com/hashicorp/terraform-plugin-framework/resource"
	"github.com/hashicorp/terraform-plugin-framework/resource/schema"
	"github.com/hashicorp/terraform-plugin-framework/resource/schema/booldefault"
	"github.com/hashicorp/terraform-plugin-framework/resource/schema/planmodifier"
	"github.com/hashicorp/terraform-plugin-framework/resource/schema/stringplanmodifier"
	"github.com/hashicorp/terraform-plugin-framework/schema/validator"
	"github.com/hashicorp/terraform-plugin-framework/types"
	"github.com/hashicorp/terraform-plugin-log/tflog"

	"github.com/rms-labs/terraform-provider-rms/internal/client"
	"github.com/rms-labs/terraform-provider-rms/internal/contactsync"
)

var (
	_ resource.Resource                 = &contactResource{}
	_ resource.ResourceWithConfigure    = &contactResource{}
	_ resource.ResourceWithImportState  = &contactResource{}
	_ resource.ResourceWithIdentity     = &contactResource{}
	_ resource.ResourceWithModifyPlan   = &contactResource{}
	_ resource.ResourceWithUpgradeState = &contactResource{}
)

// NewContactResource returns the rms_contact resource.
func NewContactResource() resource.Resource { return &contactResource{} }

type contactResource struct {
	data *providerData
}

func (r *contactResource) Metadata(_ context.Context, req resource.MetadataRequest, resp *resource.MetadataResponse) {
	resp.TypeName = req.ProviderTypeName + "_contact"
}

func (r *contactResource) Schema(_ context.Context, _ resource.SchemaRequest, resp *resource.SchemaResponse) {
	statusDescription := func(what, service string) string {
		return "The desired subscription status for " + what + ": `SUBSCRIBED` or `UNSUBSCRIBED`; leave it out to leave it to the service (it is then only read). " +
			"Unsubscribing always works, and a change made elsewhere is planned back, except an opt-out: **an opt-out made outside Terraform is never undone**. The configured `SUBSCRIBED` stays (no diff), `" + service + "` shows `UNSUBSCRIBED`, the plan warns and names the contact, and the apply sends nothing, unless `allow_resubscribe = true`. " +
			"See Subscription status and opt-outs on this page."
	}
	resp.Schema = schema.Schema{
		Version: onDestroySchemaVersion,
		Description: "A contact (recipient) of a list, identified in it by `original_id`, with its properties and its e-mail and mobile subscription status. " +
			"The service has no call that deletes one contact: **destroy forgets the contact by default** (`on_destroy = \"forget\"`), and it stays in the list. See Destroy on this page.",
		Attributes: map[string]schema.Attribute{
			"id": schema.StringAttribute{
				Computed:      true,
				Description:   "`<list_id>/<original_id>`, the import id.",
				PlanModifiers: []planmodifier.String{stringplanmodifier.UseStateForUnknown()},
			},
			"list_id": schema.StringAttribute{
				Required:      true,
				Description:   "Id of the list the contact belongs to. Changing it creates the contact in the other list (and destroys this one, see above).",
				Validators:    []validator.String{listIDValidator},
				PlanModifiers: []planmodifier.String{stringplanmodifier.RequiresReplace()},
			},
			"original_id": schema.StringAttribute{
				Required:      true,
				Description:   "Identifies the contact inside the list (unique there). Changing it replaces the contact. `.` and `..` cannot be carried in a URL path: such a contact is created, read from the list's listing, and changed only by import rows (property values, an e-mail unsubscription); anything else is refused at plan.",
				Validators:    []validator.String{stringvalidator.LengthAtLeast(1)},
				PlanModifiers: []planmodifier.String{stringplanmodifier.RequiresReplace()},
			},
			"properties": schema.MapAttribute{
				ElementType: types.StringType,
				Optional:    true,
				Description: "Attribute values of the contact, keyed by a contact attribute's name (`email`, `firstname`, ...) or its id as a string (`\"3\"`); the key you write is kept in state, so either form causes no diff. A key that names no attribute of the account is a warning at plan, and refused before the apply's first write if still absent then (see Attributes made in the same apply on this page). Only the keys written here are managed: values the contact has under other attributes are neither shown nor changed. Removing a key removes that value from the contact. After an import, every value the contact holds is in state, so keys the configuration does not list are planned for removal.",
			},
			"email_status": schema.StringAttribute{
				Optional:      true,
				Computed:      true,
				Description:   statusDescription("e-mail", "service_email_status"),
				Validators:    []validator.String{stringvalidator.OneOf(subscriptionStates...)},
				PlanModifiers: []planmodifier.String{stringplanmodifier.UseStateForUnknown()},
			},
			"mobile_status": schema.StringAttribute{
				Optional:      true,
				Computed:      true,
				Description:   statusDescription("mobile (SMS)", "service_mobile_status"),
				Validators:    []validator.String{stringvalidator.OneOf(subscriptionStates...)},
				PlanModifiers: []planmodifier.String{stringplanmodifier.UseStateForUnknown()},
			},
			"date_created":  dateCreatedAttribute("contact"),
			"date_modified": dateModifiedAttribute("contact"),
			"allow_resubscribe": schema.BoolAttribute{
				Optional: true,
				Computed: true,
				Default:  booldefault.StaticBool(false),
				Description: "Allow an apply to re-subscribe a contact that opted out outside Terraform (default `false`). By default a configured `SUBSCRIBED` is not sent to a contact the service shows `UNSUBSCRIBED` unless the configuration itself changed it from `UNSUBSCRIBED`: the recipient's opt-out is honoured and the plan warns. " +
					"Set it to `true` only where you have the recipient's consent (a new opt-in collected elsewhere, say): the next plan then sets `SUBSCRIBED` again. Where the service does not show statuses, opt-outs cannot be seen and this has no effect.",
			},
			attrOnDestroy: onDestroyAttribute("What destroying this resource, or removing its block, does to the contact: `\"forget\"` (default) writes nothing to the service, and the contact stays in the list with the statuses it has; " +
				"`\"unsubscribe\"` unsubscribes it on the channels the configuration sets a status for (`email_status`, `mobile_status`). " +
				"A destroy reads the value from the state: a changed value takes effect after an apply. A replacement unsubscribes nobody whatever this says. See Destroy on this page."),
			"service_email_status":  serviceStatusAttribute("e-mail", "email_status"),
			"service_mobile_status": serviceStatusAttribute("mobile (SMS)", "mobile_status"),
		},
	}
	resp.Schema.Attributes[attrSuppressionListID] = suppressionResourceAttribute("A contact the suppression list holds is created, or kept, unsubscribed on its suppressed channels; its own opt-out that the suppression list lacks is copied there by an update the plan names.")
}

// UpgradeState adds on_destroy = "forget" to state written before it
// existed (on_destroy.go says why an upgrade).
func (r *contactResource) UpgradeState(context.Context) map[int64]resource.StateUpgrader {
	return onDestroyUpgraders()
}

// serviceStatusAttribute is the read-only status of one channel as the
// service shows it, apart from the desired one.
func serviceStatusAttribute(what, desired string) schema.StringAttribute {
	return schema.StringAttribute{
		Computed: true,
		Description: "The " + what + " subscription status as the service shows it (`SUBSCRIBED`, `UNSUBSCRIBED`, or a state of the service's own such as `PENDING`). It differs from `" + desired + "` where a recipient's opt-out made outside Terraform is honoured. " +
			"Null when the service's contact answers do not show statuses: opt-outs cannot be seen then.",
	}
}

// IdentitySchema: a contact is identified by its list and its original id
// (Terraform 1.12+), the two halves of its string import id.
func (r *contactResource) IdentitySchema(_ context.Context, _ resource.IdentitySchemaRequest, resp *resource.IdentitySchemaResponse) {
	resp.IdentitySchema = contactIdentitySchema()
}

func (r *contactResource) Configure(_ context.Context, req resource.ConfigureRequest, resp *resource.ConfigureResponse) {
	r.data = configuredData(req.ProviderData, &resp.Diagnostics)
}

// statusOf is the subscription states a contact answer holds.
func statusOf(c *client.Contact) client.SubscriptionStatus {
	return client.SubscriptionStatus{Status: c.Status, MobileStatus: c.MobileStatus}
}

// applyStatus sends the states of send (empty: keep) with one
// subscription-status call, unless it has none, and saves the result, with
// the configured statuses of config (see keepDesired). It reports whether it
// called the service.
func (r *contactResource) applyStatus(ctx context.Context, listID, originalID string, send client.SubscriptionStatus, plan, config contactModel, state stateSetter, diags *diag.Diagnostics) bool {
	if send.Status == "" && send.MobileStatus == "" {
		return false
	}
	updated, err := r.data.client.Contacts.SetSubscriptionStatus(ctx, listID, originalID, send)
	if err == nil && updated == nil {
		updated, err = r.data.client.Contacts.Lookup(ctx, listID, originalID)
	}
	if err != nil {
		addContactError(diags, "Unable to set the subscription status", listID, err)
		return true
	}
	m, d := toContactModel(ctx, r.data, updated, plan)
	keepDesired(&m, config)
	diags.Append(d...)
	diags.Append(state.Set(ctx, m)...)
	return true
}

// stateSetter is the part of tfsdk.State that applyStatus needs.
type stateSetter interface {
	Set(context.Context, any) diag.Diagnostics
}

// Read converts state without the framework's reflection (contact_values.go):
// it runs for every contact on every plan.
func (r *contactResource) Read(ctx context.Context, req resource.ReadRequest, resp *resource.ReadResponse) {
	state, err := contactModelOf(ctx, req.State.Raw)
	if err != nil {
		resp.Diagnostics.Append(req.State.Get(ctx, &state)...)
	}
	if resp.Diagnostics.HasError() || !requireClient(r.data, &resp.Diagnostics) {
		return
	}
	c, err := r.data.contacts.Listings.Read(ctx, state.ListID.ValueString(), state.OriginalID.ValueString())
	if errors.Is(err, client.ErrNotFound) {
		tflog.Info(ctx, "contact is gone; removing it from state", map[string]any{"id": state.ID.ValueString()})
		removeGone(ctx, resp, contactIdentity(state))
		return
	}
	if err != nil {
		addAPIError(&resp.Diagnostics, "Unable to read contact", err, nil)
		return
	}
	m, diags := toContactModel(ctx, r.data, c, state)
	resp.Diagnostics.Append(diags...)
	applied, recorded := readApplied(ctx, req.Private)
	consented := readConsented(ctx, req.Private)
	learned, settled := honourOptOuts(&m, state, applied, recorded, consented)
	if learned != nil {
		writeApplied(ctx, resp.Private, *learned, &resp.Diagnostics)
	}
	// A channel an allowed re-subscription kept subscribed is forgotten
	// once the service shows it unsubscribed again (contact_consented.go).
	if settled != consented {
		writeConsented(ctx, resp.Private, settled, &resp.Diagnostics)
	}
	if v, err := m.terraformValue(ctx, contactObjectType); err == nil {
		resp.State.Raw = v
	} else {
		resp.Diagnostics.Append(resp.State.Set(ctx, m)...)
	}
	if resp.Identity == nil {
		return
	}
	if v, err := contactIdentity(m).terraformValue(ctx); err == nil {
		resp.Identity.Raw = v
	} else {
		setIdentity(ctx, resp.Identity, contactIdentity(m), &resp.Diagnostics)
	}
}

func (r *contactResource) Update(ctx context.Context, req resource.UpdateRequest, resp *resource.UpdateResponse) {
	var plan, state, config contactModel
	resp.Diagnostics.Append(req.Plan.Get(ctx, &plan)...)
	resp.Diagnostics.Append(req.State.Get(ctx, &state)...)
	resp.Diagnostics.Append(req.Config.Get(ctx, &config)...)
	if resp.Diagnostics.HasError() || !requireClient(r.data, &resp.Diagnostics) ||
		!r.confirmPropertyKeys(ctx, plan, state.Properties, &resp.Diagnostics) {
		return
	}
	// The identity never changes in place (list_id and original_id force a
	// replacement); it is set for state written before identities existed.
	setIdentity(ctx, resp.Identity, contactIdentity(state), &resp.Diagnostics)
	listID, originalID := state.ListID.ValueString(), state.OriginalID.ValueString()
	r.data.contacts.Listings.Wrote(listID, originalID)
	// The configured states only (the plan carries an unconfigured state
	// over from state, and that one is read, never written), as the
	// consent rule allows: applied is what Terraform applied before, and
	// what this apply applies is recorded whatever it sends.
	applied, recorded := readApplied(ctx, req.Private)
	// What the service holds as the refresh of this plan read it (not the
	// statuses in state: those are the desired ones); a properties update
	// below answers with fresher ones.
	current := shownOf(state)
	in := contactInput(config, plan.AllowResubscribe.ValueBool(), applied, recorded, current)
	// The contact's own opt-outs go into the suppression list first; a
	// channel it holds is never subscribed (contact_suppression.go).
	sup, ok := r.applyContactSuppression(ctx, plan, in, &resp.Diagnostics)
	if !ok {
		return
	}
	writeApplied(ctx, resp.Private, configuredStatus(config), &resp.Diagnostics)
	consentOnly := in
	// The suppression list holds no channel an allowed re-subscription kept
	// subscribed; this apply's allowance adds the ones it lets through
	// (contact_consented.go). PlanContact decides both.
	if sup != nil {
		in.SuppressionList, in.Suppressed = true, sup.held
		in.Consented = readConsented(ctx, req.Private).channels()
		consented := contactsync.PlanContact(in).Consented()
		writeConsented(ctx, resp.Private, consentedOf(consented), &resp.Diagnostics)
		in.Consented = consented
	}
	if !client.PathSafeID(originalID) {
		// No call addresses this contact by its id (contact_path_unsafe.go),
		// and none could write every status the suppression list decides
		// (a mobile one): it is written as the consent rule alone says.
		updatePathUnsafe(ctx, r.data, plan, state, config, contactsync.PlanContact(consentOnly).Status(), &resp.State, &resp.Diagnostics)
		return
	}
	called := false
	if !plan.Properties.Equal(state.Properties) {
		patch, diags := propertiesPatch(ctx, r.data, plan.Properties, state.Properties)
		resp.Diagnostics.Append(diags...)
		if resp.Diagnostics.HasError() {
			return
		}
		c, err := r.data.client.Contacts.UpdateProperties(ctx, listID, originalID, patch)
		if err != nil {
			addContactError(&resp.Diagnostics, "Unable to update contact properties", listID, err)
			return
		}
		m, diags := toContactModel(ctx, r.data, c, plan)
		keepDesired(&m, config)
		resp.Diagnostics.Append(diags...)
		resp.Diagnostics.Append(resp.State.Set(ctx, m)...)
		if resp.Diagnostics.HasError() {
			return
		}
		current, called = statusOf(c), true
		in.Shown = [2]string{current.Status, current.MobileStatus}
	}
	// Every write answers with the contact, so no read follows one.
	send := contactsync.PlanContact(in).Status()
	if r.applyStatus(ctx, listID, originalID, send, plan, config, &resp.State, &resp.Diagnostics) || called {
		return
	}
	// Nothing to write (the plan differed from state in nothing this
	// resource manages): read the contact so that state holds what the
	// service does, date_modified included.
	c, err := r.data.client.Contacts.Lookup(ctx, listID, originalID)
	if err != nil {
		addContactError(&resp.Diagnostics, "Unable to read contact", listID, err)
		return
	}
	m, diags := toContactModel(ctx, r.data, c, plan)
	keepDesired(&m, config)
	resp.Diagnostics.Append(diags...)
	resp.Diagnostics.Append(resp.State.Set(ctx, m)...)
}

// ModifyPlan warns about each opt-out the plan honours (see
// honourOptOuts): the plan shows no change for it, so without the warning
// nobody would learn that the configuration and the recipient disagree.
// It runs for every contact on every plan, so it reads the values without
// the framework's reflection (contact_values.go).
func (r *contactResource) ModifyPlan(ctx context.Context, req resource.ModifyPlanRequest, resp *resource.ModifyPlanResponse) {
	if !registerContactManager(ctx, r.data, req, &resp.Diagnostics) {
		return // an exclusive rms_list_contacts owns the list (list_managers.go)
	}
	if !req.Plan.Raw.IsNull() {
		plan, err := contactModelOf(ctx, req.Plan.Raw)
		stateProps := types.MapNull(types.StringType)
		if state, errState := contactModelOf(ctx, req.State.Raw); errState == nil && !req.State.Raw.IsNull() {
			stateProps = state.Properties
		}
		if err == nil {
			if r.checkPropertyKeysAtPlan(ctx, plan, stateProps, &resp.Diagnostics); resp.Diagnostics.HasError() {
				return
			}
		}
	}
	if req.State.Raw.IsNull() && !req.Plan.Raw.IsNull() && resp.Private != nil {
		// A create. When it replaces this contact (destroy, then create:
		// a tainted contact, -replace, a changed list_id or original_id),
		// Terraform hands this planned private state to the destroy half,
		// which then unsubscribes nobody whatever on_destroy says; a plain
		// create never shows it to anyone (list_contacts_takeover.go
		// explains the mechanism rms_list_contacts uses the same way).
		resp.Diagnostics.Append(resp.Private.SetKey(ctx, privateTakeover, []byte(`{"replaces":true}`))...)
	}
	if req.State.Raw.IsNull() && !req.Plan.Raw.IsNull() {
		if plan, err := contactModelOf(ctx, req.Plan.Raw); err == nil {
			resp.Diagnostics.Append(r.suppressionCreateWarnings(ctx, plan)...)
		}
	}
	if req.State.Raw.IsNull() || req.Plan.Raw.IsNull() {
		return // a create (nothing opted out yet) or a destroy
	}
	config, errConfig := contactModelOf(ctx, req.Config.Raw)
	state, errState := contactModelOf(ctx, req.State.Raw)
	plan, errPlan := contactModelOf(ctx, req.Plan.Raw)
	if errConfig != nil || errState != nil || errPlan != nil {
		resp.Diagnostics.Append(req.Config.Get(ctx, &config)...)
		resp.Diagnostics.Append(req.State.Get(ctx, &state)...)
		resp.Diagnostics.Append(req.Plan.Get(ctx, &plan)...)
		if resp.Diagnostics.HasError() {
			return
		}
	}
	if !plan.ListID.Equal(state.ListID) || !plan.OriginalID.Equal(state.OriginalID) {
		return // another contact replaces this one
	}
	applied, recorded := readApplied(ctx, req.Private)
	in := contactInput(config, plan.AllowResubscribe.ValueBool(), applied, recorded, shownOf(state))
	in.Consented = readConsented(ctx, req.Private).channels()
	refusePathUnsafeUpdate(ctx, r.data, plan, state, contactsync.PlanContact(in).Status(), &resp.Diagnostics)
	// A status the configuration no longer sets follows the service; where
	// Read kept a desired value for it (an opt-out honoured while it was
	// configured), plan what the service shows: the update sends nothing
	// and records that the status is left to the service.
	for _, ch := range []struct {
		attribute       string
		config, planned types.String
		service         types.String
	}{
		{"email_status", config.EmailStatus, plan.EmailStatus, state.ServiceEmailStatus},
		{"mobile_status", config.MobileStatus, plan.MobileStatus, state.ServiceMobileStatus},
	} {
		if ch.config.IsNull() && knownString(ch.service) != "" && !ch.planned.IsUnknown() && !ch.planned.Equal(ch.service) {
			resp.Diagnostics.Append(resp.Plan.SetAttribute(ctx, path.Root(ch.attribute), ch.service)...)
		}
	}
	// The suppression list (contact_suppression.go) warns for its own
	// channels in place of the opt-out warnings: one decision
	// (PlanContact) gives each channel one reason.
	dec := r.planContactSuppression(ctx, config, state, in, resp)
	resp.Diagnostics.Append(optOutWarnings(config, state, dec)...)
}

// propertiesPatch is the PUT body that turns the contact's managed values
// from state into plan: every planned key with its value, and null for each
// attribute in state that the plan no longer names (compared by attribute,
// so rewriting "3" as "firstname" is not a removal).
func propertiesPatch(ctx context.Context, data *providerData, plan, state types.Map) (map[string]*string, diag.Diagnostics) {
	want, diags := stringMap(ctx, plan)
	old, d := stringMap(ctx, state)
	diags.Append(d...)
	if diags.HasError() {
		return nil, diags
	}
	patch := pointerMap(want)
	kept := map[string]bool{}
	for k := range want {
		name, ok, err := data.contacts.Attributes.NameOf(ctx, k)
		if err != nil {
			diags.AddError("Unable to read the account's contact attributes", describeAPIError(err))
			return nil, diags
		}
		if ok {
			kept[name] = true
		}
	}
	for k := range old {
		if _, planned := want[k]; planned {
			continue
		}
		name, ok, err := data.contacts.Attributes.NameOf(ctx, k)
		if err != nil {
			diags.AddError("Unable to read the account's contact attributes", describeAPIError(err))
			return nil, diags
		}
		if ok && !kept[name] {
			patch[k] = nil
		}
	}
	return patch, diags
}

// Delete forgets the contact (on_destroy = "forget", the default: nothing
// is written), or unsubscribes it on the channels the configuration set a
// status for (on_destroy = "unsubscribe"); the destroy half of a
// replacement writes nothing whatever on_destroy says. Either way it is noted as
// released in this run, with the statuses it had, so that the create half
// of a replacement takes it over with them instead of refusing a contact
// that exists.
func (r *contactResource) Delete(ctx context.Context, req resource.DeleteRequest, resp *resource.DeleteResponse) {
	state, ok := readModel[contactModel](ctx, req.State, r.data, &resp.Diagnostics)
	if !ok {
		return
	}
	listID, originalID := state.ListID.ValueString(), state.OriginalID.ValueString()
	// What the service showed before destroy (a status kept for an
	// honoured opt-out is the desired one, not the contact's).
	before := client.SubscriptionStatus{
		Status:       knownString(statusOrPrior(knownString(state.ServiceEmailStatus), state.EmailStatus)),
		MobileStatus: knownString(statusOrPrior(knownString(state.ServiceMobileStatus), state.MobileStatus)),
	}
	if raw, _ := req.Private.GetKey(ctx, privateTakeover); len(raw) > 0 {
		// The destroy half of a replacement (its private state is the
		// create plan's, not the replaced object's): the create half takes
		// the contact over with these statuses.
		tflog.Info(ctx, "replacement: the new object takes the contact over; nothing is written", map[string]any{"list_id": listID, "original_id": originalID})
		r.data.contacts.Released.Add(listID, originalID, before)
		return
	}
	if !unsubscribesOnDestroy(state.OnDestroy) {
		r.data.contacts.Released.Add(listID, originalID, before)
		resp.Diagnostics.AddWarning("Contact forgotten, not deleted",
			fmt.Sprintf("The service has no call that deletes a single contact. Contact %q of list %s is no longer managed by Terraform; nothing was written to the service (on_destroy = %q), so it remains in the list with the statuses it has. "+
				"It is deleted with its list; to manage it again, import it with id %q.", originalID, listID, onDestroyForget, contactImportID(listID, originalID)))
		return
	}
	send := destroyStatus(readApplied(ctx, req.Private))
	if send == (client.SubscriptionStatus{}) {
		r.data.contacts.Released.Add(listID, originalID, before)
		resp.Diagnostics.AddWarning("Contact forgotten, not deleted",
			fmt.Sprintf("Contact %q of list %s is no longer managed by Terraform. on_destroy = %q unsubscribes the channels the configuration sets a status for, and it set none, so nothing was written; the contact remains in the list with the statuses it has.",
				originalID, listID, onDestroyUnsubscribe))
		return
	}
	r.data.contacts.Listings.Wrote(listID, originalID)
	if !client.PathSafeID(originalID) {
		// No call addresses this contact by its id (contact_path_unsafe.go).
		if !destroyPathUnsafe(ctx, r.data, listID, originalID, send, &resp.Diagnostics) {
			return
		}
	} else {
		_, err := r.data.client.Contacts.SetSubscriptionStatus(ctx, listID, originalID, send)
		if errors.Is(err, client.ErrNotFound) {
			return // gone already (with its list, say): nothing to do
		}
		if err != nil {
			addAPIError(&resp.Diagnostics, "Unable to unsubscribe contact", err, nil)
			return
		}
	}
	r.data.contacts.Released.Add(listID, originalID, before)
	resp.Diagnostics.AddWarning("Contact unsubscribed, not deleted",
		fmt.Sprintf("The service has no call that deletes a single contact. Contact %q of list %s was unsubscribed from %s (on_destroy = %q) and is no longer managed by Terraform, but it remains in the list. "+
			"It is deleted with its list; to manage it again, import it with id %q.", originalID, listID, channelsOf(send), onDestroyUnsubscribe, contactImportID(listID, originalID)))
}

// destroyStatus is what a destroy with on_destroy = "unsubscribe" sends:
// UNSUBSCRIBED on each channel the configuration last applied sets a
// status for (the applied record in private state). A contact imported and
// never applied since has no such record: nothing is sent.
func destroyStatus(applied appliedStatus, recorded bool) client.SubscriptionStatus {
	var send client.SubscriptionStatus
	if !recorded || applied.Unknown {
		return send
	}
	if applied.Email != "" {
		send.Status = client.StatusUnsubscribed
	}
	if applied.Mobile != "" {
		send.MobileStatus = client.StatusUnsubscribed
	}
	return send
}

// channelsOf names the channels a status call sets: "e-mail and mobile".
func channelsOf(st client.SubscriptionStatus) string {
	switch {
	case st.Status != "" && st.MobileStatus != "":
		return "e-mail and mobile"
	case st.Status != "":
		return "e-mail"
	}
	return "mobile"
}

// ImportState takes "list_id/original_id" as the import string, or
// `identity = { list_id = "42", original_id = "customer-7" }` in an import
// block (Terraform 1.12+).
func (r *contactResource) ImportState(ctx context.Context, req resource.ImportStateRequest, resp *resource.ImportStateResponse) {
	listID, originalID, ok := contactImportTarget(ctx, req, &resp.Diagnostics)
	if !ok || !requireClient(r.data, &resp.Diagnostics) {
		return
	}
	c, err := r.data.client.Contacts.Lookup(ctx, listID, originalID)
	if errors.Is(err, client.ErrNotFound) {
		resp.Diagnostics.AddError("Cannot import non-existent remote object",
			fmt.Sprintf("List %s has no contact with original_id %q (or the list does not exist).", listID, originalID))
		return
	}
	if err != nil {
		addAPIError(&resp.Diagnostics, "Unable to read contact", err, nil)
		return
	}
	m, diags := importedContactModel(ctx, r.data.contacts.Attributes, listID, c)
	resp.Diagnostics.Append(diags...)
	resp.Diagnostics.Append(resp.State.Set(ctx, m)...)
	// What was applied to the contact before is not known: an opt-out it
	// shows, or makes later, is honoured (see appliedStatus.Unknown).
	writeApplied(ctx, resp.Private, appliedStatus{Unknown: true}, &resp.Diagnostics)
	setIdentity(ctx, resp.Identity, contactIdentity(m), &resp.Diagnostics)
}

// toContactModel copies what the server holds into the model; properties
// keep the keys of prior (the user's names or ids), see managedProperties.
func toContactModel(ctx context.Context, data *providerData, c *client.Contact, prior contactModel) (contactModel, diag.Diagnostics) {
	props, diags := managedProperties(ctx, data.contacts.Attributes, c.Properties, prior.Properties)
	listID := prior.ListID.ValueString()
	return contactFields(listID, c, props, prior), diags
}

// addContactError reports a failed contact call on the attribute it concerns:
// the service's field, or list_id when the list does not exist.
func addContactError(diags *diag.Diagnostics, summary, listID string, err error) {
	apiErr, isAPI := client.AsAPIError(err)
	if isAPI && errors.Is(err, client.ErrNotFound) {
		diags.AddAttributeError(path.Root("list_id"), summary,
			fmt.Sprintf("List %s does not exist (or no longer has this contact): %s\n\nCheck list_id; refer to an rms_list resource or data source so the list exists first.", listID, describeAPIError(err)))
		return
	}
	if isAPI && apiErr.Field != "" {
		if p, ok := contactFieldPath(apiErr.Field); ok {
			diags.AddAttributeError(p, summary, describeAPIError(err)+contactFieldHint(apiErr.Field))
			return
		}
	}
	diags.AddError(summary, describeAPIError(err))
}

func pointerMap(m map[string]string) map[string]*string {
	out := make(map[string]*string, len(m))
	for k, v := range m {
		out[k] = &v
	}
	return out
}
