package provider

import (
	"context"
	"fmt"
	"time"

	"github.com/hashicorp/terraform-plugin-framework/action"
	"github.com/hashicorp/terraform-plugin-framework/action/schema"
	"github.com/hashicorp/terraform-plugin-framework/types"

	"github.com/rms-labs/terraform-provider-rms/internal/provider/operation"
)

var (
	_ action.Action              = &sendTransactionalMessageAction{}
	_ action.ActionWithConfigure = &sendTransactionalMessageAction{}
)

// NewSendTransactionalMessageAction returns rms_send_transactional_message:
// what the rms_transactional_message resource does on create, without
// state, sent once per invocation.
func NewSendTransactionalMessageAction() action.Action { return &sendTransactionalMessageAction{} }

type sendTransactionalMessageAction struct {
	data *providerData
}

type sendTransactionalMessageModel struct {
	transactionalMessageArgs // trigger_id, recipient, properties, order_rows
}

const sendMessageActionType = "rms_send_transactional_message"

func (a *sendTransactionalMessageAction) Metadata(_ context.Context, req action.MetadataRequest, resp *action.MetadataResponse) {
	resp.TypeName = req.ProviderTypeName + "_send_transactional_message"
}

func (a *sendTransactionalMessageAction) Schema(_ context.Context, _ action.SchemaRequest, resp *action.SchemaResponse) {
	resp.Schema = schema.Schema{
		Description: "Sends one transactional message through a trigger (`POST /{customerid}/triggers/{id}/messages`) each time it is invoked, with `terraform apply -invoke` or from an `action_trigger`: the send of the `rms_transactional_message` resource, without state (Terraform 1.14+). " +
			"A send that gets no answer fails with \"Transactional message outcome unknown\": check the service's reports before invoking it again, which sends another message. " +
			"See the guide \"Bulk imports and exports\" (Actions and the lifecycle events they suit).",
		Attributes: map[string]schema.Attribute{
			"trigger_id": schema.StringAttribute{
				Required:    true,
				Description: messageTriggerIDDescription,
				Validators:  triggerIDValidators,
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
			},
			"properties": schema.MapAttribute{
				Optional:    true,
				ElementType: types.StringType,
				Description: messagePropertiesDescription,
			},
			"order_rows": schema.DynamicAttribute{
				Optional:    true,
				Description: messageOrderRowsDescription,
				Validators:  orderRowsValidators,
			},
		},
	}
}

func (a *sendTransactionalMessageAction) Configure(_ context.Context, req action.ConfigureRequest, resp *action.ConfigureResponse) {
	a.data = configuredData(req.ProviderData, &resp.Diagnostics)
}

func (a *sendTransactionalMessageAction) Invoke(ctx context.Context, req action.InvokeRequest, resp *action.InvokeResponse) {
	var diags = &resp.Diagnostics
	defer func() { resp.Diagnostics = nameAction(sendMessageActionType, resp.Diagnostics) }()
	var cfg sendTransactionalMessageModel
	diags.Append(req.Config.Get(ctx, &cfg)...)
	if diags.HasError() || !requireClient(a.data, diags) {
		return
	}
	msg, d := cfg.body(ctx)
	diags.Append(d...)
	if diags.HasError() {
		return
	}
	started := time.Now()
	sent, d, unknown := operation.SendTransactionalMessage(ctx, a.data.client, cfg.TriggerID.ValueString(), msg)
	diags.Append(d...)
	if unknown != nil {
		// An error, as for any failed action, but one that says the
		// message may be out: invoking the action again may send it twice.
		diags.AddError("Transactional message outcome unknown",
			fmt.Sprintf("The send through trigger %s got no answer: %s\n\nThe service may have sent the message. Do not invoke the action again before checking: it would send a second message if the first went out. %s",
				cfg.TriggerID.ValueString(), unknown, operation.UnknownOutcomeCheck(cfg.TriggerID.ValueString(), msg.Recipient, started)))
		return
	}
	if sent == nil {
		return
	}
	sendProgress(resp, fmt.Sprintf("%s: sent message %s through trigger %s (%s, %s)", sendMessageActionType, sent.ID.String(), cfg.TriggerID.ValueString(), sent.Channel, sent.Status))
}
