package provider

import (
	"context"
	"crypto/tls"
	"crypto/x509"
	"errors"
	"fmt"
	"net"
	"net/http"
	"strconv"
	"strings"

	"github.com/hashicorp/terraform-plugin-framework-timetypes/timetypes"
	"github.com/hashicorp/terraform-plugin-framework/diag"
	"github.com/hashicorp/terraform-plugin-framework/path"
	"github.com/hashicorp/terraform-plugin-framework/resource/schema"
	"github.com/hashicorp/terraform-plugin-framework/resource/schema/planmodifier"
	"github.com/hashicorp/terraform-plugin-framework/resource/schema/stringplanmodifier"
	"github.com/hashicorp/terraform-plugin-framework/tfsdk"
	"github.com/hashicorp/terraform-plugin-framework/types"

	"github.com/rms-labs/terraform-provider-rms/internal/client"
)

// idAttribute is the computed, server-assigned id of a managed entity.
func idAttribute(what string) schema.StringAttribute {
	return schema.StringAttribute{
		Computed:      true,
		Description:   "Server-assigned id of the " + what + ".",
		PlanModifiers: []planmodifier.String{stringplanmodifier.UseStateForUnknown()},
	}
}

// dateCreatedAttribute never changes after create, so the plan keeps it.
func dateCreatedAttribute(what string) schema.StringAttribute {
	return schema.StringAttribute{
		Computed:      true,
		CustomType:    timetypes.RFC3339Type{},
		Description:   "When the " + what + " was created (RFC 3339, set by the service).",
		PlanModifiers: []planmodifier.String{stringplanmodifier.UseStateForUnknown()},
	}
}

// dateModifiedAttribute changes on every update and is unknown in its plan.
func dateModifiedAttribute(what string) schema.StringAttribute {
	return schema.StringAttribute{
		Computed:    true,
		CustomType:  timetypes.RFC3339Type{},
		Description: "When the " + what + " was last changed (RFC 3339, set by the service).",
	}
}

// rfc3339 turns a server timestamp into a state value; an empty one is null.
func rfc3339(t client.Timestamp) timetypes.RFC3339 {
	if t.IsZero() {
		return timetypes.NewRFC3339Null()
	}
	return timetypes.NewRFC3339ValueMust(t.String())
}

// stringPointer is nil for a null or unknown value.
func stringPointer(v types.String) *string {
	if v.IsNull() || v.IsUnknown() {
		return nil
	}
	s := v.ValueString()
	return &s
}

// configuredData unpacks what Configure passed on. Nil means the provider is
// not configured yet (its block holds unknown values during plan).
func configuredData(data any, diags *diag.Diagnostics) *providerData {
	if data == nil {
		return nil
	}
	d, ok := data.(*providerData)
	if !ok {
		diags.AddError("Unexpected provider data",
			fmt.Sprintf("Expected *providerData, got %T. This is a bug in the provider; please report it.", data))
		return nil
	}
	return d
}

// requireClient reports a missing client; resources call it before a call.
func requireClient(d *providerData, diags *diag.Diagnostics) bool {
	if d == nil || d.client == nil {
		diags.AddError("Provider not configured",
			"The rms provider has no client yet: its configuration holds values that are unknown until apply. Make base_url, customer_id, username and password known, or apply the resources they depend on first.")
		return false
	}
	return true
}

// addAPIError turns a client error into a diagnostic. A validation error
// whose field maps to an attribute is attached to that attribute, so
// Terraform points at the line to fix; fields maps the service's field names
// onto attribute paths.
func addAPIError(diags *diag.Diagnostics, summary string, err error, fields map[string]path.Path) {
	detail := describeAPIError(err)
	if apiErr, ok := client.AsAPIError(err); ok && apiErr.Field != "" {
		if p, ok := fields[apiErr.Field]; ok {
			diags.AddAttributeError(p, summary, detail)
			return
		}
	}
	diags.AddError(summary, detail)
}

// describeAPIError explains an error in the words a user needs: what the
// service said and what to do about it.
func describeAPIError(err error) string {
	if id, made := client.MadeID(err); made {
		return err.Error() + "\n\nThe service carried out the write (it answered with success), so Terraform recorded object " + id +
			" in state rather than leave it behind: a create is saved as tainted, so the next apply replaces it (or `terraform untaint` keeps it once `terraform plan` reads it fine). If the service's answers keep failing to read, report the answer shown above."
	}
	if errors.Is(err, client.ErrPagingIgnored) {
		return err.Error()
	}
	apiErr, ok := client.AsAPIError(err)
	if !ok {
		if isCertificateError(err) {
			return err.Error() + "\n\nThe server's TLS certificate is not trusted. If it is signed by a private certificate authority, set ca_bundle_file (or RMS_CA_BUNDLE_FILE) to a PEM file of that authority."
		}
		if isClientCertificateRefused(err) {
			return err.Error() + "\n\nThe server requires a client certificate (mutual TLS) and refused the connection without one it accepts. Set client_certificate_file and client_key_file (or RMS_CLIENT_CERTIFICATE_FILE and RMS_CLIENT_KEY_FILE), or client_certificate_pem and client_key_pem, to a certificate signed by an authority the server trusts."
		}
		return err.Error()
	}
	var hint string
	switch {
	case errors.Is(err, client.ErrUnauthorized):
		hint = "Check username and password (or RMS_USERNAME and RMS_PASSWORD), or token (or RMS_TOKEN) if the account uses one: the service refused the credentials."
	case errors.Is(err, client.ErrForbidden):
		hint = "Check customer_id (or RMS_CUSTOMER_ID): the credentials do not belong to that account."
	case errors.Is(err, client.ErrGone):
		hint = "The service has retired this resource; its reason is above. It cannot be managed through this path any more."
	case apiErr.StatusCode == http.StatusTooManyRequests:
		hint = "The service kept rate-limiting after all retries; lower max_requests_per_second or -parallelism, or raise max_retries."
	case apiErr.StatusCode >= 500:
		hint = "The service failed; retry later."
	case errors.Is(err, client.ErrNotFound):
		hint = "The service does not know this object or path: check the id in the configuration; an object deleted outside Terraform is re-created by the next apply of its resource."
	case errors.Is(err, client.ErrValidation):
		hint = "The service refused the request as invalid: check the values of the configuration against what the service accepts (the message above names what it refused, when it said)."
	case apiErr.StatusCode == http.StatusMethodNotAllowed || apiErr.StatusCode == http.StatusNotImplemented:
		hint = "The service does not offer this call here: check that base_url names the account's server and that the collection supports the operation."
	}
	if hint == "" {
		return err.Error()
	}
	return err.Error() + "\n\n" + hint
}

func isCertificateError(err error) bool {
	var verify *tls.CertificateVerificationError
	var unknown x509.UnknownAuthorityError
	var host x509.HostnameError
	return errors.As(err, &verify) || errors.As(err, &unknown) || errors.As(err, &host)
}

// isClientCertificateRefused recognises the TLS alert a server sends when
// it requires a client certificate and got none, or one it does not trust.
// The alert type is not exported, so the "remote error" is matched by its
// text: "tls: certificate required" (TLS 1.3) or "tls: bad certificate"
// (TLS 1.2, or a certificate of an unknown authority).
func isClientCertificateRefused(err error) bool {
	var op *net.OpError
	if !errors.As(err, &op) || op.Op != "remote error" || op.Err == nil {
		return false
	}
	msg := op.Err.Error()
	return strings.Contains(msg, "certificate required") || strings.Contains(msg, "bad certificate") ||
		strings.Contains(msg, "unknown certificate authority")
}

// nullIfEmpty is a string the service may leave out: null when it did.
func nullIfEmpty(s string) types.String {
	if s == "" {
		return types.StringNull()
	}
	return types.StringValue(s)
}

// int64OrNull is a number the service sends as digits, or may leave out:
// null when it did, or sent something else.
func int64OrNull(s string) types.Int64 {
	n, err := strconv.ParseInt(s, 10, 64)
	if err != nil {
		return types.Int64Null()
	}
	return types.Int64Value(n)
}

// saveMade records an object a create made whose answer could not be read
// (client.MadeID): m is the plan with the id set and every value only the
// service could give null. The create's error then makes Terraform save it
// tainted, so nothing is left behind unmanaged and the next apply settles it.
func saveMade(ctx context.Context, state *tfsdk.State, identity *tfsdk.ResourceIdentity, m any, id any, diags *diag.Diagnostics) {
	diags.Append(state.Set(ctx, m)...)
	setIdentity(ctx, identity, id, diags)
}

// privateGetter and privateSetter are the parts of the framework's private
// state (resp.Private, req.Private) that resources use; its type is
// internal to the framework.
type privateGetter interface {
	GetKey(ctx context.Context, key string) ([]byte, diag.Diagnostics)
}

type privateSetter interface {
	SetKey(ctx context.Context, key string, value []byte) diag.Diagnostics
}
