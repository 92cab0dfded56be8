package provider

import (
	"context"
	"fmt"
	"regexp"

	"github.com/hashicorp/terraform-plugin-framework-validators/stringvalidator"
	"github.com/hashicorp/terraform-plugin-framework/attr"
	"github.com/hashicorp/terraform-plugin-framework/diag"
	"github.com/hashicorp/terraform-plugin-framework/path"
	"github.com/hashicorp/terraform-plugin-framework/schema/validator"
	"github.com/hashicorp/terraform-plugin-framework/types"
	"github.com/hashicorp/terraform-plugin-framework/types/basetypes"

	"github.com/rms-labs/terraform-provider-rms/internal/client"
	"github.com/rms-labs/terraform-provider-rms/internal/dynamic"
)

// The transactional message's arguments, shared by the
// rms_transactional_message resource and the rms_send_transactional_message
// action: their descriptions, validators and model, and the body they make.
// What sends it is operation.SendTransactionalMessage.

// The descriptions of the arguments both schemas declare.
const (
	messageTriggerIDDescription  = "Id of the trigger to send through, e.g. `rms_resource.order_trigger.id`. The trigger's `channel` (`EMAIL`, the default, or `SMS`) decides which recipient field is needed."
	messageRecipientDescription  = "Who receives the message. An EMAIL trigger needs `email`, an SMS trigger `mobile`."
	messageEmailDescription      = "E-mail address; required by EMAIL triggers."
	messageMobileDescription     = "Mobile number, digits with an optional leading `+`; required by SMS triggers."
	messageOriginalIDDescription = "The recipient's `originalId` when the recipient is a contact of a list."
	messagePropertiesDescription = "Values of the trigger's placeholders, by attribute name, e.g. `{ firstname = \"Ada\" }`."
	messageOrderRowsDescription  = "Rows for the trigger's order templating, as a list of HCL objects with any fields, e.g. `[{ sku = \"A1\", qty = 2, price = 9.5 }]`; " +
		"numbers and booleans keep their JSON types."
)

// transactionalMessageArgs are the send's arguments: the resource's model
// and the action's both embed them.
type transactionalMessageArgs struct {
	TriggerID  types.String    `tfsdk:"trigger_id"`
	Recipient  *recipientModel `tfsdk:"recipient"`
	Properties types.Map       `tfsdk:"properties"`
	OrderRows  types.Dynamic   `tfsdk:"order_rows"`
}

type recipientModel struct {
	Email      types.String `tfsdk:"email"`
	Mobile     types.String `tfsdk:"mobile"`
	OriginalID types.String `tfsdk:"original_id"`
}

// The validators of the arguments the resource and the action share.
var (
	triggerIDValidators       = []validator.String{stringvalidator.RegexMatches(regexp.MustCompile(`^[0-9]+$`), "must be the trigger's numeric id")}
	recipientEmailValidators  = []validator.String{stringvalidator.AtLeastOneOf(path.MatchRoot("recipient").AtName("mobile"))}
	recipientMobileValidators = []validator.String{stringvalidator.RegexMatches(regexp.MustCompile(`^\+?[0-9]{6,15}$`), "must be a mobile number: 6 to 15 digits, optionally with a leading +")}
	orderRowsValidators       = []validator.Dynamic{orderRowsValidator{}}
)

// body builds the send body from the arguments.
func (a transactionalMessageArgs) body(ctx context.Context) (client.TransactionalMessage, diag.Diagnostics) {
	recipient, properties, orderRows := a.Recipient, a.Properties, a.OrderRows
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
