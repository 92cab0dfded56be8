package provider

import (
	"context"
	"crypto/tls"
	"fmt"
	"strconv"
	"strings"
	"time"

	"github.com/hashicorp/terraform-plugin-framework-timetypes/timetypes"
	"github.com/hashicorp/terraform-plugin-framework/diag"
	"github.com/hashicorp/terraform-plugin-framework/path"

	"github.com/rms-labs/terraform-provider-rms/internal/client"
)

// providerSettings is every setting of the provider block resolved from the
// block or its environment variable, before the client is made of them.
type providerSettings struct {
	baseURL           string
	customerID        int64
	creds             credentials
	headers           map[string]string
	clientCert        *tls.Certificate
	requestTimeout    time.Duration
	pollInterval      time.Duration
	maxRetries        int64 // 0: no retries, as the block says it (the client reads 0 as its default)
	contactListingOff bool
	suppressionListID string
	tls               client.TLS
}

// resolveSettings resolves every setting, adding a diagnostic for each
// missing or malformed one, so that a user sees them all at once.
func resolveSettings(ctx context.Context, cfg providerModel, env func(string) (string, bool), diags *diag.Diagnostics) providerSettings {
	var s providerSettings
	s.baseURL = baseURLSetting(cfg, env, diags)
	s.customerID = customerIDSetting(cfg, env, diags)
	s.creds = resolveCredentials(ctx, cfg, env, diags)
	s.headers = resolveHeaders(ctx, cfg, env, diags)
	s.clientCert = resolveClientCertificate(cfg, env, diags)
	s.requestTimeout = durationSetting(cfg.RequestTimeout, env, envRequestTimeout, attrRequestTimeout, client.DefaultRequestTimeout, time.Second, diags)
	s.pollInterval = durationSetting(cfg.BatchPollInterval, env, envBatchPollInterval, attrBatchPollInterval, defaultBatchPollInterval, minBatchPollInterval, diags)
	s.maxRetries = maxRetriesSetting(cfg, env, diags)
	s.contactListingOff = contactListingOffSetting(env, diags)
	s.suppressionListID = suppressionListSetting(cfg.SuppressionListID, env, diags)
	tlsConfig, tlsDiags := tlsSettings(stringSetting(cfg.CABundleFile, env, envCABundleFile), cfg.InsecureSkipVerify.ValueBool(), s.clientCert)
	diags.Append(tlsDiags...)
	s.tls = tlsConfig
	return s
}

func baseURLSetting(cfg providerModel, env func(string) (string, bool), diags *diag.Diagnostics) string {
	baseURL := stringSetting(cfg.BaseURL, env, envBaseURL)
	if baseURL == "" {
		diags.AddAttributeError(path.Root(attrBaseURL), "Missing base URL",
			fmt.Sprintf("Set %s in the provider block or the %s environment variable to the account's server address, e.g. https://server.example.com.", attrBaseURL, envBaseURL))
	} else if _, err := client.ParseBaseURL(baseURL); err != nil {
		diags.AddAttributeError(path.Root(attrBaseURL), "Invalid base URL",
			fmt.Sprintf("%s (from the %s attribute or the %s environment variable): %s.", baseURL, attrBaseURL, envBaseURL, err))
	}
	return baseURL
}

func customerIDSetting(cfg providerModel, env func(string) (string, bool), diags *diag.Diagnostics) int64 {
	if !cfg.CustomerID.IsNull() {
		return cfg.CustomerID.ValueInt64()
	}
	raw, ok := env(envCustomerID)
	raw = strings.TrimSpace(raw)
	if !ok || raw == "" {
		diags.AddAttributeError(path.Root(attrCustomerID), "Missing customer id",
			fmt.Sprintf("Set %s in the provider block or the %s environment variable to the numeric account id.", attrCustomerID, envCustomerID))
		return 0
	}
	n, err := strconv.ParseInt(raw, 10, 64)
	if err != nil || n <= 0 {
		diags.AddAttributeError(path.Root(attrCustomerID), "Invalid customer id",
			fmt.Sprintf("The %s environment variable is %q; it must be a positive whole number (the numeric account id), as must %s.", envCustomerID, raw, attrCustomerID))
		return 0
	}
	return n
}

func maxRetriesSetting(cfg providerModel, env func(string) (string, bool), diags *diag.Diagnostics) int64 {
	if !cfg.MaxRetries.IsNull() {
		return cfg.MaxRetries.ValueInt64()
	}
	raw, ok := env(envMaxRetries)
	if !ok || strings.TrimSpace(raw) == "" {
		return int64(client.DefaultMaxRetries)
	}
	n, err := strconv.ParseInt(strings.TrimSpace(raw), 10, 64)
	if err != nil || n < 0 || n > 20 {
		diags.AddAttributeError(path.Root(attrMaxRetries), "Invalid max_retries",
			fmt.Sprintf("The %s environment variable is %q; it must be a whole number from 0 to 20.", envMaxRetries, raw))
		return int64(client.DefaultMaxRetries)
	}
	return n
}

// contactListingOffSetting reads the variable that turns off reading
// contacts through the list's listing (each contact is then read with a
// request of its own).
func contactListingOffSetting(env func(string) (string, bool), diags *diag.Diagnostics) bool {
	raw, ok := env(envContactListing)
	if !ok || strings.TrimSpace(raw) == "" {
		return false
	}
	on, err := strconv.ParseBool(strings.TrimSpace(raw))
	if err != nil {
		diags.AddError("Invalid "+envContactListing,
			fmt.Sprintf("The %s environment variable is %q; set it to false to read each contact with a request of its own, or leave it unset.", envContactListing, raw))
	}
	return err == nil && !on
}

// durationSetting reads a duration from the block or, when it is null, from
// its environment variable; def when neither says one, or when the one said
// is not a duration of at least floor (a diagnostic then names its source).
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
