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
// can know. The service applies the file to the list as the list is when
// the batch runs, and Terraform plans a new import again from nothing
// inside the apply (a create has no prior state to hold a count to), so a
// count read from the list at plan could not be held to: the plan knows
// only what the import's type rules out (0), and the rest is unknown. After
// the apply the unknown counts are null (not counted).

// listImportPlannedChangesDescription is the description of
// rms_list_import.planned_changes.
const listImportPlannedChangesDescription = "The counts of `rms_list_contacts.planned_changes`, with what an import's plan can know: 0 where the import's `type` rules a change out " +
	"(`UNSUBSCRIBE` changes only e-mail statuses; no import unsubscribes by `exclusive`), unknown elsewhere (the service applies the file to the list as it is when the batch runs), " +
	"so a policy holds such a plan for review (see the policy-checks guide). Null once applied where unknown at plan."

// listImportPlannedChangesAttribute is the schema of planned_changes of
// rms_list_import: planned anew only with a new import.
func listImportPlannedChangesAttribute() schema.SingleNestedAttribute {
	a := plannedChangesAttribute(listImportPlannedChangesDescription)
	a.PlanModifiers = []planmodifier.Object{objectplanmodifier.UseStateForUnknown()}
	return a
}

// importPlannedChanges is what a plan of a new import of type typ knows
// ("" unknown): 0 where the type rules a change out, unknown elsewhere.
func importPlannedChanges(typ string) types.Object {
	if typ == "" {
		return plannedChangesUnknown()
	}
	unknown := types.Int64Unknown()
	zero := types.Int64Value(0)
	or := func(ruledOut bool) attr.Value {
		if ruledOut {
			return zero
		}
		return unknown
	}
	unsub := typ == "UNSUBSCRIBE"
	channel := func(changes bool) attr.Value {
		return types.ObjectValueMust(channelChangesType.AttrTypes, map[string]attr.Value{
			"subscribed": or(unsub || !changes), "unsubscribed": or(!changes), "unsubscribed_by_exclusive": zero,
		})
	}
	return types.ObjectValueMust(plannedChangesType.AttrTypes, map[string]attr.Value{
		"list_size": unknown, "created": or(unsub), "created_unsubscribed": or(unsub), "properties_changed": or(unsub),
		"opt_outs_kept": or(unsub), "suppressed": or(unsub),
		"email": channel(true), "mobile": channel(!unsub),
	})
}

// planImportChanges sets planned_changes of a plan that runs a new import.
func planImportChanges(ctx context.Context, plan listImportModel, resp *resource.ModifyPlanResponse) {
	typ := ""
	if !plan.Type.IsUnknown() {
		typ = plan.Type.ValueString()
	}
	resp.Diagnostics.Append(resp.Plan.SetAttribute(ctx, path.Root(attrPlannedChanges), importPlannedChanges(typ))...)
}

// appliedImportChanges is planned_changes as an apply saves it: the counts
// the plan knew, null where it did not.
func appliedImportChanges(planned types.Object) types.Object {
	if planned.IsUnknown() || planned.IsNull() {
		return types.ObjectNull(plannedChangesType.AttrTypes)
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
