package provider

import (
	"strings"
	"time"

	"github.com/hashicorp/terraform-plugin-framework-timetypes/timetypes"
	"github.com/hashicorp/terraform-plugin-framework/types"
)

// The provider block: its attributes, their environment variables, and how
// a setting falls back from one to the other. Everything that resolves the
// block (provider_config.go, provider_settings.go, connection_config.go,
// tls_config.go, unsubscribe_guardrail.go) reads it from here.

const (
	attrBaseURL              = "base_url"
	attrCustomerID           = "customer_id"
	attrUsername             = "username"
	attrPassword             = "password"
	attrRequestTimeout       = "request_timeout"
	attrMaxRetries           = "max_retries"
	attrBatchPollInterval    = "batch_poll_interval"
	attrMaxRequestsPerSecond = "max_requests_per_second"
	attrCABundleFile         = "ca_bundle_file"
	attrInsecureSkipVerify   = "insecure_skip_verify"

	envBaseURL           = "RMS_BASE_URL"
	envCustomerID        = "RMS_CUSTOMER_ID"
	envUsername          = "RMS_USERNAME"
	envPassword          = "RMS_PASSWORD"
	envRequestTimeout    = "RMS_REQUEST_TIMEOUT"
	envMaxRetries        = "RMS_MAX_RETRIES"
	envBatchPollInterval = "RMS_BATCH_POLL_INTERVAL"
	envCABundleFile      = "RMS_CA_BUNDLE_FILE"
	// envContactListing set to false makes every rms_contact refresh read
	// its contact with a request of its own instead of sharing a listing
	// of the list (for comparison in benchmarks, or should a service's
	// listing ever misbehave).
	envContactListing = "RMS_CONTACT_LISTING"

	attrSuppressionListID = "suppression_list_id"
	envSuppressionListID  = "RMS_SUPPRESSION_LIST_ID"

	defaultBatchPollInterval = 30 * time.Second
	minBatchPollInterval     = time.Second
)

// The attributes and variables of how the provider connects
// (connection_config.go).
const (
	attrToken                 = "token"
	attrHeaders               = "headers"
	attrClientCertificateFile = "client_certificate_file"
	attrClientKeyFile         = "client_key_file"
	attrClientCertificatePEM  = "client_certificate_pem"
	attrClientKeyPEM          = "client_key_pem"

	envToken                 = "RMS_TOKEN"
	envHeaders               = "RMS_HEADERS"
	envClientCertificateFile = "RMS_CLIENT_CERTIFICATE_FILE"
	envClientKeyFile         = "RMS_CLIENT_KEY_FILE"
)

// providerModel is the provider block.
type providerModel struct {
	BaseURL               types.String         `tfsdk:"base_url"`
	CustomerID            types.Int64          `tfsdk:"customer_id"`
	Username              types.String         `tfsdk:"username"`
	Password              types.String         `tfsdk:"password"`
	RequestTimeout        timetypes.GoDuration `tfsdk:"request_timeout"`
	MaxRetries            types.Int64          `tfsdk:"max_retries"`
	BatchPollInterval     timetypes.GoDuration `tfsdk:"batch_poll_interval"`
	MaxRequestsPerSecond  types.Float64        `tfsdk:"max_requests_per_second"`
	CABundleFile          types.String         `tfsdk:"ca_bundle_file"`
	InsecureSkipVerify    types.Bool           `tfsdk:"insecure_skip_verify"`
	Token                 types.String         `tfsdk:"token"`
	Headers               types.Map            `tfsdk:"headers"`
	ClientCertificateFile types.String         `tfsdk:"client_certificate_file"`
	ClientKeyFile         types.String         `tfsdk:"client_key_file"`
	ClientCertificatePEM  types.String         `tfsdk:"client_certificate_pem"`
	ClientKeyPEM          types.String         `tfsdk:"client_key_pem"`
	MaxUnsubscribe        types.Int64          `tfsdk:"max_unsubscribe"`
	MaxUnsubscribePercent types.Float64        `tfsdk:"max_unsubscribe_percent"`
	OAuth2                types.Object         `tfsdk:"oauth2"`
	SuppressionListID     types.String         `tfsdk:"suppression_list_id"`
}

// stringSetting is the block's value of a string setting, else its
// environment variable key's, else "".
func stringSetting(v types.String, env func(string) (string, bool), key string) string {
	if !v.IsNull() {
		return strings.TrimSpace(v.ValueString())
	}
	raw, _ := env(key)
	return strings.TrimSpace(raw)
}
