package provider

import (
	"context"
	"crypto/tls"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"slices"
	"strings"

	"github.com/hashicorp/terraform-plugin-framework/diag"
	"github.com/hashicorp/terraform-plugin-framework/path"
	"github.com/hashicorp/terraform-plugin-framework/schema/validator"
	"github.com/hashicorp/terraform-plugin-framework/types"

	"github.com/rms-labs/terraform-provider-rms/internal/client"
)

// This file resolves how the provider connects: which credentials it
// presents, which extra headers it sends, and which client certificate it
// shows. Each setting comes from the provider block, else its environment
// variable; only then are the combinations checked, so that a variable
// counts exactly like the attribute it stands for.

// resolveCredentials picks the one complete scheme: username and password
// (HTTP Basic), token (bearer), or oauth2 (client credentials). Both, or neither complete, is an error
// that names the attributes and their variables.
func resolveCredentials(ctx context.Context, cfg providerModel, env func(string) (string, bool), diags *diag.Diagnostics) credentials {
	username := stringSetting(cfg.Username, env, envUsername)
	password := stringSetting(cfg.Password, env, envPassword)
	token := stringSetting(cfg.Token, env, envToken)
	oauth2 := oauth2Configured(cfg, env)
	switch {
	case oauth2 && (username != "" || password != "" || token != ""):
		diags.AddAttributeError(path.Root(attrOAuth2), "Conflicting credentials", oauth2Conflict(username, password, token))
	case oauth2:
		return resolveOAuth2(ctx, cfg, env, diags)
	case token != "" && (username != "" || password != ""):
		var basic []string
		if username != "" {
			basic = append(basic, attrUsername+" (or "+envUsername+")")
		}
		if password != "" {
			basic = append(basic, attrPassword+" (or "+envPassword+")")
		}
		diags.AddAttributeError(path.Root(attrToken), "Conflicting credentials",
			fmt.Sprintf("%s (or %s) is set, and so is %s. The provider authenticates with one scheme: a bearer token, or username and password (HTTP Basic). Remove one; an environment variable counts like its attribute.",
				attrToken, envToken, strings.Join(basic, " and ")))
	case token != "":
		return credentials{auth: client.BearerAuth{Token: token}, scheme: "bearer", secrets: []string{token}}
	case username != "" && password != "":
		return credentials{auth: client.BasicAuth{Username: username, Password: password}, scheme: "basic", username: username, secrets: []string{password}}
	case username != "":
		diags.AddAttributeError(path.Root(attrPassword), "Missing password",
			fmt.Sprintf("%s is set but %s is not: set %s in the provider block or the %s environment variable, or authenticate with %s (%s) instead of username and password.", attrUsername, attrPassword, attrPassword, envPassword, attrToken, envToken))
	case password != "":
		diags.AddAttributeError(path.Root(attrUsername), "Missing username",
			fmt.Sprintf("%s is set but %s is not: set %s in the provider block or the %s environment variable to a user of the account.", attrPassword, attrUsername, attrUsername, envUsername))
	default:
		diags.AddAttributeError(path.Root(attrUsername), "Missing credentials",
			fmt.Sprintf("Set %s and %s (or %s and %s) for HTTP Basic authentication, %s (or %s) for a bearer token, or %s (or %s and %s) for OAuth 2.0 client credentials.", attrUsername, attrPassword, envUsername, envPassword, attrToken, envToken, attrOAuth2, envOAuth2ClientID, envOAuth2ClientSecret))
	}
	return credentials{}
}

// resolveHeaders reads the extra headers from the block, else from
// RMS_HEADERS, a JSON object: header values often hold commas and equals
// signs (lists, base64), which a Name=value,... form could not carry.
// Values are secrets, so no message quotes one.
func resolveHeaders(ctx context.Context, cfg providerModel, env func(string) (string, bool), diags *diag.Diagnostics) map[string]string {
	headers := map[string]string{}
	if !cfg.Headers.IsNull() {
		diags.Append(cfg.Headers.ElementsAs(ctx, &headers, false)...)
		// The schema's validator has refused bad names and values already.
		return headers
	}
	raw, ok := env(envHeaders)
	if !ok || strings.TrimSpace(raw) == "" {
		return nil
	}
	if err := json.Unmarshal([]byte(raw), &headers); err != nil {
		diags.AddAttributeError(path.Root(attrHeaders), "Invalid "+envHeaders,
			fmt.Sprintf("The %s environment variable must be a JSON object of header names to string values, such as {\"X-Gateway-Key\": \"...\"}: %s.", envHeaders, jsonProblem(err)))
		return nil
	}
	names := make([]string, 0, len(headers))
	for n := range headers {
		names = append(names, n)
	}
	slices.Sort(names)
	for _, n := range names {
		if err := client.CheckHeader(n, headers[n]); err != nil {
			diags.AddAttributeError(path.Root(attrHeaders), "Invalid header",
				fmt.Sprintf("In the %s environment variable (standing for %s): %s.", envHeaders, attrHeaders, err))
		}
	}
	return headers
}

// jsonProblem describes a JSON error without quoting the input, which holds
// secrets.
func jsonProblem(err error) string {
	var typeErr *json.UnmarshalTypeError
	if errors.As(err, &typeErr) {
		return "every value must be a string (found " + typeErr.Value + ")"
	}
	var syntaxErr *json.SyntaxError
	if errors.As(err, &syntaxErr) {
		return fmt.Sprintf("not valid JSON (at byte %d)", syntaxErr.Offset)
	}
	return "not a JSON object"
}

// resolveClientCertificate loads the certificate for mutual TLS, from files
// (attributes or variables) or from PEM text; nil when none is configured.
func resolveClientCertificate(cfg providerModel, env func(string) (string, bool), diags *diag.Diagnostics) *tls.Certificate {
	certFile := stringSetting(cfg.ClientCertificateFile, env, envClientCertificateFile)
	keyFile := stringSetting(cfg.ClientKeyFile, env, envClientKeyFile)
	certPEM := strings.TrimSpace(cfg.ClientCertificatePEM.ValueString())
	keyPEM := strings.TrimSpace(cfg.ClientKeyPEM.ValueString())
	files, pems := certFile != "" || keyFile != "", certPEM != "" || keyPEM != ""
	switch {
	case files && pems:
		at := attrClientCertificatePEM
		if certPEM == "" {
			at = attrClientKeyPEM
		}
		diags.AddAttributeError(path.Root(at), "Conflicting client certificate settings",
			fmt.Sprintf("%s and %s (or %s and %s) give the client certificate as files, and %s and %s as PEM text: use one form only. An environment variable counts like its attribute.",
				attrClientCertificateFile, attrClientKeyFile, envClientCertificateFile, envClientKeyFile, attrClientCertificatePEM, attrClientKeyPEM))
		return nil
	case files:
		if !pairComplete(certFile, keyFile, attrClientCertificateFile+" (or "+envClientCertificateFile+")", attrClientKeyFile+" (or "+envClientKeyFile+")", attrClientCertificateFile, attrClientKeyFile, diags) {
			return nil
		}
		cert, err := readFile(certFile, attrClientCertificateFile, envClientCertificateFile, diags)
		key, kerr := readFile(keyFile, attrClientKeyFile, envClientKeyFile, diags)
		if err != nil || kerr != nil {
			return nil
		}
		return keyPair(cert, key, attrClientCertificateFile, attrClientKeyFile, diags)
	case pems:
		if !pairComplete(certPEM, keyPEM, attrClientCertificatePEM, attrClientKeyPEM, attrClientCertificatePEM, attrClientKeyPEM, diags) {
			return nil
		}
		return keyPair([]byte(certPEM), []byte(keyPEM), attrClientCertificatePEM, attrClientKeyPEM, diags)
	}
	return nil
}

// pairComplete reports whether both halves of a certificate and its key are
// given, adding an error on the missing one otherwise.
func pairComplete(cert, key, certName, keyName, certAttr, keyAttr string, diags *diag.Diagnostics) bool {
	switch {
	case cert == "":
		diags.AddAttributeError(path.Root(certAttr), "Incomplete client certificate",
			fmt.Sprintf("%s is set but %s is not: a client certificate needs both the certificate and its private key.", keyName, certName))
		return false
	case key == "":
		diags.AddAttributeError(path.Root(keyAttr), "Incomplete client certificate",
			fmt.Sprintf("%s is set but %s is not: a client certificate needs both the certificate and its private key.", certName, keyName))
		return false
	}
	return true
}

func readFile(name, attr, envVar string, diags *diag.Diagnostics) ([]byte, error) {
	b, err := os.ReadFile(name)
	if err != nil {
		diags.AddAttributeError(path.Root(attr), "Unreadable client certificate",
			fmt.Sprintf("Reading %q (from %s or %s): %s. Point it at a PEM file.", name, attr, envVar, err))
	}
	return b, err
}

func keyPair(cert, key []byte, certAttr, keyAttr string, diags *diag.Diagnostics) *tls.Certificate {
	pair, err := tls.X509KeyPair(cert, key)
	if err != nil {
		// tls's errors name the problem, never the key's content.
		diags.AddAttributeError(path.Root(certAttr), "Invalid client certificate",
			fmt.Sprintf("%s and %s do not hold a PEM certificate and its matching private key: %s.", certAttr, keyAttr, err))
		return nil
	}
	return &pair
}

// headersValidator refuses, at plan time, extra headers the client would
// refuse: headers the provider owns, invalid names, values with control
// characters. The diagnostic names the header; never its value.
type headersValidator struct{}

var _ validator.Map = headersValidator{}

func (headersValidator) Description(context.Context) string {
	return "header names must be valid and not among the headers the provider sets itself"
}

func (v headersValidator) MarkdownDescription(ctx context.Context) string { return v.Description(ctx) }

func (headersValidator) ValidateMap(ctx context.Context, req validator.MapRequest, resp *validator.MapResponse) {
	if req.ConfigValue.IsNull() || req.ConfigValue.IsUnknown() {
		return
	}
	for name, v := range req.ConfigValue.Elements() {
		s, ok := v.(types.String)
		if !ok || s.IsUnknown() {
			continue
		}
		if err := client.CheckHeader(name, s.ValueString()); err != nil {
			resp.Diagnostics.AddAttributeError(req.Path.AtMapKey(name), "Invalid header",
				fmt.Sprintf("%s: %s.", attrHeaders, err))
		}
	}
}
