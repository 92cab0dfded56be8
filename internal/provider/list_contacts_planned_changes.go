package provider

import (
	"github.com/hashicorp/terraform-plugin-framework/attr"
	"github.com/hashicorp/terraform-plugin-framework/resource/schema"
	"github.com/hashicorp/terraform-plugin-framework/types"

	"github.com/rms-labs/terraform-provider-rms/internal/client"
	"github.com/rms-labs/terraform-provider-rms/internal/contactsync"
)

// planned_changes carries the counts the plan's warning prints as values,
// so that a policy reading `terraform show -json PLANFILE` can gate on
// them. Both come from tallyChanges, one walk over the diff the plan
// already computed: no second listing, and they never disagree.
//
// Terraform requires an apply to save the planned value, and a plan with no
// change to plan the prior one; so a refresh sets the counts to zero (a
// change found only by refresh is no change to apply), a plan with nothing
// to do keeps the prior values, and a plan with something to do counts.

const attrPlannedChanges = "planned_changes"

// plannedChanges are the counts of one plan.
type plannedChanges struct {
	ListSize            int
	Created             int
	CreatedUnsubscribed int
	PropertiesChanged   int
	OptOutsKept         int
	Suppressed          int
	Email, Mobile       channelChanges
}

// channelChanges are the status changes of one channel (e-mail or mobile).
type channelChanges struct {
	Subscribed              int
	Unsubscribed            int
	UnsubscribedByExclusive int
}

var channelChangesType = types.ObjectType{AttrTypes: map[string]attr.Type{
	"subscribed":                types.Int64Type,
	"unsubscribed":              types.Int64Type,
	"unsubscribed_by_exclusive": types.Int64Type,
}}

var plannedChangesType = types.ObjectType{AttrTypes: map[string]attr.Type{
	"list_size":            types.Int64Type,
	"created":              types.Int64Type,
	"created_unsubscribed": types.Int64Type,
	"properties_changed":   types.Int64Type,
	"opt_outs_kept":        types.Int64Type,
	"suppressed":           types.Int64Type,
	"email":                channelChangesType,
	"mobile":               channelChangesType,
}}

// tallyChanges walks a diff once: the kinds the warning prints
// (changeKinds) and the counts planned_changes carries.
func tallyChanges(diff contactsync.Diff) (kinds changeKindSet, pc plannedChanges) {
	kinds = newChangeKindSet()
	for c := range diff.All() {
		switch {
		case c.Create:
			kinds.create.add(c.ID)
			pc.Created++
			if c.Status.Status == client.StatusUnsubscribed || c.Status.MobileStatus == client.StatusUnsubscribed {
				pc.CreatedUnsubscribed++
			}
			continue
		case c.Unsubscribe:
			kinds.exclusive.add(c.ID)
			both := c.Status == (client.SubscriptionStatus{}) // a zero Status unsubscribes both
			if both || c.Status.Status == client.StatusUnsubscribed {
				pc.Email.UnsubscribedByExclusive++
			}
			if both || c.Status.MobileStatus == client.StatusUnsubscribed {
				pc.Mobile.UnsubscribedByExclusive++
			}
			continue
		}
		// A channel the suppression list decided has that one reason: it
		// is counted under suppressed, not as the input's unsubscription.
		email, mobile := c.Status.Status, c.Status.MobileStatus
		if c.Suppressed.Email {
			email = ""
		}
		if c.Suppressed.Mobile {
			mobile = ""
		}
		if email == client.StatusSubscribed || mobile == client.StatusSubscribed {
			kinds.subscribe.add(c.ID)
		}
		if email == client.StatusUnsubscribed || mobile == client.StatusUnsubscribed {
			kinds.unsubscribe.add(c.ID)
		}
		if c.SuppressedWrite() {
			kinds.suppressed.add(c.ID)
		}
		pc.Email.count(email)
		pc.Mobile.count(mobile)
		if len(c.Set) > 0 || len(c.Remove) > 0 {
			kinds.properties.add(c.ID)
			pc.PropertiesChanged++
		}
	}
	pc.OptOutsKept = len(diff.OptedOut)
	pc.Suppressed = len(diff.Suppressed)
	return kinds, pc
}

func (c *channelChanges) count(status string) {
	switch status {
	case client.StatusSubscribed:
		c.Subscribed++
	case client.StatusUnsubscribed:
		c.Unsubscribed++
	}
}

// plannedChangesOf are the counts of a diff against a listing of listSize
// contacts.
func plannedChangesOf(diff contactsync.Diff, listSize int) plannedChanges {
	_, pc := tallyChanges(diff)
	pc.ListSize = listSize
	return pc
}

// value is pc as the attribute's value.
func (pc plannedChanges) value() types.Object {
	n := func(v int) attr.Value { return types.Int64Value(int64(v)) }
	ch := func(c channelChanges) attr.Value {
		return types.ObjectValueMust(channelChangesType.AttrTypes, map[string]attr.Value{
			"subscribed": n(c.Subscribed), "unsubscribed": n(c.Unsubscribed), "unsubscribed_by_exclusive": n(c.UnsubscribedByExclusive),
		})
	}
	return types.ObjectValueMust(plannedChangesType.AttrTypes, map[string]attr.Value{
		"list_size": n(pc.ListSize), "created": n(pc.Created), "created_unsubscribed": n(pc.CreatedUnsubscribed),
		"properties_changed": n(pc.PropertiesChanged), "opt_outs_kept": n(pc.OptOutsKept), "suppressed": n(pc.Suppressed),
		"email": ch(pc.Email), "mobile": ch(pc.Mobile),
	})
}

// plannedChangesUnknown is the value of a plan that cannot count.
func plannedChangesUnknown() types.Object { return types.ObjectUnknown(plannedChangesType.AttrTypes) }

// plannedChangesZero is what a refresh records: no change planned.
func plannedChangesZero() types.Object { return plannedChanges{}.value() }

// keptPlannedChanges is the value of a plan with nothing to do: the prior
// one (Terraform plans no change only where every value is the prior one).
func keptPlannedChanges(state *listContactsModel) types.Object {
	if state == nil {
		return plannedChangesUnknown()
	}
	return state.PlannedChanges
}

// plannedChangesAttribute is the schema of planned_changes; what is not
// known at plan is unknown.
func plannedChangesAttribute(description string) schema.SingleNestedAttribute {
	count := func(d string) schema.Int64Attribute { return schema.Int64Attribute{Computed: true, Description: d} }
	channel := func(name string) schema.SingleNestedAttribute {
		return schema.SingleNestedAttribute{Computed: true, Description: "Changes to the " + name + " status.", Attributes: map[string]schema.Attribute{
			"subscribed":                count("Contacts to subscribe on " + name + ", as the input says."),
			"unsubscribed":              count("Contacts to unsubscribe on " + name + ", as the input says."),
			"unsubscribed_by_exclusive": count("Contacts to unsubscribe on " + name + " because the input does not name them (`exclusive = true`)."),
		}}
	}
	return schema.SingleNestedAttribute{
		Computed:    true,
		Description: description,
		Attributes: map[string]schema.Attribute{
			"list_size":            count("Contacts in the list when the plan was made (the denominator of a percentage)."),
			"created":              count("Contacts to create (new to the list)."),
			"created_unsubscribed": count("Of those, contacts created unsubscribed on e-mail or mobile."),
			"properties_changed":   count("Contacts whose properties change."),
			"opt_outs_kept":        count("Contacts the service shows `UNSUBSCRIBED` though the input says `SUBSCRIBED`: their opt-out is kept."),
			"suppressed":           count("Contacts kept or made unsubscribed because the suppression list holds them (0 without one). A channel has one reason: a suppressed contact is counted here, never also under `opt_outs_kept` or the channels' `unsubscribed`."),
			"email":                channel("e-mail"),
			"mobile":               channel("mobile"),
		},
	}
}

// listContactsPlannedChangesDescription is the description of
// rms_list_contacts.planned_changes.
const listContactsPlannedChangesDescription = "What this plan changes, as counts a policy can read in `terraform show -json` (the numbers the plan's warning prints; see the policy-checks guide). " +
	"Unknown where the plan cannot count: a create, the list or input known only at apply, a plan made with `-refresh=false`. " +
	"An apply saves the planned counts; a refresh sets them to 0, and a plan with nothing to do keeps them."
