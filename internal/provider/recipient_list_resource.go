package provider

import (
	"context"

	"github.com/hashicorp/terraform-plugin-framework-timetypes/timetypes"
	"github.com/hashicorp/terraform-plugin-framework-validators/stringvalidator"
	"github.com/hashicorp/terraform-plugin-framework/path"
	"github.com/hashicorp/terraform-plugin-framework/resource"
	"github.com/hashicorp/terraform-plugin-framework/resource/schema"
	"github.com/hashicorp/terraform-plugin-framework/resource/schema/booldefault"
	"github.com/hashicorp/terraform-plugin-framework/schema/validator"
	"github.com/hashicorp/terraform-plugin-framework/types"

	"github.com/rms-labs/terraform-provider-rms/internal/client"
	"github.com/rms-labs/terraform-provider-rms/internal/validators"
)

var (
	_ resource.Resource                = &recipientListResource{}
	_ resource.ResourceWithConfigure   = &recipientListResource{}
	_ resource.ResourceWithImportState = &recipientListResource{}
	_ resource.ResourceWithIdentity    = &recipientListResource{}
	_ resource.ResourceWithMoveState   = &recipientListResource{}
	_ resource.ResourceWithModifyPlan  = &recipientListResource{}
)

// NewRecipientListResource returns the rms_list resource.
func NewRecipientListResource() resource.Resource { return &recipientListResource{} }

type recipientListResource struct {
	data *providerData
}

// listFields maps the service's field names onto attributes for validation
// errors.
var listFields = map[string]path.Path{
	"name":        path.Root("name"),
	"description": path.Root("description"),
	"senderName":  path.Root("sender_name"),
	"senderEmail": path.Root("sender_email"),
}

func (r *recipientListResource) Metadata(_ context.Context, req resource.MetadataRequest, resp *resource.MetadataResponse) {
	resp.TypeName = req.ProviderTypeName + "_list"
}

func (r *recipientListResource) Schema(_ context.Context, _ resource.SchemaRequest, resp *resource.SchemaResponse) {
	resp.Schema = schema.Schema{
		Description: "A recipient list of the account (the service's Lists domain); every attribute is updated in place. " +
			"Destroy deletes the list, and the service deletes its contacts and their opt-outs with it, so a list that holds contacts is deleted (or replaced) only once `deletion_protection = false` has been applied. " +
			"A list first managed as `rms_resource` (collection `lists`) moves here with `moved { from = rms_resource.<name>  to = rms_list.<name> }`, keeping its id (Terraform 1.8+, OpenTofu 1.10+; see the guide \"Managing any domain with rms_resource\").",
		Attributes: map[string]schema.Attribute{
			"id": idAttribute("list"),
			"name": schema.StringAttribute{
				Required:    true,
				Description: "Name of the list. Mandatory for the service; must not be empty.",
				Validators:  []validator.String{stringvalidator.LengthAtLeast(1)},
			},
			"description": schema.StringAttribute{
				Optional:    true,
				Description: "Free-text description. Removing it from the configuration removes it from the list.",
			},
			"sender_name": schema.StringAttribute{
				Optional:    true,
				Description: "Sender name of messages to this list. Removing it from the configuration removes it from the list.",
			},
			"sender_email": schema.StringAttribute{
				Optional:    true,
				Description: "Sender address of messages to this list: a bare e-mail address such as `news@example.com`; a display name (`Team <team@example.com>`) is refused at plan time, as the service refuses it: the name goes in `sender_name`. Removing it from the configuration removes it from the list.",
				Validators:  []validator.String{validators.BareEmail("sender_name")},
			},
			attrDeletionProtection: schema.BoolAttribute{
				Optional: true,
				Computed: true,
				Default:  booldefault.StaticBool(true),
				Description: "Refuse to delete or replace the list while it holds contacts (default `true`): the plan fails, naming how many contacts and opt-outs the deletion would lose. " +
					"Set it to `false` and apply that before destroying; an empty list is deleted either way. Changing it alone calls nothing. " +
					"Destroy reads it from the state: a state without it (an import, a state from before it) counts as `true`.",
			},
			"date_created":  dateCreatedAttribute("list"),
			"date_modified": dateModifiedAttribute("list"),
		},
	}
	resp.Schema.Attributes[attrSuppressionListID] = suppressionResourceAttribute("Destroying the list first copies its contacts' opt-outs into the suppression list (see the consent-across-lists guide), and deletes nothing if the copy fails. Delete a list and feed its people to a new one in two applies, not one.", suppressionNotSelf{})
}

// IdentitySchema: a list is identified by its id (Terraform 1.12+).
func (r *recipientListResource) IdentitySchema(_ context.Context, _ resource.IdentitySchemaRequest, resp *resource.IdentitySchemaResponse) {
	resp.IdentitySchema = idIdentitySchema("list")
}

func (r *recipientListResource) Configure(_ context.Context, req resource.ConfigureRequest, resp *resource.ConfigureResponse) {
	r.data = configuredData(req.ProviderData, &resp.Diagnostics)
}

func (r *recipientListResource) Create(ctx context.Context, req resource.CreateRequest, resp *resource.CreateResponse) {
	listCRUD.Create(ctx, r.data, req, resp)
}

func (r *recipientListResource) Read(ctx context.Context, req resource.ReadRequest, resp *resource.ReadResponse) {
	listCRUD.Read(ctx, r.data, req, resp)
}

// Update calls the service only when the list itself changes: a plan that
// changes only deletion_protection or suppression_list_id is written to
// state as it is.
func (r *recipientListResource) Update(ctx context.Context, req resource.UpdateRequest, resp *resource.UpdateResponse) {
	var plan, state listResourceModel
	resp.Diagnostics.Append(req.Plan.Get(ctx, &plan)...)
	resp.Diagnostics.Append(req.State.Get(ctx, &state)...)
	if resp.Diagnostics.HasError() {
		return
	}
	if !sameListInput(plan.listModel, state.listModel) {
		listCRUD.Update(ctx, r.data, req, resp)
		return
	}
	state.DeletionProtection = plan.DeletionProtection
	state.SuppressionListID = plan.SuppressionListID
	saveWithIdentity(ctx, &resp.State, resp.Identity, state, idIdentity(state.ID), &resp.Diagnostics)
}

// Delete checks deletion protection again before it deletes (the plan may
// not have seen the contacts: -refresh=false, contacts added since, or a
// replacement Terraform itself decided), then copies the list's opt-outs
// into the suppression list, if one is configured
// (recipient_list_suppression.go), and deletes the list only once that is
// done.
func (r *recipientListResource) Delete(ctx context.Context, req resource.DeleteRequest, resp *resource.DeleteResponse) {
	var state listResourceModel
	resp.Diagnostics.Append(req.State.Get(ctx, &state)...)
	if resp.Diagnostics.HasError() || !requireClient(r.data, &resp.Diagnostics) {
		return
	}
	if !checkListDeletion(ctx, r.data, state, true, &resp.Diagnostics) || !r.copyOptOutsBeforeDelete(ctx, state, &resp.Diagnostics) {
		return
	}
	listCRUD.Delete(ctx, r.data, req, resp)
}

// ModifyPlan refuses, before anything is deleted, a destroy of a protected
// list that holds contacts, and warns of the opt-outs a destroy copies into
// the suppression list (recipient_list_suppression.go); and keeps
// date_modified in a plan that changes only what the service never sees.
func (r *recipientListResource) ModifyPlan(ctx context.Context, req resource.ModifyPlanRequest, resp *resource.ModifyPlanResponse) {
	if req.State.Raw.IsNull() {
		return // a create
	}
	var state listResourceModel
	resp.Diagnostics.Append(req.State.Get(ctx, &state)...)
	if resp.Diagnostics.HasError() {
		return
	}
	if req.Plan.Raw.IsNull() {
		// A protected list that may go is empty: nothing to copy.
		if checkListDeletion(ctx, r.data, state, false, &resp.Diagnostics) && !deletionProtected(state.DeletionProtection) {
			r.warnOptOutsCopy(ctx, state, &resp.Diagnostics)
		}
		return
	}
	var plan listResourceModel
	resp.Diagnostics.Append(req.Plan.Get(ctx, &plan)...)
	if resp.Diagnostics.HasError() || !sameListInput(plan.listModel, state.listModel) {
		return
	}
	resp.Diagnostics.Append(resp.Plan.SetAttribute(ctx, path.Root("date_modified"), state.DateModified)...)
}

// ImportState accepts the numeric id as the import string or as
// `identity = { id = "42" }` in an import block.
func (r *recipientListResource) ImportState(ctx context.Context, req resource.ImportStateRequest, resp *resource.ImportStateResponse) {
	importByEntityID(ctx, "rms_list", req, resp)
}

// MoveState takes an rms_resource of the collection "lists"
// (`moved { from = rms_resource.x  to = rms_list.x }`).
func (r *recipientListResource) MoveState(_ context.Context) []resource.StateMover {
	return []resource.StateMover{moveFromGeneric(typedMove{
		typeName:   "rms_list",
		collection: "lists",
		keys:       []string{"name", "description", "senderName", "senderEmail"},
		toState: func(ctx context.Context, src movedEntity, resp *resource.MoveStateResponse) {
			var l client.List
			if !src.decode(&l, "rms_list", &resp.Diagnostics) {
				return
			}
			m := listResourceToModel(&l, listResourceModel{listModel: listModel{
				Description: src.bodyString("description"),
				SenderName:  src.bodyString("senderName"),
				SenderEmail: src.bodyString("senderEmail"),
			}})
			saveWithIdentity(ctx, &resp.TargetState, resp.TargetIdentity, m, idIdentity(m.ID), &resp.Diagnostics)
		},
	})}
}

// listCRUD is the service's side of rms_list.
var listCRUD = namedEntityCRUD[listResourceModel, client.ListInput, client.List]{
	noun:    "list",
	fields:  listFields,
	id:      func(m listResourceModel) types.String { return m.ID },
	input:   func(m listResourceModel) client.ListInput { return listInput(m.listModel) },
	toModel: listResourceToModel,
	made: func(m listResourceModel, id string) listResourceModel {
		m.ID, m.DateCreated, m.DateModified = types.StringValue(id), timetypes.NewRFC3339Null(), timetypes.NewRFC3339Null()
		return m
	},
	createOnce: func(c *client.Client, ctx context.Context, in client.ListInput) (*client.List, error) {
		return c.Lists.CreateOnce(ctx, in)
	},
	get: func(c *client.Client, ctx context.Context, id string) (*client.List, error) {
		return c.Lists.Get(ctx, id)
	},
	update: func(c *client.Client, ctx context.Context, id string, in client.ListInput) (*client.List, error) {
		return c.Lists.Update(ctx, id, in)
	},
	remove: func(c *client.Client, ctx context.Context, id string) error { return c.Lists.Delete(ctx, id) },
	// Its contacts go with it: no refresh of this run may answer from a
	// listing of them.
	beforeDelete: func(d *providerData, id string) { d.contacts.Listings.ChangedList(id) },
}

func listInput(m listModel) client.ListInput {
	return client.ListInput{
		Name:        m.Name.ValueString(),
		Description: stringPointer(m.Description),
		SenderName:  stringPointer(m.SenderName),
		SenderEmail: stringPointer(m.SenderEmail),
	}
}
