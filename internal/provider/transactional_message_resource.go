package provider

import (
	"context"
	"errors"
	"fmt"
	"regexp"

	"github.com/hashicorp/terraform-plugin-framework-timetypes/timetypes"
	"github.com/hashicorp/terraform-plugin-framework-validators/stringvalidator"
	"github.com/hashicorp/terraform-plugin-framework/attr"
	"github.com/hashicorp/terraform-plugin-framework/diag"
	"github.com/hashicorp/terraform-plugin-framework/path"
	"github.com/hashicorp/terraform-plugin-framework/resource"
	"github.com/hashicorp/terraform-plugin-framework/resource/schema"
	"github.com/hashicorp/terraform-plugin-framework/resource/schema/dynamicplanmodifier"
	"github.com/hashicorp/terraform-plugin-framework/resource/schema/mapplanmodifier"
	"github.com/hashicorp/terraform-plugin-framework/resource/schema/objectplanmodifier"
	"github.com/hashicorp/terraform-plugin-framework/resource/schema/planmodifier"
	"github.com/hashicorp/terraform-plugin-framework/resource/schema/stringplanmodifier"
	"github.com/hashicorp/terraform-plugin-framework/schema/validator"
	"github.com/hashicorp/terraform-plugin-framework/types"
	"github.com/hashicorp/terraform-plugin-framework/types/basetypes"
	"github.com/hashicorp/terraform-plugin-log/tflog"

	"github.com/rms-labs/terraform-provider-rms/internal/client"
	"github.com/rms-labs/terraform-provider-rms/internal/dynamic"
)

// No ImportState and no resource identity (Terraform 1.12+), unlike every
// other managed resource: the service cannot read a sent message back, so
// there is no existing object an import or an identity could name, and no
// list resource finds any for `terraform query`.
var (
	_ resource.Resource              = &transactionalMessageResource{}
	_ resource.ResourceWithConfigure = &transactionalMessageResource{}
)

// NewTransactionalMessageResource returns rms_transactional_message: an
// action-like resource that sends one message through a trigger when it is
// created (or replaced).
func NewTransactionalMessageResource() resource.Resource { return &transactionalMessageResource{} }

type transactionalMessageResource struct {
	data *providerData
}

type transactionalMessageModel struct {
	ID         types.String      `tfsdk:"id"`
	TriggerID  types.String      `tfsdk:"trigger_id"`
	Recipient  *recipientModel   `tfsdk:"recipient"`
	Properties types.Map         `tfsdk:"properties"`
	OrderRows  types.Dynamic     `tfsdk:"order_rows"`
	Triggers   types.Map         `tfsdk:"triggers"`
	Channel    types.String      `tfsdk:"channel"`
	Status     types.String      `tfsdk:"status"`
	SentAt     timetypes.RFC3339 `tfsdk:"sent_at"`
}

type recipientModel struct {
	Email      types.String `tfsdk:"email"`
	Mobile     types.String `tfsdk:"mobile"`
	OriginalID types.String `tfsdk:"original_id"`
}

// messageFields maps the service's field names in a send body onto the
// attributes of the resource, for validation errors.
var messageFields = map[string]path.Path{
	"recipient":            path.Root("recipient"),
	"recipient.email":      path.Root("recipient").AtName("email"),
	"recipient.mobile":     path.Root("recipient").AtName("mobile"),
	"recipient.originalId": path.Root("recipient").AtName("original_id"),
	"properties":           path.Root("properties"),
	"orderRows":            path.Root("order_rows"),
}

// The validators of the arguments the resource and the action share.
var (
	triggerIDValidators       = []validator.String{stringvalidator.RegexMatches(regexp.MustCompile(`^[0-9]+$`), "must be the trigger's numeric id")}
	recipientEmailValidators  = []validator.String{stringvalidator.AtLeastOneOf(path.MatchRoot("recipient").AtName("mobile"))}
	recipientMobileValidators = []validator.String{stringvalidator.RegexMatches(regexp.MustCompile(`^\+?[0-9]{6,15}$`), "must be a mobile number: 6 to 15 digits, optionally with a leading +")}
	orderRowsValidators       = []validator.Dynamic{orderRowsValidator{}}
)

func (r *transactionalMessageResource) Metadata(_ context.Context, req resource.MetadataRequest, resp *resource.MetadataResponse) {
	resp.TypeName = req.ProviderTypeName + "_transactional_message"
}

func (r *transactionalMessageResource) Schema(_ context.Context, _ resource.SchemaRequest, resp *resource.SchemaResponse) {
	replace := []planmodifier.String{stringplanmodifier.RequiresReplace()}
	resp.Schema = schema.Schema{
		Description: "Sends one transactional message through a trigger (`POST /{customerid}/triggers/{id}/messages`) when created, and again, as a new message, whenever an argument or `triggers` changes (replacement). " +
			"Useful for a \"provisioning finished\" notice at the end of a pipeline. A sent message cannot be unsent: destroy only removes it from state, with a warning. " +
			"The service offers no way to read a sent message back, so this resource cannot be imported and does not detect drift.",
		Attributes: map[string]schema.Attribute{
			"id": schema.StringAttribute{
				Computed:      true,
				Description:   "Id of the sent message, given by the service.",
				PlanModifiers: []planmodifier.String{stringplanmodifier.UseStateForUnknown()},
			},
			"trigger_id": schema.StringAttribute{
				Required:      true,
				Description:   "Id of the trigger to send through, e.g. `rms_resource.order_trigger.id`. The trigger's `channel` (`EMAIL`, the default, or `SMS`) decides which recipient field is needed.",
				Validators:    triggerIDValidators,
				PlanModifiers: replace,
			},
			"recipient": schema.SingleNestedAttribute{
				Required:    true,
				Description: "Who receives the message. An EMAIL trigger needs `email`, an SMS trigger `mobile`.",
				Attributes: map[string]schema.Attribute{
					"email": schema.StringAttribute{
						Optional:    true,
						Description: "E-mail address; required by EMAIL triggers.",
						Validators:  recipientEmailValidators,
					},
					"mobile": schema.StringAttribute{
						Optional:    true,
						Description: "Mobile number, digits with an optional leading `+`; required by SMS triggers.",
						Validators:  recipientMobileValidators,
					},
					"original_id": schema.StringAttribute{
						Optional:    true,
						Description: "The recipient's `originalId` when the recipient is a contact of a list.",
					},
				},
				PlanModifiers: []planmodifier.Object{objectplanmodifier.RequiresReplace()},
			},
			"properties": schema.MapAttribute{
				Optional:      true,
				ElementType:   types.StringType,
				Description:   "Values of the trigger's placeholders, by attribute name, e.g. `{ firstname = \"Ada\" }`.",
				PlanModifiers: []planmodifier.Map{mapplanmodifier.RequiresReplace()},
			},
			"order_rows": schema.DynamicAttribute{
				Optional: true,
				Description: "Rows for the trigger's order templating, as a list of HCL objects with any fields, e.g. `[{ sku = \"A1\", qty = 2, price = 9.5 }]`; " +
					"numbers and booleans keep their JSON types.",
				Validators:    orderRowsValidators,
				PlanModifiers: []planmodifier.Dynamic{dynamicplanmodifier.RequiresReplace()},
			},
			"triggers": schema.MapAttribute{
				Optional:      true,
				ElementType:   types.StringType,
				Description:   "Arbitrary values; any change sends the message again (a new message). E.g. `{ release = var.version }` sends one notice per release.",
				PlanModifiers: []planmodifier.Map{mapplanmodifier.RequiresReplace()},
			},
			"channel": schema.StringAttribute{
				Computed:      true,
				Description:   "Channel the message went out on, `EMAIL` or `SMS`, as the trigger decided.",
				PlanModifiers: []planmodifier.String{stringplanmodifier.UseStateForUnknown()},
			},
			"status": schema.StringAttribute{
				Computed:      true,
				Description:   "Status the service reported for the send, e.g. `SENT`.",
				PlanModifiers: []planmodifier.String{stringplanmodifier.UseStateForUnknown()},
			},
			"sent_at": schema.StringAttribute{
				Computed:      true,
				CustomType:    timetypes.RFC3339Type{},
				Description:   "When the service sent the message (RFC 3339).",
				PlanModifiers: []planmodifier.String{stringplanmodifier.UseStateForUnknown()},
			},
		},
	}
}

func (r *transactionalMessageResource) Configure(_ context.Context, req resource.ConfigureRequest, resp *resource.ConfigureResponse) {
	r.data = configuredData(req.ProviderData, &resp.Diagnostics)
}

func (r *transactionalMessageResource) Create(ctx context.Context, req resource.CreateRequest, resp *resource.CreateResponse) {
	var plan transactionalMessageModel
	resp.Diagnostics.Append(req.Plan.Get(ctx, &plan)...)
	if resp.Diagnostics.HasError() || !requireClient(r.data, &resp.Diagnostics) {
		return
	}
	msg, diags := transactionalMessageFromModel(ctx, plan)
	resp.Diagnostics.Append(diags...)
	if resp.Diagnostics.HasError() {
		return
	}
	sent, diags := sendTransactionalMessage(ctx, r.data.client, plan.TriggerID.ValueString(), msg)
	resp.Diagnostics.Append(diags...)
	if sent == nil {
		return
	}
	// A service that answers a send with less (or nothing) leaves these
	// null: the message was sent all the same, and must not be sent again.
	plan.ID = nullIfEmpty(sent.ID.String())
	plan.Channel = nullIfEmpty(sent.Channel)
	plan.Status = nullIfEmpty(sent.Status)
	plan.SentAt = rfc3339(sent.SentAt)
	resp.Diagnostics.Append(resp.State.Set(ctx, plan)...)
}

// Read keeps the state: the service has no call that reads a sent message.
func (r *transactionalMessageResource) Read(ctx context.Context, req resource.ReadRequest, resp *resource.ReadResponse) {
	var state transactionalMessageModel
	resp.Diagnostics.Append(req.State.Get(ctx, &state)...)
	resp.Diagnostics.Append(resp.State.Set(ctx, state)...)
}

// Update is never planned (every argument replaces); it keeps what the
// send produced.
func (r *transactionalMessageResource) Update(ctx context.Context, req resource.UpdateRequest, resp *resource.UpdateResponse) {
	var plan, state transactionalMessageModel
	resp.Diagnostics.Append(req.Plan.Get(ctx, &plan)...)
	resp.Diagnostics.Append(req.State.Get(ctx, &state)...)
	plan.ID, plan.Channel, plan.Status, plan.SentAt = state.ID, state.Channel, state.Status, state.SentAt
	resp.Diagnostics.Append(resp.State.Set(ctx, plan)...)
}

// Delete only forgets: a sent message cannot be unsent.
func (r *transactionalMessageResource) Delete(ctx context.Context, req resource.DeleteRequest, resp *resource.DeleteResponse) {
	var state transactionalMessageModel
	resp.Diagnostics.Append(req.State.Get(ctx, &state)...)
	resp.Diagnostics.AddWarning("Transactional message only removed from state",
		fmt.Sprintf("Message %s was sent through trigger %s and cannot be unsent; destroying rms_transactional_message only removes it from Terraform state.",
			state.ID.ValueString(), state.TriggerID.ValueString()))
}

// transactionalMessageFromModel builds the send body from the resource's
// arguments.
func transactionalMessageFromModel(ctx context.Context, m transactionalMessageModel) (client.TransactionalMessage, diag.Diagnostics) {
	return transactionalMessageBody(ctx, m.Recipient, m.Properties, m.OrderRows)
}

// transactionalMessageBody builds a send body from the arguments the
// resource and the rms_send_transactional_message action share.
func transactionalMessageBody(ctx context.Context, recipient *recipientModel, properties types.Map, orderRows types.Dynamic) (client.TransactionalMessage, diag.Diagnostics) {
	var diags diag.Diagnostics
	msg := client.TransactionalMessage{}
	if recipient != nil {
		msg.Recipient = client.Recipient{
			Email:      recipient.Email.ValueString(),
			Mobile:     recipient.Mobile.ValueString(),
			OriginalID: recipient.OriginalID.ValueString(),
		}
	}
	if !properties.IsNull() {
		diags.Append(properties.ElementsAs(ctx, &msg.Properties, false)...)
	}
	if !orderRows.IsNull() && !orderRows.IsUnderlyingValueNull() {
		rows, err := dynamic.ValueToJSON(orderRows)
		if err != nil {
			diags.AddAttributeError(path.Root("order_rows"), "Invalid order_rows", err.Error())
			return msg, diags
		}
		list, _ := rows.([]any)
		for _, row := range list {
			obj, _ := row.(map[string]any)
			msg.OrderRows = append(msg.OrderRows, obj)
		}
	}
	return msg, diags
}

// sendTransactionalMessage sends one message through a trigger and turns
// the service's refusals into diagnostics on the arguments. It is the one
// send operation: the resource and the rms_send_transactional_message
// action both call it.
func sendTransactionalMessage(ctx context.Context, c *client.Client, triggerID string, msg client.TransactionalMessage) (*client.SentMessage, diag.Diagnostics) {
	var diags diag.Diagnostics
	sent, err := c.SendTransactionalMessage(ctx, triggerID, msg)
	switch {
	case errors.Is(err, client.ErrNotFound):
		diags.AddAttributeError(path.Root("trigger_id"), "Trigger not found",
			fmt.Sprintf("The service has no trigger with id %s, so nothing was sent. Create the trigger first (e.g. an rms_resource with collection = \"triggers\") and pass its id.\n\n%s", triggerID, err))
		return nil, diags
	case err != nil:
		addAPIError(&diags, "Unable to send the transactional message", err, messageFields)
		return nil, diags
	}
	tflog.Info(ctx, "sent transactional message", map[string]any{"trigger_id": triggerID, "message_id": sent.ID.String(), "channel": sent.Channel})
	return sent, diags
}

// orderRowsValidator requires a list or tuple of objects (or maps).
type orderRowsValidator struct{}

func (orderRowsValidator) Description(context.Context) string {
	return "must be a list of objects"
}

func (v orderRowsValidator) MarkdownDescription(ctx context.Context) string {
	return v.Description(ctx)
}

func (orderRowsValidator) ValidateDynamic(_ context.Context, req validator.DynamicRequest, resp *validator.DynamicResponse) {
	if req.ConfigValue.IsNull() || req.ConfigValue.IsUnknown() || req.ConfigValue.IsUnderlyingValueNull() || req.ConfigValue.IsUnderlyingValueUnknown() {
		return
	}
	var elems []attr.Value
	switch v := req.ConfigValue.UnderlyingValue().(type) {
	case basetypes.TupleValue:
		elems = v.Elements()
	case basetypes.ListValue:
		elems = v.Elements()
	default:
		resp.Diagnostics.AddAttributeError(req.Path, "order_rows must be a list of objects",
			"Write order_rows as a list of objects, e.g. [{ sku = \"A1\", qty = 2 }], not a JSON string or a single object.")
		return
	}
	for i, e := range elems {
		if e.IsNull() || e.IsUnknown() {
			continue
		}
		switch e.(type) {
		case basetypes.ObjectValue, basetypes.MapValue:
		default:
			resp.Diagnostics.AddAttributeError(req.Path, "order_rows must be a list of objects",
				fmt.Sprintf("Row %d is not an object; each row is an object such as { sku = \"A1\", qty = 2 }.", i))
		}
	}
}
