package provider

import (
	"context"
	"fmt"

	actionschema "github.com/hashicorp/terraform-plugin-framework/action/schema"
	"github.com/hashicorp/terraform-plugin-framework/diag"
	"github.com/hashicorp/terraform-plugin-framework/path"
	providerschema "github.com/hashicorp/terraform-plugin-framework/provider/schema"
	resourceschema "github.com/hashicorp/terraform-plugin-framework/resource/schema"
	"github.com/hashicorp/terraform-plugin-framework/resource/schema/planmodifier"
	"github.com/hashicorp/terraform-plugin-framework/schema/validator"
	"github.com/hashicorp/terraform-plugin-framework/types"

	"github.com/rms-labs/terraform-provider-rms/internal/contactsync"
)

// The account's suppression list (contactsync.Suppression): the
// suppression_list_id argument as the provider block, the resources and
// the action declare it, the check that it is not the list a resource
// manages, and how a resource finds the suppression list it answers to.

// suppressionListDescription says what the suppression list is, for every
// schema that has the argument.
const suppressionListDescription = "Id of the account's suppression list: a list that holds every recipient who opted out, unsubscribed on the channels they left, so that an opt-out outlives its list. " +
	"A recipient it holds (by `original_id`, or by `email` ignoring letter case) is never made or left `SUBSCRIBED` on a suppressed channel unless `allow_resubscribe` (or `allow_resubscribe_ids`) names it. " +
	"It cannot be the list this resource manages. See the guide \"Consent across lists\"."

// suppressionProviderAttribute is the provider block's default.
func suppressionProviderAttribute() providerschema.StringAttribute {
	return providerschema.StringAttribute{
		Optional:    true,
		Description: "The default `suppression_list_id` of every contact resource and import, for a suppression list managed in another configuration; a resource's own value takes precedence, and a resource managing the suppression list itself ignores it. Also read from `" + envSuppressionListID + "`. " + suppressionListDescription,
		Validators:  []validator.String{listIDValidator},
	}
}

// suppressionResourceAttribute is a resource's suppression_list_id; what
// says what the resource does with it.
func suppressionResourceAttribute(what string, extra ...planmodifier.String) resourceschema.StringAttribute {
	return resourceschema.StringAttribute{
		Optional:      true,
		Description:   what + " " + suppressionListDescription + " When not set: the provider block's `suppression_list_id`, else none.",
		Validators:    []validator.String{listIDValidator, suppressionNotListValidator{}},
		PlanModifiers: extra,
	}
}

// suppressionActionAttribute is the action's suppression_list_id.
func suppressionActionAttribute(what string) actionschema.StringAttribute {
	return actionschema.StringAttribute{
		Optional:    true,
		Description: what + " " + suppressionListDescription + " When not set: the provider block's `suppression_list_id`, else none.",
		Validators:  []validator.String{listIDValidator, suppressionNotListValidator{}},
	}
}

// suppressionListSetting is the provider block's suppression list, else
// RMS_SUPPRESSION_LIST_ID's, else "".
func suppressionListSetting(v types.String, env func(string) (string, bool), diags *diag.Diagnostics) string {
	id := stringSetting(v, env, envSuppressionListID)
	if id != "" && !isEntityID(id) {
		diags.AddAttributeError(path.Root(attrSuppressionListID), "Invalid suppression_list_id",
			fmt.Sprintf("The %s environment variable is %q; it must be the numeric id of a list of the account, or unset.", envSuppressionListID, id))
		return ""
	}
	return id
}

// suppressionFor is the suppression list a resource answers to: its own
// suppression_list_id, else the provider block's; nil and "" when there
// is none, or when the provider block's is listID itself (a resource that
// manages the suppression list does not answer to itself). A value still
// unknown counts as none.
func (d *providerData) suppressionFor(own types.String, listID string) (*contactsync.Suppression, string) {
	id := ""
	switch {
	case own.IsUnknown():
		return nil, ""
	case !own.IsNull():
		id = own.ValueString()
	case d != nil && d.suppressionListID != listID:
		id = d.suppressionListID
	}
	if id == "" || d == nil || d.contacts == nil {
		return nil, id
	}
	return d.contacts.Suppression(id), id
}

// suppressionNotListValidator refuses a suppression_list_id equal to the
// list_id beside it: a list cannot be its own suppression list.
type suppressionNotListValidator struct{}

func (suppressionNotListValidator) Description(context.Context) string {
	return "must not be the list this resource manages (list_id)"
}

func (v suppressionNotListValidator) MarkdownDescription(ctx context.Context) string {
	return v.Description(ctx)
}

func (suppressionNotListValidator) ValidateString(ctx context.Context, req validator.StringRequest, resp *validator.StringResponse) {
	if req.ConfigValue.IsNull() || req.ConfigValue.IsUnknown() {
		return
	}
	var list types.String
	if d := req.Config.GetAttribute(ctx, path.Root("list_id"), &list); d.HasError() {
		return // a schema without list_id (rms_list checks its own id at plan)
	}
	if !list.IsNull() && !list.IsUnknown() && list.ValueString() == req.ConfigValue.ValueString() {
		resp.Diagnostics.Append(suppressionIsManagedList(req.Path, list.ValueString()))
	}
}

// suppressionNotSelf is rms_list's check: the suppression list cannot be
// the list itself (its id, known from the state).
type suppressionNotSelf struct{}

func (suppressionNotSelf) Description(context.Context) string {
	return "must not be this list's own id"
}

func (v suppressionNotSelf) MarkdownDescription(ctx context.Context) string {
	return v.Description(ctx)
}

func (suppressionNotSelf) PlanModifyString(ctx context.Context, req planmodifier.StringRequest, resp *planmodifier.StringResponse) {
	if req.ConfigValue.IsNull() || req.ConfigValue.IsUnknown() || req.State.Raw.IsNull() {
		return
	}
	var id types.String
	if d := req.State.GetAttribute(ctx, path.Root("id"), &id); d.HasError() {
		return
	}
	if id.ValueString() == req.ConfigValue.ValueString() {
		resp.Diagnostics.Append(suppressionIsManagedList(req.Path, id.ValueString()))
	}
}

// suppressionIsManagedList is the error of a suppression list that is the
// managed list itself. Terraform validates the configuration again in the
// plan it makes during an apply, before the resource's first write: ids
// known at plan are refused by the plan, and ids that both come from an
// rms_list made in the same run (unknown until it is created) are refused
// there, once that list exists, with nothing written for the resource.
func suppressionIsManagedList(p path.Path, listID string) diag.Diagnostic {
	return diag.NewAttributeErrorDiagnostic(p, "The suppression list cannot be the list this resource manages",
		fmt.Sprintf("suppression_list_id is %s, the list this resource manages: a list cannot hold the opt-outs it is checked against. "+
			"Set suppression_list_id to the id of another list of the account (one kept only for opt-outs, e.g. rms_list.suppression.id, an rms_list of its own), or remove it. "+
			"When both ids come from one rms_list made in this run, this is found only during the apply, once that list exists: the list stays in state, and nothing was written for this resource.", listID))
}
