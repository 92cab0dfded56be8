package provider

import (
	"context"
	"iter"
	"slices"
	"strings"

	"github.com/hashicorp/terraform-plugin-framework-validators/stringvalidator"
	"github.com/hashicorp/terraform-plugin-framework/diag"
	"github.com/hashicorp/terraform-plugin-framework/list"
	"github.com/hashicorp/terraform-plugin-framework/list/schema"
	"github.com/hashicorp/terraform-plugin-framework/schema/validator"
	"github.com/hashicorp/terraform-plugin-framework/types"

	"github.com/rms-labs/terraform-provider-rms/internal/client"
)

type webhookQueryConfig struct {
	Event  types.String `tfsdk:"event"`
	Active types.Bool   `tfsdk:"active"`
}

// NewWebhookQuery returns the rms_webhook list resource, which
// `terraform query` uses to find the account's webhooks.
func NewWebhookQuery() list.ListResource { return &configuredQuery[webhookQueryConfig]{} }

var (
	_ list.ListResource              = &configuredQuery[webhookQueryConfig]{}
	_ list.ListResourceWithConfigure = &configuredQuery[webhookQueryConfig]{}
)

func (webhookQueryConfig) describe() (string, schema.Schema) {
	return "_webhook", schema.Schema{
		Description: "Finds the account's webhooks for `terraform query` (Terraform 1.14+): each result is a webhook's identity (`id`), its URL and event kinds as display name and, with `include_resource` or `-generate-config-out`, the whole `rms_webhook`. The service never returns a webhook's secret, so generated configuration has none: a webhook that has one (`has_secret`) keeps it, and Terraform manages it once the configuration sets `secret_wo` or `secret`.",
		Attributes: map[string]schema.Attribute{
			"event": schema.StringAttribute{
				Optional:    true,
				Description: "Only webhooks that receive this event kind, one of `" + joinTicks(webhookEvents) + "`.",
				Validators:  []validator.String{stringvalidator.OneOf(webhookEvents...)},
			},
			"active": schema.BoolAttribute{
				Optional:    true,
				Description: "Only active webhooks (`true`) or only inactive ones (`false`). Leave it out to find both.",
			},
		},
	}
}

func (cfg webhookQueryConfig) results(ctx context.Context, d *providerData, req list.ListRequest) iter.Seq[list.ListResult] {
	match := func(w client.Webhook) bool {
		if !cfg.Event.IsNull() && !slices.Contains(w.Events, cfg.Event.ValueString()) {
			return false
		}
		return cfg.Active.IsNull() || cfg.Active.ValueBool() == w.Active
	}
	filtered := !cfg.Event.IsNull() || !cfg.Active.IsNull()
	return streamResults(ctx, req, "Unable to list webhooks", func(ctx context.Context, e *resultEmitter) error {
		return d.client.Webhooks.EachPage(ctx, queryPageSize(req.Limit, filtered), func(page []client.Webhook) error {
			for _, w := range page {
				if !match(w) {
					continue
				}
				display := w.URL + " (" + strings.Join(w.Events, ", ") + ")"
				err := e.emit(display, map[string]string{"id": w.ID.String()}, func() (any, diag.Diagnostics) {
					var diags diag.Diagnostics
					m := webhookToModel(ctx, &w, webhookModel{}, &diags)
					return m, diags
				})
				if err != nil {
					return err
				}
			}
			return nil
		})
	})
}
