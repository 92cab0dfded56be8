package provider

import (
	"context"
	"encoding/json"
	"fmt"

	"github.com/hashicorp/terraform-plugin-framework-validators/stringvalidator"
	"github.com/hashicorp/terraform-plugin-framework/resource"
	"github.com/hashicorp/terraform-plugin-framework/resource/schema"
	"github.com/hashicorp/terraform-plugin-framework/resource/schema/stringdefault"
	"github.com/hashicorp/terraform-plugin-framework/schema/validator"
	"github.com/hashicorp/terraform-plugin-framework/types"
	"github.com/hashicorp/terraform-plugin-go/tfprotov6"

	"github.com/rms-labs/terraform-provider-rms/internal/client"
	"github.com/rms-labs/terraform-provider-rms/internal/contactsync"
)

// on_destroy: what destroying (or removing the block of) a contact
// resource does on the service. The interface has no call that deletes a
// contact and an unsubscription cannot be undone without the recipient's
// consent, so the default forgets: destroy writes nothing. Unsubscribing
// is the user's explicit choice. A destroy plan has no configuration, so
// the value is read from the state: a changed value takes effect after an
// apply, and a removed block uses the value last applied.

const (
	attrOnDestroy        = "on_destroy"
	onDestroyForget      = "forget"
	onDestroyUnsubscribe = "unsubscribe"
)

// onDestroyAttribute is the on_destroy argument with its default.
func onDestroyAttribute(description string) schema.StringAttribute {
	return schema.StringAttribute{
		Optional:    true,
		Computed:    true,
		Default:     stringdefault.StaticString(onDestroyForget),
		Description: description,
		Validators:  []validator.String{stringvalidator.OneOf(onDestroyForget, onDestroyUnsubscribe)},
	}
}

// unsubscribesOnDestroy reports whether a state's on_destroy asks destroy
// to unsubscribe. Null (a state the upgrader has not seen, which cannot
// happen through Terraform) forgets, as the default does.
func unsubscribesOnDestroy(v types.String) bool {
	return v.ValueString() == onDestroyUnsubscribe
}

// onDestroySchemaVersion is the schema version of rms_list_contacts and
// rms_contact since on_destroy exists.
const onDestroySchemaVersion = 1

// onDestroyUpgraders upgrade a state written before on_destroy existed
// (schema version 0) by adding on_destroy = "forget" to it.
//
// Why an upgrade rather than Read filling a null: Terraform upgrades every
// state it reads, before the refresh and also with -refresh=false, so a
// state written by an earlier release plans empty on every path and no
// Update has to recognise a change of on_destroy alone (an Update of
// rms_list_contacts reads the list and writes what differs, which a plan
// that only fills on_destroy must not do). The cost: a state once written
// at version 1 cannot be read by an earlier release of the provider.
//
// The upgrader takes the raw JSON state and adds the key, so it needs no
// copy of the prior schema and keeps working when other attributes are
// added without a version (the framework fills absent attributes with
// null, as for any state).
func onDestroyUpgraders() map[int64]resource.StateUpgrader {
	return map[int64]resource.StateUpgrader{0: {StateUpgrader: upgradeAddOnDestroy}}
}

func upgradeAddOnDestroy(_ context.Context, req resource.UpgradeStateRequest, resp *resource.UpgradeStateResponse) {
	if req.RawState == nil || req.RawState.JSON == nil {
		resp.Diagnostics.AddError("Unable to upgrade the state", "The state of this resource has no JSON form to upgrade (written by Terraform 0.11 or earlier?).")
		return
	}
	upgraded, err := addOnDestroyJSON(req.RawState.JSON)
	if err != nil {
		resp.Diagnostics.AddError("Unable to upgrade the state", fmt.Sprintf("Adding %s = %q to the state written by an earlier release: %s", attrOnDestroy, onDestroyForget, err))
		return
	}
	resp.DynamicValue = &tfprotov6.DynamicValue{JSON: upgraded}
}

// addOnDestroyJSON adds on_destroy = "forget" to a state's JSON where it
// is absent or null.
func addOnDestroyJSON(raw []byte) ([]byte, error) {
	var attrs map[string]json.RawMessage
	if err := json.Unmarshal(raw, &attrs); err != nil {
		return nil, err
	}
	if v, ok := attrs[attrOnDestroy]; !ok || string(v) == "null" {
		attrs[attrOnDestroy] = json.RawMessage(`"` + onDestroyForget + `"`)
	}
	return json.Marshal(attrs)
}

// destroyTargets are the unsubscriptions a destroy of rms_list_contacts
// with on_destroy = "unsubscribe" makes: the channels the configuration
// manages, per contact, that the service does not show unsubscribed
// already. A channel of a contact is managed when the input sets its
// status (email_status / mobile_status in the map, a non-empty cell of
// that column in the file): those are the statuses the resource writes, so
// they are the ones its destroy undoes. A contact whose input sets no
// status, and a channel the input never sets, are left as they are; so are
// contacts the list no longer holds.
type destroyTargets struct {
	Email, Mobile []string
	// Before is what the service showed for each target before destroy.
	Before map[string]client.SubscriptionStatus
}

func destroyTargetsOf(desired *contactsync.Book, service *contactsync.ServiceList) destroyTargets {
	t := destroyTargets{Before: map[string]client.SubscriptionStatus{}}
	for i := range desired.Len() {
		w := desired.Entry(i)
		s, ok := service.Get(w.ID)
		if !ok {
			continue
		}
		email := w.Email != "" && s.Email != client.StatusUnsubscribed
		mobile := w.Mobile != "" && s.Mobile != client.StatusUnsubscribed
		if email {
			t.Email = append(t.Email, w.ID)
		}
		if mobile {
			t.Mobile = append(t.Mobile, w.ID)
		}
		if email || mobile {
			t.Before[w.ID] = client.SubscriptionStatus{Status: s.Email, MobileStatus: s.Mobile}
		}
	}
	return t
}

// release records the targets in applied as unsubscribed by Terraform,
// on the channels destroy unsubscribes.
func (t destroyTargets) release(applied *contactsync.Record, service *contactsync.ServiceList) {
	email := make(map[string]bool, len(t.Email))
	for _, id := range t.Email {
		email[id] = true
	}
	mobile := make(map[string]bool, len(t.Mobile))
	for _, id := range t.Mobile {
		mobile[id] = true
	}
	for id := range t.Before {
		s, _ := service.Get(id)
		applied.ReleaseChannels(id, s, email[id], mobile[id])
	}
}

// changes are the single calls that make the targets: one per contact,
// with the channels to unsubscribe; emailByImport leaves e-mail to an
// UNSUBSCRIBE import.
func (t destroyTargets) changes(emailByImport bool) []contactsync.Change {
	byID := map[string]*contactsync.Change{}
	var out []*contactsync.Change
	get := func(id string) *contactsync.Change {
		if c, ok := byID[id]; ok {
			return c
		}
		c := &contactsync.Change{ID: id}
		byID[id] = c
		out = append(out, c)
		return c
	}
	if !emailByImport {
		for _, id := range t.Email {
			get(id).Status.Status = client.StatusUnsubscribed
		}
	}
	for _, id := range t.Mobile {
		get(id).Status.MobileStatus = client.StatusUnsubscribed
	}
	changes := make([]contactsync.Change, len(out))
	for i, c := range out {
		changes[i] = *c
	}
	return changes
}

// contacts is the number of contacts destroy unsubscribes on some channel.
func (t destroyTargets) contacts() int { return len(t.Before) }
