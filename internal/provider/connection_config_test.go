package provider

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/hashicorp/terraform-plugin-framework/attr"
	"github.com/hashicorp/terraform-plugin-framework/diag"
	"github.com/hashicorp/terraform-plugin-framework/path"
	"github.com/hashicorp/terraform-plugin-framework/schema/validator"
	"github.com/hashicorp/terraform-plugin-framework/types"

	"github.com/rms-labs/terraform-provider-rms/internal/client"
	"github.com/rms-labs/terraform-provider-rms/internal/testpki"
)

// nullModel is a provider block with every attribute null.
func nullModel() providerModel {
	return providerModel{
		Username: types.StringNull(), Password: types.StringNull(), Token: types.StringNull(),
		Headers:               types.MapNull(types.StringType),
		ClientCertificateFile: types.StringNull(), ClientKeyFile: types.StringNull(),
		ClientCertificatePEM: types.StringNull(), ClientKeyPEM: types.StringNull(),
		OAuth2: types.ObjectNull(oauth2Types),
	}
}

// oauth2Types are the attribute types of the oauth2 attribute.
var oauth2Types = map[string]attr.Type{
	"token_url": types.StringType, "client_id": types.StringType, "client_secret": types.StringType,
	"scopes": types.ListType{ElemType: types.StringType}, "endpoint_params": types.MapType{ElemType: types.StringType},
}

// oauth2Value is an oauth2 attribute of client "ci"; an empty string is
// null.
func oauth2Value(tokenURL, secret string) types.Object {
	s := func(v string) attr.Value {
		if v == "" {
			return types.StringNull()
		}
		return types.StringValue(v)
	}
	return types.ObjectValueMust(oauth2Types, map[string]attr.Value{
		"token_url": s(tokenURL), "client_id": s("ci"), "client_secret": s(secret), "scopes": types.ListNull(types.StringType),
		"endpoint_params": types.MapNull(types.StringType),
	})
}

func envOf(m map[string]string) func(string) (string, bool) {
	return func(k string) (string, bool) { v, ok := m[k]; return v, ok }
}

// errorsOf returns the summaries and the details of the errors.
func errorsOf(diags diag.Diagnostics) (summaries, details string) {
	var s, d []string
	for _, e := range diags.Errors() {
		s = append(s, e.Summary())
		d = append(d, e.Detail())
	}
	return strings.Join(s, "|"), strings.Join(d, "\n")
}

func TestResolveCredentials(t *testing.T) {
	t.Parallel()
	with := func(f func(*providerModel)) providerModel { m := nullModel(); f(&m); return m }
	cases := map[string]struct {
		cfg        providerModel
		env        map[string]string
		wantScheme string
		wantErr    string   // summary
		wantNames  []string // the detail must name these
	}{
		"basic in the block":         {cfg: with(func(m *providerModel) { m.Username, m.Password = types.StringValue("u"), types.StringValue("p") }), wantScheme: "basic"},
		"token in the block":         {cfg: with(func(m *providerModel) { m.Token = types.StringValue("t") }), wantScheme: "bearer"},
		"token from RMS_TOKEN":       {cfg: nullModel(), env: map[string]string{"RMS_TOKEN": "t"}, wantScheme: "bearer"},
		"basic from the environment": {cfg: nullModel(), env: map[string]string{"RMS_USERNAME": "u", "RMS_PASSWORD": "p"}, wantScheme: "basic"},
		"token and basic": {
			cfg:     with(func(m *providerModel) { m.Token = types.StringValue("t") }),
			env:     map[string]string{"RMS_USERNAME": "u", "RMS_PASSWORD": "p"},
			wantErr: "Conflicting credentials", wantNames: []string{"token", "RMS_TOKEN", "username (or RMS_USERNAME) and password (or RMS_PASSWORD)"},
		},
		"token and a username alone": {
			cfg:     with(func(m *providerModel) { m.Token, m.Username = types.StringValue("t"), types.StringValue("u") }),
			wantErr: "Conflicting credentials", wantNames: []string{"and so is username (or RMS_USERNAME)."},
		},
		"username without password": {
			cfg:     with(func(m *providerModel) { m.Username = types.StringValue("u") }),
			wantErr: "Missing password", wantNames: []string{"RMS_PASSWORD", "token (RMS_TOKEN)"},
		},
		"password without username": {
			cfg:     nullModel(),
			env:     map[string]string{"RMS_PASSWORD": "p"},
			wantErr: "Missing username", wantNames: []string{"RMS_USERNAME"},
		},
		"nothing": {cfg: nullModel(), wantErr: "Missing credentials", wantNames: []string{"username", "password", "token", "RMS_TOKEN", "oauth2"}},
		"oauth2 in the block": {
			cfg:        with(func(m *providerModel) { m.OAuth2 = oauth2Value("https://auth.example.com/token", "s") }),
			wantScheme: "oauth2",
		},
		"oauth2 from the environment": {
			cfg:        nullModel(),
			env:        map[string]string{"RMS_OAUTH2_TOKEN_URL": "https://auth.example.com/token", "RMS_OAUTH2_CLIENT_ID": "ci", "RMS_OAUTH2_CLIENT_SECRET": "s"},
			wantScheme: "oauth2",
		},
		"oauth2 secret from the environment": {
			cfg:        with(func(m *providerModel) { m.OAuth2 = oauth2Value("https://auth.example.com/token", "") }),
			env:        map[string]string{"RMS_OAUTH2_CLIENT_SECRET": "s"},
			wantScheme: "oauth2",
		},
		"oauth2 and basic": {
			cfg:     with(func(m *providerModel) { m.OAuth2 = oauth2Value("https://auth.example.com/token", "s") }),
			env:     map[string]string{"RMS_USERNAME": "u", "RMS_PASSWORD": "p"},
			wantErr: "Conflicting credentials", wantNames: []string{"oauth2", "username (or RMS_USERNAME) and password (or RMS_PASSWORD)"},
		},
		"oauth2 variables and a token": {
			cfg:     with(func(m *providerModel) { m.Token = types.StringValue("t") }),
			env:     map[string]string{"RMS_OAUTH2_CLIENT_ID": "ci"},
			wantErr: "Conflicting credentials", wantNames: []string{"token (or RMS_TOKEN)"},
		},
		"oauth2 without its token URL": {
			cfg:     with(func(m *providerModel) { m.OAuth2 = oauth2Value("", "s") }),
			wantErr: "Incomplete OAuth 2.0 client credentials", wantNames: []string{"oauth2.token_url", "RMS_OAUTH2_TOKEN_URL"},
		},
		"oauth2 token URL in clear text": {
			cfg:     with(func(m *providerModel) { m.OAuth2 = oauth2Value("http://auth.example.com/token", "s") }),
			wantErr: "Invalid OAuth 2.0 token URL", wantNames: []string{"plain http"},
		},
		"empty token counts as unset": {
			cfg:     with(func(m *providerModel) { m.Token = types.StringValue("  ") }),
			wantErr: "Missing credentials",
		},
	}
	for name, tc := range cases {
		t.Run(name, func(t *testing.T) {
			t.Parallel()
			var diags diag.Diagnostics
			got := resolveCredentials(context.Background(), tc.cfg, envOf(tc.env), &diags)
			summaries, details := errorsOf(diags)
			if summaries != tc.wantErr {
				t.Fatalf("errors %q, want %q (%s)", summaries, tc.wantErr, details)
			}
			for _, n := range tc.wantNames {
				if !strings.Contains(details, n) {
					t.Errorf("detail does not name %q: %s", n, details)
				}
			}
			if got.scheme != tc.wantScheme {
				t.Errorf("scheme %q, want %q", got.scheme, tc.wantScheme)
			}
			if tc.wantScheme == "bearer" {
				if _, ok := got.auth.(client.BearerAuth); !ok || len(got.secrets) != 1 || got.secrets[0] != "t" {
					t.Errorf("bearer credentials %+v: the token must be the one secret to mask", got)
				}
			}
		})
	}
}

func TestResolveHeaders(t *testing.T) {
	t.Parallel()
	block := nullModel()
	block.Headers = types.MapValueMust(types.StringType, map[string]attr.Value{"X-Block": types.StringValue("b")})
	cases := map[string]struct {
		cfg     providerModel
		env     string
		want    map[string]string
		wantErr string
	}{
		"none":                           {cfg: nullModel()},
		"block":                          {cfg: block, want: map[string]string{"X-Block": "b"}},
		"block wins over RMS_HEADERS":    {cfg: block, env: `{"X-Env":"e"}`, want: map[string]string{"X-Block": "b"}},
		"RMS_HEADERS as JSON":            {cfg: nullModel(), env: `{"X-Gateway-Key":"k=1,2","X-Tenant":"blue"}`, want: map[string]string{"X-Gateway-Key": "k=1,2", "X-Tenant": "blue"}},
		"RMS_HEADERS not JSON":           {cfg: nullModel(), env: `X-Gateway-Key=secret-value`, wantErr: "Invalid RMS_HEADERS"},
		"RMS_HEADERS with a number":      {cfg: nullModel(), env: `{"X-Count":3}`, wantErr: "Invalid RMS_HEADERS"},
		"RMS_HEADERS with Authorization": {cfg: nullModel(), env: `{"authorization":"secret-value"}`, wantErr: "Invalid header"},
	}
	for name, tc := range cases {
		t.Run(name, func(t *testing.T) {
			t.Parallel()
			env := map[string]string{}
			if tc.env != "" {
				env["RMS_HEADERS"] = tc.env
			}
			var diags diag.Diagnostics
			got := resolveHeaders(context.Background(), tc.cfg, envOf(env), &diags)
			summaries, details := errorsOf(diags)
			if summaries != tc.wantErr {
				t.Fatalf("errors %q, want %q (%s)", summaries, tc.wantErr, details)
			}
			if strings.Contains(details, "secret-value") {
				t.Errorf("a diagnostic quotes a header value: %s", details)
			}
			if tc.wantErr != "" && !strings.Contains(details, "RMS_HEADERS") {
				t.Errorf("the diagnostic does not name RMS_HEADERS: %s", details)
			}
			if len(got) != len(tc.want) && tc.wantErr == "" {
				t.Fatalf("headers %v, want %v", got, tc.want)
			}
			for k, v := range tc.want {
				if got[k] != v {
					t.Errorf("header %s = %q, want %q", k, got[k], v)
				}
			}
		})
	}
}

func TestHeadersValidator(t *testing.T) {
	t.Parallel()
	cases := map[string]struct {
		headers  map[string]string
		wantPath string // the attribute path of the error; empty: accepted
		wantText string
	}{
		"custom headers":        {headers: map[string]string{"X-Gateway-Key": "k"}},
		"Authorization":         {headers: map[string]string{"Authorization": "Bearer x"}, wantPath: `headers["Authorization"]`, wantText: `header "Authorization" is set by the provider itself`},
		"user-agent, lower":     {headers: map[string]string{"user-agent": "x"}, wantPath: `headers["user-agent"]`, wantText: "set by the provider itself"},
		"a space in the name":   {headers: map[string]string{"X Key": "x"}, wantPath: `headers["X Key"]`, wantText: "not a valid HTTP header name"},
		"a line break in value": {headers: map[string]string{"X-Key": "a\nb"}, wantPath: `headers["X-Key"]`, wantText: "control character"},
	}
	for name, tc := range cases {
		t.Run(name, func(t *testing.T) {
			t.Parallel()
			elems := map[string]attr.Value{}
			for k, v := range tc.headers {
				elems[k] = types.StringValue(v)
			}
			req := validator.MapRequest{Path: path.Root("headers"), ConfigValue: types.MapValueMust(types.StringType, elems)}
			var resp validator.MapResponse
			headersValidator{}.ValidateMap(context.Background(), req, &resp)
			if tc.wantPath == "" {
				if resp.Diagnostics.HasError() {
					t.Fatalf("refused: %v", resp.Diagnostics)
				}
				return
			}
			errs := resp.Diagnostics.Errors()
			if len(errs) != 1 {
				t.Fatalf("%d errors, want 1: %v", len(errs), resp.Diagnostics)
			}
			wp, ok := errs[0].(diag.DiagnosticWithPath)
			if !ok || wp.Path().String() != tc.wantPath {
				t.Errorf("error not on %s: %v", tc.wantPath, errs[0])
			}
			if !strings.Contains(errs[0].Detail(), tc.wantText) || !strings.Contains(errs[0].Detail(), "headers") {
				t.Errorf("detail %q, want it to name the attribute and say %q", errs[0].Detail(), tc.wantText)
			}
		})
	}
}

func TestResolveClientCertificate(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	ca := testpki.NewCA(t, "ca")
	pair := ca.Client(t, "terraform")
	other := ca.Client(t, "other")
	certFile, keyFile := pair.WriteFiles(t, dir, "client")
	with := func(f func(*providerModel)) providerModel { m := nullModel(); f(&m); return m }
	str := types.StringValue
	cases := map[string]struct {
		cfg      providerModel
		env      map[string]string
		wantCert bool
		wantErr  string
		wantPath string
		wantText []string
	}{
		"none":                 {cfg: nullModel()},
		"files in the block":   {cfg: with(func(m *providerModel) { m.ClientCertificateFile, m.ClientKeyFile = str(certFile), str(keyFile) }), wantCert: true},
		"files from variables": {cfg: nullModel(), env: map[string]string{"RMS_CLIENT_CERTIFICATE_FILE": certFile, "RMS_CLIENT_KEY_FILE": keyFile}, wantCert: true},
		"PEM text": {cfg: with(func(m *providerModel) {
			m.ClientCertificatePEM, m.ClientKeyPEM = str(string(pair.CertPEM)), str(string(pair.KeyPEM))
		}), wantCert: true},
		"certificate file without key": {
			cfg:     with(func(m *providerModel) { m.ClientCertificateFile = str(certFile) }),
			wantErr: "Incomplete client certificate", wantPath: "client_key_file", wantText: []string{"client_certificate_file (or RMS_CLIENT_CERTIFICATE_FILE) is set but client_key_file (or RMS_CLIENT_KEY_FILE) is not"},
		},
		"key PEM without certificate": {
			cfg:     with(func(m *providerModel) { m.ClientKeyPEM = str(string(pair.KeyPEM)) }),
			wantErr: "Incomplete client certificate", wantPath: "client_certificate_pem", wantText: []string{"client_key_pem is set but client_certificate_pem is not"},
		},
		"file and PEM forms": {
			cfg: with(func(m *providerModel) {
				m.ClientCertificatePEM, m.ClientKeyPEM = str(string(pair.CertPEM)), str(string(pair.KeyPEM))
			}),
			env:     map[string]string{"RMS_CLIENT_CERTIFICATE_FILE": certFile, "RMS_CLIENT_KEY_FILE": keyFile},
			wantErr: "Conflicting client certificate settings", wantPath: "client_certificate_pem", wantText: []string{"use one form only"},
		},
		"missing file": {
			cfg: with(func(m *providerModel) {
				m.ClientCertificateFile, m.ClientKeyFile = str(filepath.Join(dir, "nope.crt")), str(keyFile)
			}),
			wantErr: "Unreadable client certificate", wantPath: "client_certificate_file", wantText: []string{"nope.crt"},
		},
		"key of another certificate": {
			cfg: with(func(m *providerModel) {
				m.ClientCertificatePEM, m.ClientKeyPEM = str(string(pair.CertPEM)), str(string(other.KeyPEM))
			}),
			wantErr: "Invalid client certificate", wantPath: "client_certificate_pem", wantText: []string{"client_certificate_pem and client_key_pem", "private key does not match"},
		},
		"not PEM": {
			cfg:     with(func(m *providerModel) { m.ClientCertificatePEM, m.ClientKeyPEM = str("hello"), str("world") }),
			wantErr: "Invalid client certificate", wantPath: "client_certificate_pem",
		},
	}
	for name, tc := range cases {
		t.Run(name, func(t *testing.T) {
			t.Parallel()
			var diags diag.Diagnostics
			got := resolveClientCertificate(tc.cfg, envOf(tc.env), &diags)
			summaries, details := errorsOf(diags)
			if summaries != tc.wantErr {
				t.Fatalf("errors %q, want %q (%s)", summaries, tc.wantErr, details)
			}
			if (got != nil) != tc.wantCert {
				t.Errorf("certificate loaded: %v, want %v", got != nil, tc.wantCert)
			}
			if tc.wantPath != "" {
				wp, ok := diags.Errors()[0].(diag.DiagnosticWithPath)
				if !ok || wp.Path().String() != tc.wantPath {
					t.Errorf("error not on %s: %v", tc.wantPath, diags.Errors()[0])
				}
			}
			for _, w := range tc.wantText {
				if !strings.Contains(details, w) {
					t.Errorf("detail lacks %q: %s", w, details)
				}
			}
			if strings.Contains(details, "PRIVATE KEY") {
				t.Errorf("a diagnostic shows key material: %s", details)
			}
		})
	}
	if _, err := os.Stat(certFile); err != nil {
		t.Fatal(err)
	}
}

func TestUserAgent(t *testing.T) {
	t.Parallel()
	if got, want := userAgent("1.2.3", "1.11.4"), "terraform-provider-rms/1.2.3 (+https://registry.terraform.io/providers/rms-labs/rms) Terraform/1.11.4"; got != want {
		t.Errorf("userAgent = %q, want %q", got, want)
	}
	if got := userAgent("dev", ""); strings.Contains(got, "Terraform/") {
		t.Errorf("userAgent without a Terraform version = %q", got)
	}
}
