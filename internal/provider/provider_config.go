package provider

import (
	"context"
	"os"
	"slices"
	"time"

	"github.com/hashicorp/terraform-plugin-framework/diag"
	"github.com/hashicorp/terraform-plugin-log/tflog"

	"github.com/rms-labs/terraform-provider-rms/internal/client"
	"github.com/rms-labs/terraform-provider-rms/internal/contactsync"
)

// providerData is what resources and data sources receive from Configure.
type providerData struct {
	client *client.Client
	// bearerToken says the credentials are token (RMS_TOKEN), not
	// username and password: the attribute a refusal points at.
	bearerToken bool
	// oauth2 says the credentials are OAuth 2.0 client credentials.
	oauth2            bool
	batchPollInterval time.Duration
	// contacts is what the contact resources of this run share: the
	// attribute cache, the listings, the released contacts and the consent
	// provenance (internal/contactsync).
	contacts *contactsync.Run
	// unsubscribeLimits are the provider block's guardrail limits
	// (unsubscribe_guardrail.go).
	unsubscribeLimits providerUnsubscribeLimits
	// suppressionListID is the provider block's suppression list
	// (suppression_list.go): "" none.
	suppressionListID string
	// adopted are the lists an import of this run adopted without their
	// contacts (list_contacts_adopt_warning.go).
	adopted *adoptedLists
}

// envLookup is os.LookupEnv; tests pass their own.
func envLookup(key string) (string, bool) { return os.LookupEnv(key) }

// newProviderData resolves every setting from the block or, when the block
// leaves it null, from its environment variable, and reports every missing
// or malformed setting at once, each naming the attribute and the variable.
// It returns nil without an error when a value is still unknown (it comes
// from a resource not yet created): Terraform configures the provider again
// once it is known.
func newProviderData(ctx context.Context, cfg providerModel, version, terraformVersion string, env func(string) (string, bool)) (*providerData, diag.Diagnostics) {
	if configHasUnknown(ctx, cfg) {
		tflog.Debug(ctx, "provider configuration has unknown values; deferring client set-up")
		return nil, nil
	}
	var diags diag.Diagnostics
	s := resolveSettings(ctx, cfg, env, &diags)
	if diags.HasError() {
		return nil, diags
	}
	c, err := newConfiguredClient(ctx, cfg, s, userAgent(version, terraformVersion))
	if err != nil {
		diags.AddError("Unable to configure the rms client", err.Error())
		return nil, diags
	}
	return &providerData{
		client: c, bearerToken: s.creds.scheme == "bearer", oauth2: s.creds.scheme == "oauth2", batchPollInterval: s.pollInterval,
		contacts:          contactsync.NewRun(c, contactsync.RunOptions{ListingOff: s.contactListingOff, Logger: providerLogger{}}),
		unsubscribeLimits: providerLimitsOf(cfg),
		suppressionListID: s.suppressionListID,
		adopted:           &adoptedLists{},
	}, diags
}

// configHasUnknown says whether a setting of the block is still unknown.
func configHasUnknown(ctx context.Context, cfg providerModel) bool {
	return cfg.BaseURL.IsUnknown() || cfg.CustomerID.IsUnknown() || cfg.Username.IsUnknown() ||
		cfg.Password.IsUnknown() || cfg.RequestTimeout.IsUnknown() || cfg.MaxRetries.IsUnknown() ||
		cfg.BatchPollInterval.IsUnknown() || cfg.MaxRequestsPerSecond.IsUnknown() ||
		cfg.CABundleFile.IsUnknown() || cfg.InsecureSkipVerify.IsUnknown() ||
		cfg.Token.IsUnknown() || !mapKnown(cfg.Headers) || cfg.ClientCertificateFile.IsUnknown() ||
		cfg.ClientKeyFile.IsUnknown() || cfg.ClientCertificatePEM.IsUnknown() || cfg.ClientKeyPEM.IsUnknown() ||
		cfg.MaxUnsubscribe.IsUnknown() || cfg.MaxUnsubscribePercent.IsUnknown() || !oauth2Known(ctx, cfg.OAuth2) ||
		cfg.SuppressionListID.IsUnknown()
}

// newConfiguredClient makes the client of the resolved settings, with every
// secret masked in the provider's logs and the client's.
func newConfiguredClient(ctx context.Context, cfg providerModel, s providerSettings, ua string) (*client.Client, error) {
	maxRetries := s.maxRetries
	if maxRetries == 0 {
		maxRetries = -1 // client: negative means no retries, zero means default
	}
	// Every header value counts as a secret: gateways put keys in them.
	secrets := append([]string(nil), s.creds.secrets...)
	headerNames := make([]string, 0, len(s.headers))
	for n, v := range s.headers {
		headerNames = append(headerNames, n)
		if v != "" {
			secrets = append(secrets, v)
		}
	}
	slices.Sort(headerNames)
	ctx = tflog.MaskMessageStrings(ctx, secrets...)
	ctx = tflog.MaskAllFieldValuesStrings(ctx, secrets...)
	c, err := client.New(client.Config{
		BaseURL:              s.baseURL,
		CustomerID:           s.customerID,
		Auth:                 s.creds.auth,
		Headers:              s.headers,
		RequestTimeout:       s.requestTimeout,
		MaxRetries:           int(maxRetries),
		MaxRequestsPerSecond: cfg.MaxRequestsPerSecond.ValueFloat64(),
		UserAgent:            ua,
		Logger:               newClientLogger(secrets...),
		TLS:                  s.tls,
	})
	if err != nil {
		return nil, err
	}
	tflog.Info(ctx, "configured rms client", map[string]any{
		"base_url": c.BaseURL(), "customer_id": s.customerID, "auth": s.creds.scheme, "username": s.creds.username,
		"headers": headerNames, "client_certificate": s.clientCert != nil,
		"max_retries": maxRetries, "batch_poll_interval": s.pollInterval.String(),
	})
	return c, nil
}

// userAgent names the provider and the Terraform that runs it, so that the
// service's operators can tell clients apart in their logs.
func userAgent(version, terraformVersion string) string {
	ua := "terraform-provider-rms/" + version + " (+https://registry.terraform.io/providers/rms-labs/rms)"
	if terraformVersion != "" {
		ua += " Terraform/" + terraformVersion
	}
	return ua
}
