package provider

import (
	"context"
	"errors"
	"fmt"
	"regexp"
	"slices"
	"strings"

	"github.com/hashicorp/terraform-plugin-framework-validators/listvalidator"
	"github.com/hashicorp/terraform-plugin-framework-validators/stringvalidator"
	"github.com/hashicorp/terraform-plugin-framework/diag"
	"github.com/hashicorp/terraform-plugin-framework/path"
	"github.com/hashicorp/terraform-plugin-framework/provider/schema"
	"github.com/hashicorp/terraform-plugin-framework/schema/validator"
	"github.com/hashicorp/terraform-plugin-framework/types"
	"github.com/hashicorp/terraform-plugin-framework/types/basetypes"

	"github.com/rms-labs/terraform-provider-rms/internal/client"
)

// This file is the provider block's oauth2 attribute: OAuth 2.0 client
// credentials, for accounts behind a gateway that issues short-lived
// tokens. The client (internal/client/oauth2.go) asks for the token and
// renews it; here the settings are resolved and checked.

const (
	attrOAuth2             = "oauth2"
	attrOAuth2TokenURL     = "token_url"
	attrOAuth2ClientID     = "client_id"
	attrOAuth2ClientSecret = "client_secret"
	attrOAuth2Scopes       = "scopes"
	attrOAuth2Params       = "endpoint_params"

	envOAuth2TokenURL     = "RMS_OAUTH2_TOKEN_URL"
	envOAuth2ClientID     = "RMS_OAUTH2_CLIENT_ID"
	envOAuth2ClientSecret = "RMS_OAUTH2_CLIENT_SECRET"
)

// scopePattern is one scope-token of RFC 6749, section 3.3: printable
// ASCII without spaces, double quotes or backslashes.
var scopePattern = regexp.MustCompile(`^[\x21\x23-\x5B\x5D-\x7E]+$`)

// oauth2Model is the oauth2 attribute.
type oauth2Model struct {
	TokenURL     types.String `tfsdk:"token_url"`
	ClientID     types.String `tfsdk:"client_id"`
	ClientSecret types.String `tfsdk:"client_secret"`
	Scopes       types.List   `tfsdk:"scopes"`
	Params       types.Map    `tfsdk:"endpoint_params"`
}

// oauth2Path is the path of an attribute inside oauth2.
func oauth2Path(attr string) path.Path { return path.Root(attrOAuth2).AtName(attr) }

// oauth2Attribute is the schema of the oauth2 attribute.
func oauth2Attribute() schema.Attribute {
	return schema.SingleNestedAttribute{
		Optional: true,
		Description: "OAuth 2.0 client credentials (RFC 6749, section 4.4), for accounts behind a gateway that issues short-lived bearer tokens; an alternative to `" +
			attrUsername + "` and `" + attrPassword + "` and to `" + attrToken + "`, never together with them. One token per run, shared by every resource, data source and action, renewed before it expires and once on a 401; kept in memory only, never logged nor in state or plan files. " +
			"Each attribute left out is read from its environment variable, and those variables alone configure the client credentials too. See \"OAuth 2.0 client credentials\" on the provider page.",
		Attributes: map[string]schema.Attribute{
			attrOAuth2TokenURL: schema.StringAttribute{
				Optional:    true,
				Description: "The token endpoint, e.g. `https://auth.example.com/oauth2/token` (for the emulator, `{base_url}/oauth2/token`). Must be `https://`, except `http://` to a loopback address: the client secret travels in the request. Also read from `" + envOAuth2TokenURL + "`.",
			},
			attrOAuth2ClientID: schema.StringAttribute{
				Optional:    true,
				Description: "The OAuth 2.0 client id. Also read from `" + envOAuth2ClientID + "`.",
			},
			attrOAuth2ClientSecret: schema.StringAttribute{
				Optional:    true,
				Sensitive:   true,
				Description: "The client secret; never logged. Accepts an ephemeral value (an ephemeral resource's attribute or an `ephemeral = true` variable, Terraform 1.10+), which keeps it out of plan and state files. Also read from `" + envOAuth2ClientSecret + "`.",
			},
			attrOAuth2Scopes: schema.ListAttribute{
				Optional:    true,
				ElementType: types.StringType,
				Description: "Scopes to ask for, sent space-separated; none by default (the endpoint's default scopes).",
				Validators: []validator.List{listvalidator.ValueStringsAre(
					stringvalidator.RegexMatches(scopePattern, "must be one scope: printable, without spaces or quotes (RFC 6749, section 3.3)"),
				)},
			},
			attrOAuth2Params: schema.MapAttribute{
				Optional:    true,
				ElementType: types.StringType,
				Description: "Further parameters of every token request, for gateways that need them, e.g. `{ audience = \"https://api.example.com\" }` (Auth0, Okta) or `{ resource = \"...\" }` (RFC 8707). The flow's own parameters (`" +
					strings.Join(client.ReservedTokenParams, "`, `") + "`) cannot be set here: use `" + attrOAuth2Scopes + "` for the scope.",
				Validators: []validator.Map{reservedTokenParams{}},
			},
		},
	}
}

// oauth2Known reports whether the oauth2 attribute and all it holds are
// known.
func oauth2Known(ctx context.Context, v types.Object) bool {
	if v.IsUnknown() {
		return false
	}
	if v.IsNull() {
		return true
	}
	var m oauth2Model
	if d := v.As(ctx, &m, basetypes.ObjectAsOptions{}); d.HasError() {
		return true // reported by resolveOAuth2
	}
	return !m.TokenURL.IsUnknown() && !m.ClientID.IsUnknown() && !m.ClientSecret.IsUnknown() && listKnown(m.Scopes) && mapKnown(m.Params)
}

// oauth2Configured reports whether client credentials are asked for, by
// the attribute or by their environment variables.
func oauth2Configured(cfg providerModel, env func(string) (string, bool)) bool {
	if !cfg.OAuth2.IsNull() {
		return true
	}
	id, _ := env(envOAuth2ClientID)
	secret, _ := env(envOAuth2ClientSecret)
	return strings.TrimSpace(id) != "" || strings.TrimSpace(secret) != ""
}

// resolveOAuth2 builds the authenticator of the oauth2 attribute and its
// variables, adding an error on each missing or invalid setting.
func resolveOAuth2(ctx context.Context, cfg providerModel, env func(string) (string, bool), diags *diag.Diagnostics) credentials {
	m := oauth2Model{
		TokenURL: types.StringNull(), ClientID: types.StringNull(), ClientSecret: types.StringNull(), Scopes: types.ListNull(types.StringType),
		Params: types.MapNull(types.StringType),
	}
	if !cfg.OAuth2.IsNull() {
		if d := cfg.OAuth2.As(ctx, &m, basetypes.ObjectAsOptions{}); d.HasError() {
			diags.Append(d...)
			return credentials{}
		}
	}
	tokenURL := stringSetting(m.TokenURL, env, envOAuth2TokenURL)
	clientID := stringSetting(m.ClientID, env, envOAuth2ClientID)
	secret := stringSetting(m.ClientSecret, env, envOAuth2ClientSecret)
	var scopes []string
	if !m.Scopes.IsNull() {
		diags.Append(m.Scopes.ElementsAs(ctx, &scopes, false)...)
	}
	var params map[string]string
	if !m.Params.IsNull() {
		diags.Append(m.Params.ElementsAs(ctx, &params, false)...)
	}
	ok := true
	for _, s := range []struct{ value, attr, env, what string }{
		{tokenURL, attrOAuth2TokenURL, envOAuth2TokenURL, "the token endpoint's URL"},
		{clientID, attrOAuth2ClientID, envOAuth2ClientID, "the OAuth 2.0 client id"},
		{secret, attrOAuth2ClientSecret, envOAuth2ClientSecret, "the client secret"},
	} {
		if s.value == "" {
			diags.AddAttributeError(oauth2Path(s.attr), "Incomplete OAuth 2.0 client credentials",
				fmt.Sprintf("%s.%s is not set: set it, or the %s environment variable, to %s. OAuth 2.0 client credentials need %s, %s and %s.",
					attrOAuth2, s.attr, s.env, s.what, attrOAuth2TokenURL, attrOAuth2ClientID, attrOAuth2ClientSecret))
			ok = false
		}
	}
	if !ok {
		return credentials{}
	}
	auth, err := client.NewOAuth2(tokenURL, clientID, secret, scopes, params)
	if err != nil {
		// The validator refuses reserved parameters first; what is left is
		// the URL.
		diags.AddAttributeError(oauth2Path(attrOAuth2TokenURL), "Invalid OAuth 2.0 token URL",
			fmt.Sprintf("%s.%s (or %s): %s.", attrOAuth2, attrOAuth2TokenURL, envOAuth2TokenURL, err))
		return credentials{}
	}
	return credentials{auth: auth, scheme: "oauth2", username: clientID, secrets: []string{secret}}
}

// oauth2Conflict names, for the conflict error, the other credentials set
// beside the oauth2 ones.
func oauth2Conflict(username, password, token string) string {
	var set []string
	for _, s := range []struct{ value, attr, env string }{
		{username, attrUsername, envUsername}, {password, attrPassword, envPassword}, {token, attrToken, envToken},
	} {
		if s.value != "" {
			set = append(set, s.attr+" (or "+s.env+")")
		}
	}
	return fmt.Sprintf("%s (or %s and %s) is set, and so is %s. The provider authenticates with one scheme: OAuth 2.0 client credentials, a bearer token, or username and password (HTTP Basic). Remove one; an environment variable counts like its attribute.",
		attrOAuth2, envOAuth2ClientID, envOAuth2ClientSecret, strings.Join(set, " and "))
}

// oauth2RefusalPath is the attribute a refusal of the token endpoint
// points at: the scopes for invalid_scope, else the secret.
func oauth2RefusalPath(err error) path.Path {
	var te *client.TokenError
	if errors.As(err, &te) && te.Code == "invalid_scope" {
		return oauth2Path(attrOAuth2Scopes)
	}
	return oauth2Path(attrOAuth2ClientSecret)
}

// reservedTokenParams refuses endpoint_params that set a parameter of the
// flow itself, which golang.org/x/oauth2 would refuse at the first token
// request, in the middle of the plan's credentials check.
type reservedTokenParams struct{}

func (reservedTokenParams) Description(context.Context) string {
	return "sets none of the token request's own parameters (" + strings.Join(client.ReservedTokenParams, ", ") + ")"
}

func (v reservedTokenParams) MarkdownDescription(ctx context.Context) string {
	return v.Description(ctx)
}

func (reservedTokenParams) ValidateMap(_ context.Context, req validator.MapRequest, resp *validator.MapResponse) {
	for key := range req.ConfigValue.Elements() {
		if !slices.Contains(client.ReservedTokenParams, key) {
			continue
		}
		do := "remove it"
		if key == "scope" {
			do = "set " + attrOAuth2 + "." + attrOAuth2Scopes + " instead"
		}
		resp.Diagnostics.AddAttributeError(req.Path.AtMapKey(key), "Reserved token request parameter",
			fmt.Sprintf("%s.%s sets %q, which the client-credentials flow writes itself (%s are all its own): %s.",
				attrOAuth2, attrOAuth2Params, key, strings.Join(client.ReservedTokenParams, ", "), do))
	}
}
