package provider

import (
	"fmt"

	"github.com/hashicorp/terraform-plugin-framework-validators/float64validator"
	"github.com/hashicorp/terraform-plugin-framework-validators/int64validator"
	actionschema "github.com/hashicorp/terraform-plugin-framework/action/schema"
	providerschema "github.com/hashicorp/terraform-plugin-framework/provider/schema"
	resourceschema "github.com/hashicorp/terraform-plugin-framework/resource/schema"
	"github.com/hashicorp/terraform-plugin-framework/schema/validator"
)

// The guardrail's attributes, as the provider block, the resources and the
// action declare them.

// unsubscribeRuleDescription is the rule both limits share, said once: the
// details (shares of subscribers, statuses the service does not show,
// creates, destroys, saved plans) are in the large-lists guide.
const unsubscribeRuleDescription = "A plan that unsubscribes, on e-mail or on mobile, more than `max_unsubscribe` contacts **and** more than `max_unsubscribe_percent` of that channel's subscribers fails before anything is written; raising either lets it through. See the guide \"Large lists\" (Guardrail on mass unsubscription)."

func maxUnsubscribeDescription(scope, fallback string) string {
	return fmt.Sprintf("The number of contacts %s may unsubscribe or remove whatever their share of the list. When not set: %s ", scope, fallback) + unsubscribeRuleDescription
}

func maxUnsubscribePercentDescription(scope, fallback string) string {
	return fmt.Sprintf("The share, in percent (0 to 100), of a channel's subscribers (of the list's contacts, for a removal) %s may unsubscribe or remove whatever their number. When not set: %s ", scope, fallback) + unsubscribeRuleDescription
}

const (
	resourceLimitFallback = "the provider block's value, else `%v`. A destroy reads it from the state: raise it with an apply first."
	actionLimitFallback   = "the provider block's value, else `%v`."
)

var (
	maxUnsubscribeValidators        = []validator.Int64{int64validator.AtLeast(0)}
	maxUnsubscribePercentValidators = []validator.Float64{float64validator.Between(0, 100)}
)

// guardrailResourceAttributes adds max_unsubscribe and
// max_unsubscribe_percent to a resource schema. No default: null means not
// set here.
func guardrailResourceAttributes(attrs map[string]resourceschema.Attribute, scope string) map[string]resourceschema.Attribute {
	attrs[attrMaxUnsubscribe] = resourceschema.Int64Attribute{
		Optional:    true,
		Description: maxUnsubscribeDescription(scope, fmt.Sprintf(resourceLimitFallback, defaultMaxUnsubscribe)),
		Validators:  maxUnsubscribeValidators,
	}
	attrs[attrMaxUnsubscribePercent] = resourceschema.Float64Attribute{
		Optional:    true,
		Description: maxUnsubscribePercentDescription(scope, fmt.Sprintf(resourceLimitFallback, defaultMaxUnsubscribePercent)),
		Validators:  maxUnsubscribePercentValidators,
	}
	return attrs
}

// guardrailActionAttributes is guardrailResourceAttributes for an action.
func guardrailActionAttributes(attrs map[string]actionschema.Attribute) map[string]actionschema.Attribute {
	attrs[attrMaxUnsubscribe] = actionschema.Int64Attribute{
		Optional:    true,
		Description: maxUnsubscribeDescription("one invocation", fmt.Sprintf(actionLimitFallback, defaultMaxUnsubscribe)),
		Validators:  maxUnsubscribeValidators,
	}
	attrs[attrMaxUnsubscribePercent] = actionschema.Float64Attribute{
		Optional:    true,
		Description: maxUnsubscribePercentDescription("one invocation", fmt.Sprintf(actionLimitFallback, defaultMaxUnsubscribePercent)),
		Validators:  maxUnsubscribePercentValidators,
	}
	return attrs
}

// guardrailProviderAttributes adds the provider-wide limits.
func guardrailProviderAttributes(attrs map[string]providerschema.Attribute) map[string]providerschema.Attribute {
	attrs[attrMaxUnsubscribe] = providerschema.Int64Attribute{
		Optional: true,
		Description: maxUnsubscribeDescription("a plan of `rms_list_contacts` (`exclusive`, a destroy with `on_destroy = \"unsubscribe\"`), `rms_list_import` or `rms_run_list_import` (`UNSUBSCRIBE`, `REPLACE`)",
			fmt.Sprintf("`%d`. A resource's or action's own `max_unsubscribe` takes precedence.", defaultMaxUnsubscribe)),
		Validators: maxUnsubscribeValidators,
	}
	attrs[attrMaxUnsubscribePercent] = providerschema.Float64Attribute{
		Optional: true,
		Description: maxUnsubscribePercentDescription("a plan of `rms_list_contacts`, `rms_list_import` or `rms_run_list_import`",
			fmt.Sprintf("`%v`. A resource's or action's own `max_unsubscribe_percent` takes precedence.", defaultMaxUnsubscribePercent)),
		Validators: maxUnsubscribePercentValidators,
	}
	return attrs
}
