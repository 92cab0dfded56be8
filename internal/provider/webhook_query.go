package provider

import (
	"context"
	"slices"
	"strings"

	"github.com/hashicorp/terraform-plugin-framework-validators/stringvalidator"
	"github.com/hashicorp/terraform-plugin-framework/diag"
	"github.com/hashicorp/terraform-plugin-framework/list"
	"github.com/hashicorp/terraform-plugin-framework/list/schema"
	"github.com/hashicorp/terraform-plugin-framework/resource"
	"github.com/hashicorp/terraform-plugin-framework/schema/validator"
	"github.com/hashicorp/terraform-plugin-framework/types"

	"github.com/rms-labs/terraform-provider-rms/internal/client"
)

var (
	_ list.ListResource              = &webhookQuery{}
	_ list.ListResourceWithConfigure = &webhookQuery{}
)

// NewWebhookQuery returns the rms_webhook list resource, which
// `terraform query` uses to find the account's webhooks.
func NewWebhookQuery() list.ListResource { return &webhookQuery{} }

type webhookQuery struct {
	data *providerData
}

type webhookQueryConfig struct {
	Event  types.String `tfsdk:"event"`
	Active types.Bool   `tfsdk:"active"`
}

func (r *webhookQuery) Metadata(_ context.Context, req resource.MetadataRequest, resp *resource.MetadataResponse) {
	resp.TypeName = req.ProviderTypeName + "_webhook"
}

func (r *webhookQuery) ListResourceConfigSchema(_ context.Context, _ list.ListResourceSchemaRequest, resp *list.ListResourceSchemaResponse) {
	resp.Schema = schema.Schema{
		Description: "Finds the account's webhooks for `terraform query` (Terraform 1.14+): each result is a webhook's identity (`id`), its URL and event kinds as display name and, with `include_resource` or `-generate-config-out`, the whole `rms_webhook`. " +
			"The service never returns a webhook's secret, so generated configuration has none: a webhook that has one (`has_secret`) keeps it, and Terraform manages it once the configuration sets `secret_wo` or `secret`.",
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

func (r *webhookQuery) Configure(_ context.Context, req resource.ConfigureRequest, resp *resource.ConfigureResponse) {
	r.data = configuredData(req.ProviderData, &resp.Diagnostics)
}

func (r *webhookQuery) List(ctx context.Context, req list.ListRequest, stream *list.ListResultsStream) {
	var cfg webhookQueryConfig
	if s := listConfigStream(ctx, req, &cfg, r.data); s != nil {
		stream.Results = s
		return
	}
	match := func(w client.Webhook) bool {
		if !cfg.Event.IsNull() && !slices.Contains(w.Events, cfg.Event.ValueString()) {
			return false
		}
		return cfg.Active.IsNull() || cfg.Active.ValueBool() == w.Active
	}
	filtered := !cfg.Event.IsNull() || !cfg.Active.IsNull()
	stream.Results = streamResults(ctx, req, "Unable to list webhooks", func(ctx context.Context, e *resultEmitter) error {
		return r.data.client.EachWebhookPage(ctx, queryPageSize(req.Limit, filtered), func(page []client.Webhook) error {
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
