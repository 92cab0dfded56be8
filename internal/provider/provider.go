package provider

import (
	"context"

	"github.com/hashicorp/terraform-plugin-framework-timetypes/timetypes"
	"github.com/hashicorp/terraform-plugin-framework-validators/float64validator"
	"github.com/hashicorp/terraform-plugin-framework-validators/int64validator"
	"github.com/hashicorp/terraform-plugin-framework/action"
	"github.com/hashicorp/terraform-plugin-framework/datasource"
	"github.com/hashicorp/terraform-plugin-framework/ephemeral"
	"github.com/hashicorp/terraform-plugin-framework/function"
	"github.com/hashicorp/terraform-plugin-framework/list"
	"github.com/hashicorp/terraform-plugin-framework/provider"
	"github.com/hashicorp/terraform-plugin-framework/provider/schema"
	"github.com/hashicorp/terraform-plugin-framework/resource"
	"github.com/hashicorp/terraform-plugin-framework/schema/validator"
	"github.com/hashicorp/terraform-plugin-framework/types"

	"github.com/rms-labs/terraform-provider-rms/internal/functions"
)

var (
	_ provider.Provider                       = &RMSProvider{}
	_ provider.ProviderWithFunctions          = &RMSProvider{}
	_ provider.ProviderWithActions            = &RMSProvider{}
	_ provider.ProviderWithEphemeralResources = &RMSProvider{}
	// List resources serve `terraform query` (Terraform 1.14+).
	_ provider.ProviderWithListResources = &RMSProvider{}
)

// RMSProvider is the rms provider. Version is set by the release build.
type RMSProvider struct {
	version string
}

// New returns a constructor of the provider for providerserver.Serve.
func New(version string) func() provider.Provider {
	return func() provider.Provider {
		return &RMSProvider{version: version}
	}
}

// Metadata names the provider "rms".
func (p *RMSProvider) Metadata(_ context.Context, _ provider.MetadataRequest, resp *provider.MetadataResponse) {
	resp.TypeName = "rms"
	resp.Version = p.version
}

// Schema describes the provider block.
func (p *RMSProvider) Schema(_ context.Context, _ provider.SchemaRequest, resp *provider.SchemaResponse) {
	resp.Schema = schema.Schema{
		Description: "Manages an account of the Recipient and Messaging Service: projects, recipient lists and contacts, subscription status, imports, statistics exports, webhooks and any domain of the service's generic REST pattern.",
		Attributes: guardrailProviderAttributes(map[string]schema.Attribute{
			attrBaseURL: schema.StringAttribute{
				Optional:    true,
				Description: "The account's server address, e.g. `https://server.example.com`; the provider appends `/rest`. Must be `https://`, except `http://` to a loopback address such as the emulator. Also read from `" + envBaseURL + "`.",
			},
			attrCustomerID: schema.Int64Attribute{
				Optional:    true,
				Description: "The numeric account id placed in every path. Required, here or in `" + envCustomerID + "`.",
				Validators:  []validator.Int64{int64validator.AtLeast(1)},
			},
			attrUsername: schema.StringAttribute{
				Optional:    true,
				Description: "User of the account, sent with HTTP Basic authentication together with `" + attrPassword + "`. A dedicated API user is recommended for production. Also read from `" + envUsername + "`. Either `" + attrUsername + "` and `" + attrPassword + "`, `" + attrToken + "`, or `" + attrOAuth2 + "`, is required.",
			},
			attrPassword: schema.StringAttribute{
				Optional:    true,
				Sensitive:   true,
				Description: "Password of the user; never logged. Accepts an ephemeral value (an ephemeral resource's attribute or an `ephemeral = true` variable, Terraform 1.10+), which keeps it out of plan and state files. Also read from `" + envPassword + "` (preferred: it keeps the password out of the configuration).",
			},
			attrToken: schema.StringAttribute{
				Optional:    true,
				Sensitive:   true,
				Description: "A static bearer token, sent as `Authorization: Bearer <token>`, for accounts fronted by a token gateway; an alternative to `" + attrUsername + "` and `" + attrPassword + "`, never together with them. Never logged. Accepts an ephemeral value (Terraform 1.10+). Also read from `" + envToken + "` (preferred).",
			},
			attrHeaders: schema.MapAttribute{
				Optional:    true,
				Sensitive:   true,
				ElementType: types.StringType,
				Description: "Extra HTTP headers sent on every request, e.g. a key a gateway in front of the service asks for. The headers the provider sets itself (`Authorization`, `Content-Type`, `Accept`, `Host`, `Content-Length`, `User-Agent`, in any case) are refused. Values are treated as secrets and never logged. Also read, when the attribute is not set, from `" + envHeaders + "` as a JSON object, e.g. `{\"X-Gateway-Key\": \"...\"}`.",
				Validators:  []validator.Map{headersValidator{}},
			},
			attrOAuth2:            oauth2Attribute(),
			attrSuppressionListID: suppressionProviderAttribute(),
			attrClientCertificateFile: schema.StringAttribute{
				Optional:    true,
				Description: "Path of a PEM client certificate shown to a server that requires mutual TLS; needs `" + attrClientKeyFile + "`. Conflicts with `" + attrClientCertificatePEM + "`. Also read from `" + envClientCertificateFile + "`.",
			},
			attrClientKeyFile: schema.StringAttribute{
				Optional:    true,
				Description: "Path of the PEM private key of `" + attrClientCertificateFile + "`. Also read from `" + envClientKeyFile + "`.",
			},
			attrClientCertificatePEM: schema.StringAttribute{
				Optional:    true,
				Description: "A PEM client certificate as text (e.g. from a secret store), instead of `" + attrClientCertificateFile + "`; needs `" + attrClientKeyPEM + "`.",
			},
			attrClientKeyPEM: schema.StringAttribute{
				Optional:    true,
				Sensitive:   true,
				Description: "The PEM private key of `" + attrClientCertificatePEM + "`, as text; never logged.",
			},
			attrRequestTimeout: schema.StringAttribute{
				Optional:    true,
				CustomType:  timetypes.GoDurationType{},
				Description: "Time limit of one HTTP attempt, as a Go duration (`30s`, `2m`). Defaults to `60s`. Also read from `" + envRequestTimeout + "`.",
			},
			attrMaxRetries: schema.Int64Attribute{
				Optional:    true,
				Description: "How many times a failed call that is safe to repeat is retried (429, 502, 503, 504 and network errors; a create only when the server cannot have acted). Defaults to `5`; `0` disables retries. Also read from `" + envMaxRetries + "`.",
				Validators:  []validator.Int64{int64validator.Between(0, 20)},
			},
			attrBatchPollInterval: schema.StringAttribute{
				Optional:    true,
				CustomType:  timetypes.GoDurationType{},
				Description: "How often a running import or export batch is polled once the first quick looks are over, as a Go duration. Defaults to `30s`, as the service recommends; at least `1s`. Also read from `" + envBatchPollInterval + "`.",
			},
			attrCABundleFile: schema.StringAttribute{
				Optional:    true,
				Description: "Path of a PEM file of certificate authorities to trust in addition to the system's, for a server with a private certificate. Also read from `" + envCABundleFile + "`.",
			},
			attrInsecureSkipVerify: schema.BoolAttribute{
				Optional:    true,
				Description: "Skip verification of the server's TLS certificate. Never use it against a real account: anyone on the path can read the credentials. The provider warns on every run while it is set.",
			},
			attrMaxRequestsPerSecond: schema.Float64Attribute{
				Optional:    true,
				Description: "Caps the provider's own request rate across all resources of one run: no window of one second (any sliding window, not only whole clock seconds) holds more than `max(1, floor(cap))` requests, retries included, however high `-parallelism` is; a cap below 1 spaces requests `1/cap` seconds apart. The cap holds per provider configuration: each alias counts its requests on its own. Unset or `0` means no cap; the provider always honours the service's `Retry-After`.",
				Validators:  []validator.Float64{float64validator.AtLeast(0)},
			},
		}),
	}
}

// Configure builds the API client from the provider block and environment
// and checks its credentials with one read-only request.
func (p *RMSProvider) Configure(ctx context.Context, req provider.ConfigureRequest, resp *provider.ConfigureResponse) {
	var cfg providerModel
	resp.Diagnostics.Append(req.Config.Get(ctx, &cfg)...)
	if resp.Diagnostics.HasError() {
		return
	}
	data, diags := newProviderData(ctx, cfg, p.version, req.TerraformVersion, envLookup)
	resp.Diagnostics.Append(diags...)
	if resp.Diagnostics.HasError() || data == nil {
		// nil without an error: the configuration holds unknown values, so
		// there is nothing to check yet.
		return
	}
	checkCredentials(ctx, data, &resp.Diagnostics)
	if resp.Diagnostics.HasError() {
		return
	}
	resp.ResourceData = data
	resp.DataSourceData = data
	resp.EphemeralResourceData = data
	resp.ActionData = data
	resp.ListResourceData = data
}

// Resources lists the managed resources.
func (p *RMSProvider) Resources(context.Context) []func() resource.Resource {
	return []func() resource.Resource{
		NewProjectResource,
		NewRecipientListResource,
		NewContactResource,
		NewListContactsResource,
		NewStatisticsExportResource,
		NewListImportResource,
		NewGenericResource,
		NewWebhookResource,
		NewTransactionalMessageResource,
	}
}

// ListResources lists the list resources of `terraform query`, one for each
// managed resource whose objects an account holds many of. Each has the
// type name of the resource it finds.
func (p *RMSProvider) ListResources(context.Context) []func() list.ListResource {
	return []func() list.ListResource{
		NewProjectQuery,
		NewListQuery,
		NewContactQuery,
		NewWebhookQuery,
		NewGenericQuery,
	}
}

// DataSources lists the data sources.
func (p *RMSProvider) DataSources(context.Context) []func() datasource.DataSource {
	return []func() datasource.DataSource{
		NewProjectDataSource,
		NewListDataSource,
		NewListsDataSource,
		NewContactDataSource,
		NewContactsDataSource,
		NewBatchDataSource,
		NewGenericDataSource,
	}
}

// Actions lists the actions (Terraform 1.14+).
func (p *RMSProvider) Actions(context.Context) []func() action.Action {
	return []func() action.Action{
		NewSendTransactionalMessageAction,
		NewRunListImportAction,
		NewRunStatisticsExportAction,
		NewExportListContactsCSVAction,
	}
}

// EphemeralResources lists the ephemeral resources (Terraform 1.10+).
func (p *RMSProvider) EphemeralResources(context.Context) []func() ephemeral.EphemeralResource {
	return []func() ephemeral.EphemeralResource{
		NewBatchResultURLEphemeralResource,
	}
}

// Functions lists the provider functions.
func (p *RMSProvider) Functions(context.Context) []func() function.Function {
	return []func() function.Function{
		functions.NewBatchTime,
		functions.NewContactImportID,
		functions.NewContactsCSV,
		functions.NewDelimiterCode,
		functions.NewWebhookSignature,
	}
}
