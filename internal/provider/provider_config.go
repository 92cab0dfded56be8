package provider

import (
	"context"
	"fmt"
	"os"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/hashicorp/terraform-plugin-framework-timetypes/timetypes"
	"github.com/hashicorp/terraform-plugin-framework/diag"
	"github.com/hashicorp/terraform-plugin-framework/path"
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
	var diags diag.Diagnostics
	if cfg.BaseURL.IsUnknown() || cfg.CustomerID.IsUnknown() || cfg.Username.IsUnknown() ||
		cfg.Password.IsUnknown() || cfg.RequestTimeout.IsUnknown() || cfg.MaxRetries.IsUnknown() ||
		cfg.BatchPollInterval.IsUnknown() || cfg.MaxRequestsPerSecond.IsUnknown() ||
		cfg.CABundleFile.IsUnknown() || cfg.InsecureSkipVerify.IsUnknown() ||
		cfg.Token.IsUnknown() || !mapKnown(cfg.Headers) || cfg.ClientCertificateFile.IsUnknown() ||
		cfg.ClientKeyFile.IsUnknown() || cfg.ClientCertificatePEM.IsUnknown() || cfg.ClientKeyPEM.IsUnknown() ||
		cfg.MaxUnsubscribe.IsUnknown() || cfg.MaxUnsubscribePercent.IsUnknown() || !oauth2Known(ctx, cfg.OAuth2) ||
		cfg.SuppressionListID.IsUnknown() {
		tflog.Debug(ctx, "provider configuration has unknown values; deferring client set-up")
		return nil, nil
	}

	baseURL := stringSetting(cfg.BaseURL, env, envBaseURL)
	if baseURL == "" {
		diags.AddAttributeError(path.Root(attrBaseURL), "Missing base URL",
			fmt.Sprintf("Set %s in the provider block or the %s environment variable to the account's server address, e.g. https://server.example.com.", attrBaseURL, envBaseURL))
	} else if _, err := client.ParseBaseURL(baseURL); err != nil {
		diags.AddAttributeError(path.Root(attrBaseURL), "Invalid base URL",
			fmt.Sprintf("%s (from the %s attribute or the %s environment variable): %s.", baseURL, attrBaseURL, envBaseURL, err))
	}

	var customerID int64
	switch {
	case !cfg.CustomerID.IsNull():
		customerID = cfg.CustomerID.ValueInt64()
	default:
		raw, ok := env(envCustomerID)
		raw = strings.TrimSpace(raw)
		if !ok || raw == "" {
			diags.AddAttributeError(path.Root(attrCustomerID), "Missing customer id",
				fmt.Sprintf("Set %s in the provider block or the %s environment variable to the numeric account id.", attrCustomerID, envCustomerID))
			break
		}
		n, err := strconv.ParseInt(raw, 10, 64)
		if err != nil || n <= 0 {
			diags.AddAttributeError(path.Root(attrCustomerID), "Invalid customer id",
				fmt.Sprintf("The %s environment variable is %q; it must be a positive whole number (the numeric account id), as must %s.", envCustomerID, raw, attrCustomerID))
			break
		}
		customerID = n
	}

	creds := resolveCredentials(ctx, cfg, env, &diags)
	headers := resolveHeaders(ctx, cfg, env, &diags)
	clientCert := resolveClientCertificate(cfg, env, &diags)

	requestTimeout := durationSetting(cfg.RequestTimeout, env, envRequestTimeout, attrRequestTimeout, client.DefaultRequestTimeout, time.Second, &diags)
	pollInterval := durationSetting(cfg.BatchPollInterval, env, envBatchPollInterval, attrBatchPollInterval, defaultBatchPollInterval, minBatchPollInterval, &diags)

	maxRetries := int64(client.DefaultMaxRetries)
	if !cfg.MaxRetries.IsNull() {
		maxRetries = cfg.MaxRetries.ValueInt64()
	} else if raw, ok := env(envMaxRetries); ok && strings.TrimSpace(raw) != "" {
		n, err := strconv.ParseInt(strings.TrimSpace(raw), 10, 64)
		if err != nil || n < 0 || n > 20 {
			diags.AddAttributeError(path.Root(attrMaxRetries), "Invalid max_retries",
				fmt.Sprintf("The %s environment variable is %q; it must be a whole number from 0 to 20.", envMaxRetries, raw))
		} else {
			maxRetries = n
		}
	}
	contactListingOff := false
	if raw, ok := env(envContactListing); ok && strings.TrimSpace(raw) != "" {
		on, err := strconv.ParseBool(strings.TrimSpace(raw))
		if err != nil {
			diags.AddError("Invalid "+envContactListing,
				fmt.Sprintf("The %s environment variable is %q; set it to false to read each contact with a request of its own, or leave it unset.", envContactListing, raw))
		}
		contactListingOff = err == nil && !on
	}
	suppressionListID := suppressionListSetting(cfg.SuppressionListID, env, &diags)
	tlsConfig, tlsDiags := tlsSettings(stringSetting(cfg.CABundleFile, env, envCABundleFile), cfg.InsecureSkipVerify.ValueBool(), clientCert)
	diags.Append(tlsDiags...)
	if diags.HasError() {
		return nil, diags
	}
	if maxRetries == 0 {
		maxRetries = -1 // client: negative means no retries, zero means default
	}

	// Every header value counts as a secret: gateways put keys in them.
	secrets := append([]string(nil), creds.secrets...)
	headerNames := make([]string, 0, len(headers))
	for n, v := range headers {
		headerNames = append(headerNames, n)
		if v != "" {
			secrets = append(secrets, v)
		}
	}
	slices.Sort(headerNames)
	ctx = tflog.MaskMessageStrings(ctx, secrets...)
	ctx = tflog.MaskAllFieldValuesStrings(ctx, secrets...)
	c, err := client.New(client.Config{
		BaseURL:              baseURL,
		CustomerID:           customerID,
		Auth:                 creds.auth,
		Headers:              headers,
		RequestTimeout:       requestTimeout,
		MaxRetries:           int(maxRetries),
		MaxRequestsPerSecond: cfg.MaxRequestsPerSecond.ValueFloat64(),
		UserAgent:            userAgent(version, terraformVersion),
		Logger:               newClientLogger(secrets...),
		TLS:                  tlsConfig,
	})
	if err != nil {
		diags.AddError("Unable to configure the rms client", err.Error())
		return nil, diags
	}
	tflog.Info(ctx, "configured rms client", map[string]any{
		"base_url": c.BaseURL(), "customer_id": customerID, "auth": creds.scheme, "username": creds.username,
		"headers": headerNames, "client_certificate": clientCert != nil,
		"max_retries": maxRetries, "batch_poll_interval": pollInterval.String(),
	})
	return &providerData{
		client: c, bearerToken: creds.scheme == "bearer", oauth2: creds.scheme == "oauth2", batchPollInterval: pollInterval,
		contacts:          contactsync.NewRun(c, contactsync.RunOptions{ListingOff: contactListingOff, Logger: providerLogger{}}),
		unsubscribeLimits: providerLimitsOf(cfg),
		suppressionListID: suppressionListID,
	}, diags
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

func durationSetting(v timetypes.GoDuration, env func(string) (string, bool), key, attr string, def, floor time.Duration, diags *diag.Diagnostics) time.Duration {
	raw := ""
	source := "the " + attr + " attribute"
	if !v.IsNull() {
		raw = v.ValueString()
	} else if s, ok := env(key); ok {
		raw = strings.TrimSpace(s)
		source = "the " + key + " environment variable"
	}
	if raw == "" {
		return def
	}
	d, err := time.ParseDuration(raw)
	if err != nil || d < floor {
		diags.AddAttributeError(path.Root(attr), "Invalid "+attr,
			fmt.Sprintf("%s is %q; it must be a Go duration of at least %s, such as \"30s\" or \"2m\".", source, raw, floor))
		return def
	}
	return d
}
