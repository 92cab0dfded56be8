package provider

import (
	"context"
	"fmt"
	"time"

	"github.com/hashicorp/terraform-plugin-framework-timetypes/timetypes"
	"github.com/hashicorp/terraform-plugin-framework/resource"
	"github.com/hashicorp/terraform-plugin-framework/resource/schema"
	"github.com/hashicorp/terraform-plugin-framework/resource/schema/dynamicplanmodifier"
	"github.com/hashicorp/terraform-plugin-framework/resource/schema/mapplanmodifier"
	"github.com/hashicorp/terraform-plugin-framework/resource/schema/objectplanmodifier"
	"github.com/hashicorp/terraform-plugin-framework/resource/schema/planmodifier"
	"github.com/hashicorp/terraform-plugin-framework/resource/schema/stringplanmodifier"
	"github.com/hashicorp/terraform-plugin-framework/types"

	"github.com/rms-labs/terraform-provider-rms/internal/provider/operation"
)

// No ImportState and no resource identity (Terraform 1.12+), unlike every
// other managed resource: the service cannot read a sent message back, so
// there is no existing object an import or an identity could name, and no
// list resource finds any for `terraform query`.
var (
	_ resource.Resource               = &transactionalMessageResource{}
	_ resource.ResourceWithConfigure  = &transactionalMessageResource{}
	_ resource.ResourceWithModifyPlan = &transactionalMessageResource{}
)

// NewTransactionalMessageResource returns rms_transactional_message: an
// action-like resource that sends one message through a trigger when it is
// created (or replaced).
func NewTransactionalMessageResource() resource.Resource { return &transactionalMessageResource{} }

type transactionalMessageResource struct {
	data *providerData
}

type transactionalMessageModel struct {
	ID                       types.String      `tfsdk:"id"`
	transactionalMessageArgs                   // trigger_id, recipient, properties, order_rows
	Triggers                 types.Map         `tfsdk:"triggers"`
	Channel                  types.String      `tfsdk:"channel"`
	Status                   types.String      `tfsdk:"status"`
	SentAt                   timetypes.RFC3339 `tfsdk:"sent_at"`
	Outcome                  types.String      `tfsdk:"outcome"`
}

func (r *transactionalMessageResource) Metadata(_ context.Context, req resource.MetadataRequest, resp *resource.MetadataResponse) {
	resp.TypeName = req.ProviderTypeName + "_transactional_message"
}

func (r *transactionalMessageResource) Schema(_ context.Context, _ resource.SchemaRequest, resp *resource.SchemaResponse) {
	replace := []planmodifier.String{stringplanmodifier.RequiresReplace()}
	resp.Schema = schema.Schema{
		Description: "Sends one transactional message through a trigger (`POST /{customerid}/triggers/{id}/messages`) when created, and again, as a new message, whenever an argument or `triggers` changes (replacement); destroy only removes it from state. " +
			"A sent message cannot be read back, so this resource cannot be imported and does not detect drift. " +
			"A send whose outcome is unknown is kept with `outcome = \"unknown\"` and never sent again by a plain retry (see When the outcome is unknown on this page).",
		Attributes: map[string]schema.Attribute{
			"id": schema.StringAttribute{
				Computed:      true,
				Description:   "Id of the sent message, given by the service.",
				PlanModifiers: []planmodifier.String{stringplanmodifier.UseStateForUnknown()},
			},
			"trigger_id": schema.StringAttribute{
				Required:      true,
				Description:   messageTriggerIDDescription,
				Validators:    triggerIDValidators,
				PlanModifiers: replace,
			},
			"recipient": schema.SingleNestedAttribute{
				Required:    true,
				Description: messageRecipientDescription,
				Attributes: map[string]schema.Attribute{
					"email": schema.StringAttribute{
						Optional:    true,
						Description: messageEmailDescription,
						Validators:  recipientEmailValidators,
					},
					"mobile": schema.StringAttribute{
						Optional:    true,
						Description: messageMobileDescription,
						Validators:  recipientMobileValidators,
					},
					"original_id": schema.StringAttribute{
						Optional:    true,
						Description: messageOriginalIDDescription,
					},
				},
				PlanModifiers: []planmodifier.Object{objectplanmodifier.RequiresReplace()},
			},
			"properties": schema.MapAttribute{
				Optional:      true,
				ElementType:   types.StringType,
				Description:   messagePropertiesDescription,
				PlanModifiers: []planmodifier.Map{mapplanmodifier.RequiresReplace()},
			},
			"order_rows": schema.DynamicAttribute{
				Optional:      true,
				Description:   messageOrderRowsDescription,
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
			"outcome": schema.StringAttribute{
				Computed: true,
				Description: "`" + outcomeSent + "` when the service answered that it sent the message; `" + outcomeUnknown + "` when no answer came (the connection dropped, a gateway failed): the service may have sent it. " +
					"An unknown outcome keeps the message in the state, so that a retry of the apply does not send it twice; every plan warns until you check the service's reports and, only if it was not sent, replace it (`terraform apply -replace`).",
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
	plan, ok := readModel[transactionalMessageModel](ctx, req.Plan, r.data, &resp.Diagnostics)
	if !ok {
		return
	}
	msg, diags := plan.body(ctx)
	resp.Diagnostics.Append(diags...)
	if resp.Diagnostics.HasError() {
		return
	}
	started := time.Now()
	sent, diags, unknown := operation.SendTransactionalMessage(ctx, r.data.client, plan.TriggerID.ValueString(), msg)
	resp.Diagnostics.Append(diags...)
	if unknown != nil {
		// Kept, with a warning: an error would make Terraform taint the
		// resource (or keep nothing), and the next apply would send the
		// message again.
		plan.ID, plan.Channel, plan.Status, plan.SentAt = types.StringNull(), types.StringNull(), types.StringNull(), timetypes.NewRFC3339Null()
		plan.Outcome = types.StringValue(outcomeUnknown)
		resp.Diagnostics.AddWarning("Transactional message outcome unknown",
			fmt.Sprintf("The send through trigger %s got no answer: %s\n\nThe service may have sent the message. It is kept in the state with outcome = %q, so that applying again does not send it a second time. %s\n\n%s",
				plan.TriggerID.ValueString(), unknown, outcomeUnknown, operation.UnknownOutcomeCheck(plan.TriggerID.ValueString(), msg.Recipient, started), unknownOutcomeNext))
		resp.Diagnostics.Append(noteUnknownSince(ctx, resp.Private, started)...)
		resp.Diagnostics.Append(resp.State.Set(ctx, plan)...)
		return
	}
	if sent == nil {
		return
	}
	// A service that answers a send with less (or nothing) leaves these
	// null: the message was sent all the same, and must not be sent again.
	plan.ID = nullIfEmpty(sent.ID.String())
	plan.Channel = nullIfEmpty(sent.Channel)
	plan.Status = nullIfEmpty(sent.Status)
	plan.SentAt = rfc3339(sent.SentAt)
	plan.Outcome = types.StringValue(outcomeSent)
	resp.Diagnostics.Append(resp.State.Set(ctx, plan)...)
}

// ModifyPlan repeats, on every plan, that a message's outcome is unknown:
// the state keeps it so that nothing sends it again on its own, and the
// user has to check and decide.
func (r *transactionalMessageResource) ModifyPlan(ctx context.Context, req resource.ModifyPlanRequest, resp *resource.ModifyPlanResponse) {
	if req.State.Raw.IsNull() || req.Plan.Raw.IsNull() {
		return
	}
	var state transactionalMessageModel
	if resp.Diagnostics.Append(req.State.Get(ctx, &state)...); resp.Diagnostics.HasError() || state.Outcome.ValueString() != outcomeUnknown {
		return
	}
	resp.Diagnostics.AddWarning("Transactional message outcome unknown",
		fmt.Sprintf("An earlier apply sent a message through trigger %s and got no answer, so the service may have sent it (outcome = %q). "+
			"It is not sent again unless this plan replaces the resource (a changed argument or `triggers`, or `-replace`). %s\n\n%s",
			state.TriggerID.ValueString(), outcomeUnknown, operation.UnknownOutcomeCheck(state.TriggerID.ValueString(), state.recipient(), unknownSince(ctx, req.Private)), unknownOutcomeNext))
}

// Read keeps the state: the service has no call that reads a sent message.
func (r *transactionalMessageResource) Read(ctx context.Context, req resource.ReadRequest, resp *resource.ReadResponse) {
	var state transactionalMessageModel
	resp.Diagnostics.Append(req.State.Get(ctx, &state)...)
	if state.Outcome.IsNull() {
		// Saved before outcome existed: only sent messages were kept then.
		state.Outcome = types.StringValue(outcomeSent)
	}
	resp.Diagnostics.Append(resp.State.Set(ctx, state)...)
}

// Update is never planned (every argument replaces); it keeps what the
// send produced.
func (r *transactionalMessageResource) Update(ctx context.Context, req resource.UpdateRequest, resp *resource.UpdateResponse) {
	var plan, state transactionalMessageModel
	resp.Diagnostics.Append(req.Plan.Get(ctx, &plan)...)
	resp.Diagnostics.Append(req.State.Get(ctx, &state)...)
	plan.ID, plan.Channel, plan.Status, plan.SentAt, plan.Outcome = state.ID, state.Channel, state.Status, state.SentAt, state.Outcome
	resp.Diagnostics.Append(resp.State.Set(ctx, plan)...)
}

// Delete only forgets: a sent message cannot be unsent.
func (r *transactionalMessageResource) Delete(ctx context.Context, req resource.DeleteRequest, resp *resource.DeleteResponse) {
	var state transactionalMessageModel
	resp.Diagnostics.Append(req.State.Get(ctx, &state)...)
	if state.Outcome.ValueString() == outcomeUnknown {
		resp.Diagnostics.AddWarning("Transactional message only removed from state",
			fmt.Sprintf("The message through trigger %s, whose outcome is unknown (it may have been sent), is only removed from Terraform state: a sent message cannot be unsent.", state.TriggerID.ValueString()))
		return
	}
	resp.Diagnostics.AddWarning("Transactional message only removed from state",
		fmt.Sprintf("Message %s was sent through trigger %s and cannot be unsent; destroying rms_transactional_message only removes it from Terraform state.",
			state.ID.ValueString(), state.TriggerID.ValueString()))
}
