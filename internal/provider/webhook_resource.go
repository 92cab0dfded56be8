package provider

import (
	"context"
	"errors"
	"fmt"
	"net/url"
	"strings"
	"unicode"

	"github.com/hashicorp/terraform-plugin-framework-timetypes/timetypes"
	"github.com/hashicorp/terraform-plugin-framework-validators/int64validator"
	"github.com/hashicorp/terraform-plugin-framework-validators/setvalidator"
	"github.com/hashicorp/terraform-plugin-framework-validators/stringvalidator"
	"github.com/hashicorp/terraform-plugin-framework/diag"
	"github.com/hashicorp/terraform-plugin-framework/path"
	"github.com/hashicorp/terraform-plugin-framework/resource"
	"github.com/hashicorp/terraform-plugin-framework/resource/schema"
	"github.com/hashicorp/terraform-plugin-framework/resource/schema/booldefault"
	"github.com/hashicorp/terraform-plugin-framework/schema/validator"
	"github.com/hashicorp/terraform-plugin-framework/tfsdk"
	"github.com/hashicorp/terraform-plugin-framework/types"
	"github.com/hashicorp/terraform-plugin-log/tflog"

	"github.com/rms-labs/terraform-provider-rms/internal/client"
)

var (
	_ resource.Resource                = &webhookResource{}
	_ resource.ResourceWithConfigure   = &webhookResource{}
	_ resource.ResourceWithImportState = &webhookResource{}
	_ resource.ResourceWithIdentity    = &webhookResource{}
	_ resource.ResourceWithMoveState   = &webhookResource{}
)

// NewWebhookResource returns the rms_webhook resource.
func NewWebhookResource() resource.Resource { return &webhookResource{} }

type webhookResource struct {
	data *providerData
}

var webhookFields = map[string]path.Path{
	"url":         path.Root("url"),
	"events":      path.Root("events"),
	"active":      path.Root("active"),
	"description": path.Root("description"),
	"secret":      path.Root("secret"),
}

func (r *webhookResource) Metadata(_ context.Context, req resource.MetadataRequest, resp *resource.MetadataResponse) {
	resp.TypeName = req.ProviderTypeName + "_webhook"
}

func (r *webhookResource) Schema(_ context.Context, _ resource.SchemaRequest, resp *resource.SchemaResponse) {
	resp.Schema = schema.Schema{
		Description: "A webhook of the account: the service POSTs a signed JSON delivery to `url` for each event kind in `events`. " +
			"The secret is write-only on the service: it is never read back, so a secret changed outside Terraform is not detected. " +
			"See Events and deliveries, The secret and Moving from rms_resource on this page.",
		Attributes: map[string]schema.Attribute{
			"id": idAttribute("webhook"),
			"url": schema.StringAttribute{
				Required:    true,
				Description: "Where deliveries are POSTed: an absolute `https://` URL, or `http://` to a loopback address (127.0.0.1, ::1, localhost) for local receivers. A URL with a space or a control character is refused at plan time (write a space as `%20`), as the service refuses it.",
				Validators:  []validator.String{webhookURLValidator{}},
			},
			"events": schema.SetAttribute{
				Required:    true,
				ElementType: types.StringType,
				Description: "The event kinds this webhook receives, at least one of: `" + joinTicks(webhookEvents) + "`.",
				Validators: []validator.Set{
					setvalidator.SizeAtLeast(1),
					setvalidator.ValueStringsAre(stringvalidator.OneOf(webhookEvents...)),
				},
			},
			"active": schema.BoolAttribute{
				Optional:    true,
				Computed:    true,
				Default:     booldefault.StaticBool(true),
				Description: "Deliveries are made only while the webhook is active. Defaults to `true`.",
			},
			"description": schema.StringAttribute{
				Optional:    true,
				Description: "Free-text description. Removing it from the configuration removes it from the webhook.",
			},
			"secret": schema.StringAttribute{
				Optional:  true,
				Sensitive: true,
				Description: "Shared secret that keys the `X-RMS-Signature` HMAC of every delivery. Write-only on the service: it is kept in state from the configuration and never read back. " +
					"Removing it removes the secret from the webhook. On Terraform 1.11 and later prefer `secret_wo`, which never reaches state.",
				Validators: nonEmptyAnd(stringvalidator.ConflictsWith(path.MatchRoot("secret_wo"))),
			},
			"secret_wo": schema.StringAttribute{
				Optional:  true,
				Sensitive: true,
				WriteOnly: true,
				Description: "Write-only form of `secret` (Terraform 1.11 and later): sent to the service but never stored in state or plan. " +
					"Because Terraform cannot compare it, it is sent on create and whenever `secret_wo_version` changes: change the version to rotate the secret.",
				Validators: nonEmptyAnd(stringvalidator.AlsoRequires(path.MatchRoot("secret_wo_version"))),
			},
			"secret_wo_version": schema.Int64Attribute{
				Optional:    true,
				Description: "Version of `secret_wo`; any change sends the current `secret_wo` to the service. Required with `secret_wo`.",
				Validators: []validator.Int64{
					int64validator.AlsoRequires(path.MatchRoot("secret_wo")),
				},
			},
			"has_secret": schema.BoolAttribute{
				Computed:    true,
				Description: "Whether the service holds a secret for this webhook (the only thing it tells about the secret).",
			},
			"date_created":  dateCreatedAttribute("webhook"),
			"date_modified": dateModifiedAttribute("webhook"),
		},
	}
}

// IdentitySchema: a webhook is identified by its id (Terraform 1.12+).
func (r *webhookResource) IdentitySchema(_ context.Context, _ resource.IdentitySchemaRequest, resp *resource.IdentitySchemaResponse) {
	resp.IdentitySchema = idIdentitySchema("webhook")
}

func (r *webhookResource) Configure(_ context.Context, req resource.ConfigureRequest, resp *resource.ConfigureResponse) {
	r.data = configuredData(req.ProviderData, &resp.Diagnostics)
}

func (r *webhookResource) Create(ctx context.Context, req resource.CreateRequest, resp *resource.CreateResponse) {
	var plan webhookModel
	resp.Diagnostics.Append(req.Plan.Get(ctx, &plan)...)
	in, secretWO, ok := r.input(ctx, req.Config, plan, &resp.Diagnostics)
	if !ok {
		return
	}
	if !plan.Secret.IsNull() {
		in.Secret = stringPointer(plan.Secret)
	} else if secretWO != nil {
		in.Secret = secretWO
	}
	w, err := r.data.client.Webhooks.CreateOnce(ctx, in)
	if err != nil {
		if id, made := client.MadeID(err); made {
			plan.ID, plan.DateCreated, plan.DateModified = types.StringValue(id), timetypes.NewRFC3339Null(), timetypes.NewRFC3339Null()
			plan.HasSecret = types.BoolValue(in.Secret != nil)
			saveMade(ctx, &resp.State, resp.Identity, plan, idIdentity(plan.ID), &resp.Diagnostics)
		}
		addAPIError(&resp.Diagnostics, "Unable to create webhook", err, webhookFields)
		return
	}
	tflog.Info(ctx, "created webhook", map[string]any{"id": w.ID.String()})
	saveWebhook(ctx, w, plan, &resp.State, resp.Identity, &resp.Diagnostics)
}

func (r *webhookResource) Read(ctx context.Context, req resource.ReadRequest, resp *resource.ReadResponse) {
	state, ok := readModel[webhookModel](ctx, req.State, r.data, &resp.Diagnostics)
	if !ok {
		return
	}
	w, err := r.data.client.Webhooks.Get(ctx, state.ID.ValueString())
	if errors.Is(err, client.ErrNotFound) {
		tflog.Info(ctx, "webhook is gone; removing it from state", map[string]any{"id": state.ID.ValueString()})
		removeGone(ctx, resp, idIdentity(state.ID))
		return
	}
	if err != nil {
		addAPIError(&resp.Diagnostics, "Unable to read webhook", err, nil)
		return
	}
	m := webhookToModel(ctx, w, state, &resp.Diagnostics)
	if !w.HasSecret {
		// The secret was removed outside Terraform: forget the one in state
		// so that the next plan sets it again.
		m.Secret = types.StringNull()
		m.SecretWOVersion = types.Int64Null()
	}
	resp.Diagnostics.Append(resp.State.Set(ctx, m)...)
	setIdentity(ctx, resp.Identity, idIdentity(m.ID), &resp.Diagnostics)
}

func (r *webhookResource) Update(ctx context.Context, req resource.UpdateRequest, resp *resource.UpdateResponse) {
	var plan, state webhookModel
	resp.Diagnostics.Append(req.Plan.Get(ctx, &plan)...)
	resp.Diagnostics.Append(req.State.Get(ctx, &state)...)
	in, secretWO, ok := r.input(ctx, req.Config, plan, &resp.Diagnostics)
	if !ok {
		return
	}
	// The service keeps a secret a PUT leaves out, so the secret is sent
	// only when it changed, and removed only when the configuration no
	// longer sets one in either form.
	switch {
	case !plan.Secret.IsNull() && !plan.Secret.Equal(state.Secret):
		in.Secret = stringPointer(plan.Secret)
	case !plan.SecretWOVersion.IsNull() && !plan.SecretWOVersion.Equal(state.SecretWOVersion):
		in.Secret = secretWO
	case plan.Secret.IsNull() && plan.SecretWOVersion.IsNull() && (!state.Secret.IsNull() || !state.SecretWOVersion.IsNull()):
		in.ClearSecret = true
	}
	w, err := r.data.client.Webhooks.Update(ctx, state.ID.ValueString(), in)
	if err != nil {
		addAPIError(&resp.Diagnostics, "Unable to update webhook", err, webhookFields)
		return
	}
	saveWebhook(ctx, w, plan, &resp.State, resp.Identity, &resp.Diagnostics)
}

func (r *webhookResource) Delete(ctx context.Context, req resource.DeleteRequest, resp *resource.DeleteResponse) {
	state, ok := readModel[webhookModel](ctx, req.State, r.data, &resp.Diagnostics)
	if !ok {
		return
	}
	if err := r.data.client.Webhooks.Delete(ctx, state.ID.ValueString()); err != nil {
		addAPIError(&resp.Diagnostics, "Unable to delete webhook", err, nil)
	}
}

// ImportState accepts the numeric id as the import string or as
// `identity = { id = "42" }` in an import block.
func (r *webhookResource) ImportState(ctx context.Context, req resource.ImportStateRequest, resp *resource.ImportStateResponse) {
	importByEntityID(ctx, "rms_webhook", req, resp)
}

// MoveState takes an rms_resource of the collection "webhooks"
// (`moved { from = rms_resource.x  to = rms_webhook.x }`). A secret the
// rms_resource body set moves into `secret`; one sent through its
// write-only sensitive_body never reached state and cannot move, which a
// warning says, with what to do.
func (r *webhookResource) MoveState(_ context.Context) []resource.StateMover {
	return []resource.StateMover{moveFromGeneric(typedMove{
		typeName:   "rms_webhook",
		collection: "webhooks",
		keys:       []string{"url", "events", "active", "description", "secret"},
		toState: func(ctx context.Context, src movedEntity, resp *resource.MoveStateResponse) {
			var w client.Webhook
			if !src.decode(&w, "rms_webhook", &resp.Diagnostics) {
				return
			}
			m := webhookToModel(ctx, &w, webhookModel{Secret: src.bodyString("secret"), SecretWOVersion: types.Int64Null()}, &resp.Diagnostics)
			if w.HasSecret && m.Secret.IsNull() {
				resp.Diagnostics.AddWarning("Webhook secret not moved",
					"The webhook holds a secret, and the rms_resource state does not (a secret sent through rms_resource.sensitive_body is write-only and never reached state), so rms_webhook starts without one in state. "+
						"Give the secret again in rms_webhook: `secret_wo` with `secret_wo_version` (Terraform 1.11+), or `secret`. The next apply then sends it, planned as an update of the webhook. "+
						"Without either, the service keeps the current secret, and Terraform neither compares nor rotates it.")
			}
			resp.Diagnostics.Append(resp.TargetState.Set(ctx, m)...)
			setIdentity(ctx, resp.TargetIdentity, idIdentity(m.ID), &resp.Diagnostics)
		},
	})}
}

// input is what a create or an update sends: the input built from the
// plan, and the configured secret_wo (nil when unset); ok is false once
// anything failed or the provider has no client.
func (r *webhookResource) input(ctx context.Context, config tfsdk.Config, plan webhookModel, diags *diag.Diagnostics) (in client.WebhookInput, secretWO *string, ok bool) {
	secretWO = r.configSecretWO(ctx, config.GetAttribute, diags)
	if diags.HasError() || !requireClient(r.data, diags) {
		return in, nil, false
	}
	in, more := webhookInput(ctx, plan)
	diags.Append(more...)
	return in, secretWO, !diags.HasError()
}

// configSecretWO reads the write-only secret, which exists only in the
// configuration of the current operation.
func (r *webhookResource) configSecretWO(ctx context.Context, get func(context.Context, path.Path, any) diag.Diagnostics, diags *diag.Diagnostics) *string {
	var v types.String
	diags.Append(get(ctx, path.Root("secret_wo"), &v)...)
	return stringPointer(v)
}

func webhookInput(ctx context.Context, m webhookModel) (client.WebhookInput, diag.Diagnostics) {
	var events []string
	diags := m.Events.ElementsAs(ctx, &events, false)
	return client.WebhookInput{
		URL:         m.URL.ValueString(),
		Events:      events,
		Active:      m.Active.ValueBool(),
		Description: stringPointer(m.Description),
	}, diags
}

// saveWebhook records the webhook the service answered a create or an
// update with: the state, over the plan, and the identity.
func saveWebhook(ctx context.Context, w *client.Webhook, plan webhookModel, state *tfsdk.State, identity *tfsdk.ResourceIdentity, diags *diag.Diagnostics) {
	m := webhookToModel(ctx, w, plan, diags)
	diags.Append(state.Set(ctx, m)...)
	setIdentity(ctx, identity, idIdentity(m.ID), diags)
}

// webhookURLValidator accepts https URLs and http to a loopback address,
// as the service does.
type webhookURLValidator = knownStringValidator[webhookURLCheck]

type webhookURLCheck struct{}

func (webhookURLCheck) Description(context.Context) string {
	return "must be an https URL, or http to a loopback address"
}

func (webhookURLCheck) check(raw string) (summary, detail string) {
	u, err := url.Parse(raw)
	switch {
	case strings.ContainsFunc(raw, func(r rune) bool { return unicode.IsSpace(r) || unicode.IsControl(r) }):
		// Go's parser takes a space in a path; no URL has one (RFC 3986:
		// it must be written %20), and the receiver would never get it.
		return "Invalid webhook URL",
			fmt.Sprintf("url %q contains a space or a control character, which no URL may hold; write a space as %%20.", raw)
	case err != nil || u.Host == "" || (u.Scheme != "https" && u.Scheme != "http"):
		return "Invalid webhook URL",
			fmt.Sprintf("url %q is not an absolute URL; give the receiver's address, e.g. https://hooks.example.com/rms.", raw)
	case u.Scheme == "http" && !client.IsLoopbackHost(u.Hostname()):
		return "Webhook URL must use https",
			fmt.Sprintf("url %q uses plain http; deliveries carry account data, so the service accepts http only to a loopback address (127.0.0.1, ::1, localhost). Use https.", raw)
	}
	return "", ""
}
