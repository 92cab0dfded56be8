package provider

import (
	"context"
	"errors"
	"fmt"

	"github.com/hashicorp/terraform-plugin-framework-timetypes/timetypes"
	"github.com/hashicorp/terraform-plugin-framework/diag"
	"github.com/hashicorp/terraform-plugin-framework/path"
	"github.com/hashicorp/terraform-plugin-framework/resource"
	"github.com/hashicorp/terraform-plugin-framework/tfsdk"
	"github.com/hashicorp/terraform-plugin-framework/types"
	"github.com/hashicorp/terraform-plugin-log/tflog"

	"github.com/rms-labs/terraform-provider-rms/internal/client"
	"github.com/rms-labs/terraform-provider-rms/internal/contactsync"
)

// Create runs the steps of contactCreation in order: the property keys
// checked against the account's attributes as they are now (one made
// earlier in this apply counts), what to send (the suppression list may
// unsubscribe channels), the create call or the
// take-over of a contact this run released, then the state and the
// statuses the create body could not set.
func (r *contactResource) Create(ctx context.Context, req resource.CreateRequest, resp *resource.CreateResponse) {
	cr, ok := newContactCreation(ctx, r, req.Plan, &resp.Diagnostics)
	if !ok || !r.confirmPropertyKeys(ctx, cr.plan, types.MapNull(types.StringType), &resp.Diagnostics) || !cr.applySuppression(ctx) {
		return
	}
	c, ok := cr.createOrTakeOver(ctx, &resp.State)
	if !ok {
		return
	}
	tflog.Info(ctx, "created contact", map[string]any{"list_id": cr.listID, "original_id": cr.originalID})
	cr.save(ctx, c, resp)
}

// contactCreation is one Create of rms_contact: the plan, what it asks the
// service for, and where its diagnostics go. Its steps are methods so that
// Create reads as their order, and the resource keeps only the framework's
// methods and what its other operations share.
type contactCreation struct {
	r                  *contactResource
	plan               contactModel
	listID, originalID string
	props              map[string]string
	want               client.SubscriptionStatus
	sup                *contactSuppression // nil: the contact has no suppression list, or the list does not hold it
	diags              *diag.Diagnostics
}

// newContactCreation reads the plan and the properties it asks for.
func newContactCreation(ctx context.Context, r *contactResource, plan tfsdk.Plan, diags *diag.Diagnostics) (*contactCreation, bool) {
	m, ok := readModel[contactModel](ctx, plan, r.data, diags)
	if !ok {
		return nil, false
	}
	props, d := stringMap(ctx, m.Properties)
	diags.Append(d...)
	if diags.HasError() {
		return nil, false
	}
	return &contactCreation{
		r: r, plan: m, diags: diags,
		listID: m.ListID.ValueString(), originalID: m.OriginalID.ValueString(),
		props: props,
		want:  client.SubscriptionStatus{Status: knownString(m.EmailStatus), MobileStatus: knownString(m.MobileStatus)},
	}, true
}

// applySuppression unsubscribes the channels the suppression list holds
// the contact on: it is created unsubscribed on those, in the create call
// itself (contact_suppression.go; PlanContact decides). It reports whether
// Create goes on.
func (cr *contactCreation) applySuppression(ctx context.Context) bool {
	sup, err := cr.r.suppressionOf(ctx, cr.plan, cr.props, nil)
	if err != nil {
		cr.diags.AddAttributeError(path.Root(attrSuppressionListID), "Unable to check the contact against the suppression list",
			fmt.Sprintf("Contact %q of list %s: %s\n\nNothing was created; apply again.", cr.originalID, cr.listID, describeAPIError(err)))
		return false
	}
	cr.want = contactsync.PlanContact(createInput(cr.plan, sup)).Status()
	cr.sup = sup
	return true
}

// createOrTakeOver creates the contact, or takes over the one of the same
// original_id this run released; any other contact already there is an
// error. It answers the contact the service holds, and whether Create goes
// on.
func (cr *contactCreation) createOrTakeOver(ctx context.Context, state stateSetter) (*client.Contact, bool) {
	data := cr.r.data
	exists, err := data.contacts.Listings.Exists(ctx, cr.listID, cr.originalID)
	if err != nil {
		addContactError(cr.diags, "Unable to check whether the contact exists", cr.listID, err)
		return nil, false
	}
	data.contacts.Listings.Wrote(cr.listID, cr.originalID)

	// The configured states go in the create body, so a contact with
	// statuses takes one call; save sets them with a second call only
	// when the answer does not show the service took them.
	var c *client.Contact
	if exists {
		err = client.ErrConflict
	} else {
		c, err = data.client.Contacts.CreateOnce(ctx, cr.listID, client.ContactInput{
			OriginalID: cr.originalID, Properties: cr.props, Status: cr.want.Status, MobileStatus: cr.want.MobileStatus,
		})
	}
	switch {
	case errors.Is(err, client.ErrConflict):
		return cr.takeOver(ctx, err)
	case err != nil:
		if _, made := client.MadeID(err); made {
			// The service made the contact but its answer could not be
			// read: record it (tainted, as the error makes it) rather than
			// leave it behind unmanaged.
			saveUnreadContact(ctx, cr.plan, state, cr.diags)
		}
		addContactError(cr.diags, "Unable to create contact", cr.listID, err)
		return nil, false
	}
	return c, true
}

// takeOver answers a conflict on create: a contact this run destroyed a
// moment ago (a replacement) is taken over and given back its states
// unless they are configured; any other is refused, with how to import it.
func (cr *contactCreation) takeOver(ctx context.Context, conflict error) (*client.Contact, bool) {
	released, ok := cr.r.data.contacts.Released.Take(cr.listID, cr.originalID)
	if !ok {
		cr.refuseExisting(conflict)
		return nil, false
	}
	// A configured SUBSCRIBED the recipient had opted out of before is
	// not sent (what Terraform applied before is not known here: the
	// opt-out is honoured, and the next plan warns); a status the
	// configuration leaves to the service is given back (PlanContact).
	tflog.Info(ctx, "taking over a contact this run released", map[string]any{"list_id": cr.listID, "original_id": cr.originalID})
	in := createInput(cr.plan, cr.sup)
	in.Shown = [2]string{released.Status, released.MobileStatus}
	cr.want = contactsync.PlanContact(in).Status()
	if !client.PathSafeID(cr.originalID) {
		c := takeOverPathUnsafe(ctx, cr.r.data, cr.listID, cr.originalID, cr.props, cr.want, released, cr.diags)
		return c, c != nil
	}
	c, err := cr.r.data.client.Contacts.UpdateProperties(ctx, cr.listID, cr.originalID, pointerMap(cr.props))
	if err != nil {
		addContactError(cr.diags, "Unable to take over the existing contact", cr.listID, err)
		return nil, false
	}
	return c, true
}

// refuseExisting says how to manage a contact that was there before this
// run: Terraform does not create a contact twice.
func (cr *contactCreation) refuseExisting(conflict error) {
	said := ""
	if conflict != client.ErrConflict { //nolint:errorlint // the bare sentinel carries no message of the service; a wrapped one does
		said = "\n\nThe service said: " + conflict.Error()
	}
	id := contactImportID(cr.listID, cr.originalID)
	cr.diags.AddAttributeError(path.Root("original_id"), "Contact already exists",
		fmt.Sprintf("List %s already has a contact with original_id %q, and Terraform does not create a contact twice. "+
			"To manage that contact, import it: `terraform import <address of this resource> %s` "+
			"(e.g. `terraform import rms_contact.example %s`), or add an import block with id = %q. Otherwise choose another original_id.%s",
			cr.listID, cr.originalID, id, id, id, said))
}

// save records the contact the service holds, then sends the wanted
// states the answer does not show. The contact exists now: it is saved
// before the next call, so that a failure there leaves it in state with
// what the server holds. What the configuration asks for is what
// Terraform applies to it: the consent rule compares later opt-outs with
// that.
func (cr *contactCreation) save(ctx context.Context, c *client.Contact, resp *resource.CreateResponse) {
	writeApplied(ctx, resp.Private, configuredStatus(cr.plan), &resp.Diagnostics)
	if cr.sup != nil {
		// The suppressed channels allow_resubscribe let through
		// (contact_consented.go).
		writeConsented(ctx, resp.Private, consentedOf(contactsync.PlanContact(createInput(cr.plan, cr.sup)).Consented()), &resp.Diagnostics)
	}
	state, diags := toContactModel(ctx, cr.r.data, c, cr.plan)
	resp.Diagnostics.Append(diags...)
	resp.Diagnostics.Append(resp.State.Set(ctx, state)...)
	setIdentity(ctx, resp.Identity, contactIdentity(state), &resp.Diagnostics)
	if resp.Diagnostics.HasError() {
		return
	}
	// A new contact has no opt-out of its own to honour (one this run
	// released is dealt with by takeOver): the wanted states are sent
	// unless it already has them. When one differs, every wanted state is
	// sent in one call.
	current, want := statusOf(c), cr.want
	if !client.PathSafeID(cr.originalID) {
		// The create body carried the statuses, and no later call can
		// set them (contact_path_unsafe.go): say where the service
		// shows others.
		warnPathUnsafeCreateStatus(cr.originalID, want, current, &resp.Diagnostics)
		keepDesired(&state, cr.plan)
		resp.Diagnostics.Append(resp.State.Set(ctx, state)...)
		return
	}
	if (want.Status == "" || want.Status == current.Status) && (want.MobileStatus == "" || want.MobileStatus == current.MobileStatus) {
		// State holds the configured statuses even where a taken-over
		// contact's opt-out kept the service from being asked for them.
		keepDesired(&state, cr.plan)
		resp.Diagnostics.Append(resp.State.Set(ctx, state)...)
		return
	}
	cr.r.applyStatus(ctx, cr.listID, cr.originalID, want, cr.plan, cr.plan, &resp.State, &resp.Diagnostics)
}

// saveUnreadContact saves a contact the service made whose answer could not
// be read: what the plan asked for, and null where only the service could
// say (its dates, a status the configuration leaves to it).
func saveUnreadContact(ctx context.Context, plan contactModel, state stateSetter, diags *diag.Diagnostics) {
	plan.ID = types.StringValue(contactImportID(plan.ListID.ValueString(), plan.OriginalID.ValueString()))
	plan.EmailStatus = statusOrPrior("", plan.EmailStatus)
	plan.MobileStatus = statusOrPrior("", plan.MobileStatus)
	plan.DateCreated, plan.DateModified = timetypes.NewRFC3339Null(), timetypes.NewRFC3339Null()
	plan.ServiceEmailStatus, plan.ServiceMobileStatus = types.StringNull(), types.StringNull()
	diags.Append(state.Set(ctx, plan)...)
}
