package provider

import (
	"context"

	"github.com/hashicorp/terraform-plugin-framework/attr"
	"github.com/hashicorp/terraform-plugin-framework/path"
	"github.com/hashicorp/terraform-plugin-framework/resource"
	"github.com/hashicorp/terraform-plugin-framework/resource/schema"
	"github.com/hashicorp/terraform-plugin-framework/resource/schema/objectplanmodifier"
	"github.com/hashicorp/terraform-plugin-framework/resource/schema/planmodifier"
	"github.com/hashicorp/terraform-plugin-framework/types"
)

// rms_list_import carries planned_changes with the field names of
// rms_list_contacts (list_contacts_planned_changes.go), with what its plan
// can know, and two of its own: the contacts a REPLACE import removes and
// the opt-outs its apply copies into the suppression list first. Those and
// the list's size are counted at plan, from the list and the file, by the
// functions the guardrail and the apply use (countListImport,
// leavingOptOutsToCopy): a saved plan carries them as values. Terraform
// plans a new import again inside the apply and refuses the apply, before
// Create runs, when a count it planned known differs ("Provider produced
// inconsistent final plan"): a list changed since the plan in what the
// import removes stops the apply before anything is uploaded. The other
// counts are what the import's type rules out (0: no ADD or REPLACE import
// unsubscribes, since its file has no status column; no import unsubscribes
// by exclusive), and unknown elsewhere (the service applies the file to
// the list as it is when the batch runs). After the apply the unknown
// counts are null (not counted).

const (
	attrRemoved       = "removed"
	attrOptOutsCopied = "opt_outs_copied"
)

// listImportPlannedChangesDescription is the description of
// rms_list_import.planned_changes.
const listImportPlannedChangesDescription = "The counts of `rms_list_contacts.planned_changes`, with what an import's plan can know, and two of its own (`removed`, `opt_outs_copied`). " +
	"0 where the import's `type` rules a change out (an `ADD` or `REPLACE` import unsubscribes nobody, `UNSUBSCRIBE` only e-mail; no import unsubscribes by `exclusive`). " +
	"A `REPLACE` import's `list_size`, `removed` and `opt_outs_copied` are counted at plan when the list and the file are known; a list that changes in these counts before the apply of a saved plan is refused by Terraform's own check, before any upload (see Behaviour on this page). " +
	"The other counts are unknown, so a policy that reads them holds such a plan for review (see the policy-checks guide). Null once applied where unknown at plan."

// importPlannedChangesType is planned_changes of rms_list_import: that of
// rms_list_contacts and the two counts of a REPLACE import.
var importPlannedChangesType = func() types.ObjectType {
	attrs := map[string]attr.Type{attrRemoved: types.Int64Type, attrOptOutsCopied: types.Int64Type}
	for k, t := range plannedChangesType.AttrTypes {
		attrs[k] = t
	}
	return types.ObjectType{AttrTypes: attrs}
}()

// listImportPlannedChangesAttribute is the schema of planned_changes of
// rms_list_import: planned anew only with a new import.
func listImportPlannedChangesAttribute() schema.SingleNestedAttribute {
	a := plannedChangesAttribute(listImportPlannedChangesDescription)
	a.Attributes[attrRemoved] = schema.Int64Attribute{Computed: true, Description: "Contacts a `REPLACE` import removes from the list for good: those the list holds and its file does not name " +
		"(0 for `ADD` and `UNSUBSCRIBE`). Counted at plan, as the guardrail counts them; unknown when the list or the file is known only during the apply."}
	a.Attributes[attrOptOutsCopied] = schema.Int64Attribute{Computed: true, Description: "Of the contacts a `REPLACE` import removes, those unsubscribed on a channel the suppression list (`suppression_list_id`) does not hold them on yet: " +
		"the apply copies these opt-outs into it before it uploads anything, and the plan names the first in a warning. 0 without a suppression list, and for `ADD` and `UNSUBSCRIBE`; " +
		"unknown when the list, the file or the suppression list cannot be read at plan."}
	a.PlanModifiers = []planmodifier.Object{objectplanmodifier.UseStateForUnknown()}
	return a
}

// importCounts are what the plan of a new import counted.
type importCounts struct {
	// removal is the guardrail's count (countListImport), nil when not
	// counted.
	removal *unsubscribeCount
	// toCopy are the opt-outs a REPLACE copies into the suppression list
	// first (planImportSuppression), -1 when not counted.
	toCopy int
}

// importPlannedChanges is what a plan of a new import of type typ knows
// ("" unknown): 0 where the type rules a change out, the REPLACE counts
// where counted, unknown elsewhere.
func importPlannedChanges(typ string, counted importCounts) types.Object {
	if typ == "" {
		return types.ObjectUnknown(importPlannedChangesType.AttrTypes)
	}
	unknown := types.Int64Unknown()
	zero := types.Int64Value(0)
	or := func(ruledOut bool) attr.Value {
		if ruledOut {
			return zero
		}
		return unknown
	}
	unsub, replace := typ == "UNSUBSCRIBE", typ == "REPLACE"
	channel := func(changes bool) attr.Value {
		return types.ObjectValueMust(channelChangesType.AttrTypes, map[string]attr.Value{
			// Only an UNSUBSCRIBE import unsubscribes (e-mail only).
			"subscribed": or(unsub || !changes), "unsubscribed": or(!unsub || !changes), "unsubscribed_by_exclusive": zero,
		})
	}
	listSize, removed, toCopy := unknown, attr.Value(zero), attr.Value(zero)
	if replace {
		removed, toCopy = unknown, unknown
		if c := counted.removal; c != nil && c.Removes {
			listSize, removed = types.Int64Value(int64(c.ListSize)), types.Int64Value(int64(c.Total()))
		}
		if counted.toCopy >= 0 {
			toCopy = types.Int64Value(int64(counted.toCopy))
		}
	}
	return types.ObjectValueMust(importPlannedChangesType.AttrTypes, map[string]attr.Value{
		"list_size": listSize, "created": or(unsub), "created_unsubscribed": or(unsub), "properties_changed": or(unsub),
		"opt_outs_kept": or(unsub), "suppressed": or(unsub),
		"email": channel(true), "mobile": channel(!unsub),
		attrRemoved: removed, attrOptOutsCopied: toCopy,
	})
}

// planImportChanges sets planned_changes of a plan that runs a new import
// from what its guardrail and suppression checks counted.
func planImportChanges(ctx context.Context, plan listImportModel, counted importCounts, resp *resource.ModifyPlanResponse) {
	typ := ""
	if !plan.Type.IsUnknown() {
		typ = plan.Type.ValueString()
	}
	resp.Diagnostics.Append(resp.Plan.SetAttribute(ctx, path.Root(attrPlannedChanges), importPlannedChanges(typ, counted))...)
}

// appliedImportChanges is planned_changes as an apply saves it: the counts
// the plan knew, null where it did not.
func appliedImportChanges(planned types.Object) types.Object {
	if planned.IsUnknown() || planned.IsNull() {
		return types.ObjectNull(importPlannedChangesType.AttrTypes)
	}
	vals := map[string]attr.Value{}
	for k, v := range planned.Attributes() {
		switch t := v.(type) {
		case types.Object:
			vals[k] = appliedImportChanges(t)
		case types.Int64:
			if t.IsUnknown() {
				t = types.Int64Null()
			}
			vals[k] = t
		}
	}
	return types.ObjectValueMust(planned.AttributeTypes(context.Background()), vals)
}
