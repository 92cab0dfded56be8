package provider_test

import (
	"fmt"
	"strings"
	"testing"

	"github.com/hashicorp/terraform-plugin-testing/helper/resource"
	"github.com/hashicorp/terraform-plugin-testing/tfversion"

	"github.com/rms-labs/terraform-provider-rms/internal/acctest"
	"github.com/rms-labs/terraform-provider-rms/internal/emulator"
)

// badInput is one row of the bad-input catalogue: what a user (or a broken
// server) can do wrong, and the diagnostic that must name the cause and
// what to do. The rows are the troubleshooting guide's table
// (templates/guides/troubleshooting.md); TestTroubleshootingGuideCoversCatalogue
// keeps the two together.
type badInput struct {
	opts   emulator.Options
	seed   func(t *testing.T, env *acctest.Env)
	config func(env *acctest.Env) string
	want   []string
	// empty lists collections that must hold nothing afterwards: a failed
	// apply leaves nothing on the server.
	empty []string
	// needs are the CLI features the row's configuration uses (the suite
	// also runs on OpenTofu 1.10, which lacks write-only attributes).
	needs []tfversion.TerraformVersionCheck
}

// providerWith is a provider block for env with extra settings, or with
// settings left out (a key mapped to "").
func providerWith(env *acctest.Env, settings map[string]string) string {
	base := map[string]string{
		"base_url":    fmt.Sprintf("%q", env.URL),
		"customer_id": fmt.Sprint(env.CustomerID),
		"username":    fmt.Sprintf("%q", env.Username),
		"password":    fmt.Sprintf("%q", env.Password),
	}
	for k, v := range settings {
		base[k] = v
	}
	var b strings.Builder
	b.WriteString("provider \"rms\" {\n")
	for _, k := range []string{"base_url", "customer_id", "username", "password", "token", "headers", "client_certificate_file", "client_key_file", "client_certificate_pem", "client_key_pem", "oauth2", "request_timeout", "max_retries", "batch_poll_interval", "ca_bundle_file", "max_requests_per_second", "suppression_list_id"} {
		if v := base[k]; v != "" {
			fmt.Fprintf(&b, "  %s = %s\n", k, v)
		}
	}
	b.WriteString("}\n")
	return b.String()
}

func withProvider(settings map[string]string, hcl string) func(*acctest.Env) string {
	return func(env *acctest.Env) string { return providerWith(env, settings) + hcl }
}

// oauth2Opts is an account of the OAuth 2.0 client "ci" (secret
// "s3cret"), with the default Basic user kept.
func oauth2Opts() emulator.Options {
	return emulator.Options{Username: emulator.DefaultUsername, OAuth2Clients: map[string]string{"ci": "s3cret"}}
}

// withOAuth2 is a provider block of client credentials for env's token
// endpoint with secret (HCL), and username and password too unless
// basic is empty.
func withOAuth2(secret, basic string) func(*acctest.Env) string {
	return func(env *acctest.Env) string {
		settings := map[string]string{
			"oauth2": fmt.Sprintf(`{ token_url = %q, client_id = "ci", client_secret = %s }`, env.URL+emulator.OAuth2TokenPath, secret),
		}
		if basic == "" {
			settings["username"], settings["password"] = "", ""
		}
		return providerWith(env, settings) + aProject
	}
}

func withEnv(hcl string) func(*acctest.Env) string {
	return func(env *acctest.Env) string { return env.Config(hcl) }
}

// corrupt answers every GET of projects with a broken body.
func corrupt(kind string) emulator.Options {
	return emulator.Options{Faults: emulator.FaultOptions{Rate: 1, Kinds: []string{kind}, Methods: []string{"GET"}, PathPrefix: "projects"}}
}

const (
	aProject    = `resource "rms_project" "p" { name = "P" }`
	readProject = `data "rms_project" "p" { id = "5" }`
	aList       = `resource "rms_list" "l" { name = "L" }`
	anImport    = `resource "rms_list_import" "i" {
  list_id = "5"
  type    = "ADD"
  content = "originalId\na\n"
}`
)

func aContact(attrs string) string {
	return `
resource "rms_list" "l" { name = "L" }
resource "rms_contact" "c" {
  list_id     = rms_list.l.id
  original_id = "c-1"
` + attrs + `
}`
}

// aContactOfList5 is a contact of list 5, which no test list has unless
// the row seeds it.
func aContactOfList5(attrs string) string {
	return `
resource "rms_contact" "c" {
  list_id     = "5"
  original_id = "c-1"
` + attrs + `
}`
}

func aResource(collection, body string) string {
	return fmt.Sprintf(`
resource "rms_resource" "r" {
  collection = %q
  body       = %s
}`, collection, body)
}

func aWebhook(attrs string) string {
	return `
resource "rms_webhook" "w" {
` + attrs + `
}`
}

func badInputCatalogue() map[string]badInput {
	return map[string]badInput{
		// Provider configuration.
		"base_url missing":                     {config: withProvider(map[string]string{"base_url": ""}, aProject), want: []string{"Missing base URL", "RMS_BASE_URL"}},
		"base_url not a URL":                   {config: withProvider(map[string]string{"base_url": `"server.example.com"`}, aProject), want: []string{"Invalid base URL", "absolute https:// URL"}},
		"base_url plain http to a remote host": {config: withProvider(map[string]string{"base_url": `"http://rms.example.com"`}, aProject), want: []string{"Invalid base URL", "use https"}},
		"customer_id below one":                {config: withProvider(map[string]string{"customer_id": "0"}, aProject), want: []string{"customer_id", "must be at least 1"}},
		"customer_id not a number":             {config: withProvider(map[string]string{"customer_id": `"acme"`}, aProject), want: []string{"Incorrect attribute value type", "customer_id"}},
		"username missing":                     {config: withProvider(map[string]string{"username": ""}, aProject), want: []string{"Missing username", "RMS_USERNAME"}},
		"password missing":                     {config: withProvider(map[string]string{"password": ""}, aProject), want: []string{"Missing password", "RMS_PASSWORD"}},
		"request_timeout not a duration":       {config: withProvider(map[string]string{"request_timeout": `"soon"`}, aProject), want: []string{"Invalid Time Duration String Value", "request_timeout", `time: invalid duration "soon"`}},
		"batch_poll_interval too short":        {config: withProvider(map[string]string{"batch_poll_interval": `"10ms"`}, aProject), want: []string{"Invalid batch_poll_interval", "at least 1s"}},
		"max_retries out of range":             {config: withProvider(map[string]string{"max_retries": "99"}, aProject), want: []string{"max_retries", "must be between 0 and 20"}},
		"max_requests_per_second negative":     {config: withProvider(map[string]string{"max_requests_per_second": "-1"}, aProject), want: []string{"max_requests_per_second", "must be at least 0"}},
		"ca_bundle_file missing":               {config: withProvider(map[string]string{"ca_bundle_file": `"/nonexistent/ca.pem"`}, aProject), want: []string{"Unreadable CA bundle", "PEM file"}},
		"wrong password":                       {config: withProvider(map[string]string{"password": `"wrong"`}, aProject), want: []string{"Credentials refused by the service", "401 UNAUTHORIZED", "Check username and password"}, empty: []string{"projects"}},
		"customer_id of another account":       {config: withProvider(map[string]string{"customer_id": "4242"}, aProject), want: []string{"Customer id refused by the service", "403 FORBIDDEN", "Check customer_id"}, empty: []string{"projects"}},

		// Connections: credentials, extra headers, client certificates.
		"no credentials at all":                 {config: withProvider(map[string]string{"username": "", "password": ""}, aProject), want: []string{"Missing credentials", "RMS_USERNAME", "RMS_TOKEN"}},
		"token and username/password both set":  {config: withProvider(map[string]string{"token": `"t"`}, aProject), want: []string{"Conflicting credentials", "token (or RMS_TOKEN) is set", "one scheme"}},
		"wrong token":                           {opts: emulator.Options{Token: "right-token", Username: emulator.DefaultUsername}, config: withProvider(map[string]string{"username": "", "password": "", "token": `"wrong-token"`}, aProject), want: []string{"Credentials refused by the service", "401 UNAUTHORIZED", "or token"}, empty: []string{"projects"}},
		"header the provider owns":              {config: withProvider(map[string]string{"headers": `{ "authorization" = "Bearer x" }`}, aProject), want: []string{"Invalid header", `header "authorization" is set by the provider itself`}},
		"header name invalid":                   {config: withProvider(map[string]string{"headers": `{ "X Key" = "x" }`}, aProject), want: []string{"Invalid header", "not a valid HTTP header name"}},
		"client certificate without its key":    {config: withProvider(map[string]string{"client_certificate_file": `"/nonexistent/client.crt"`}, aProject), want: []string{"Incomplete client certificate", "client_key_file"}},
		"client certificate as file and as PEM": {config: withProvider(map[string]string{"client_certificate_file": `"/a.crt"`, "client_key_file": `"/a.key"`, "client_certificate_pem": `"x"`, "client_key_pem": `"y"`}, aProject), want: []string{"Conflicting client certificate settings", "use one form only"}},
		"client certificate file missing":       {config: withProvider(map[string]string{"client_certificate_file": `"/nonexistent/client.crt"`, "client_key_file": `"/nonexistent/client.key"`}, aProject), want: []string{"Unreadable client certificate", "client_certificate_file"}},
		"oauth2 wrong client secret":            {opts: oauth2Opts(), config: withOAuth2(`"wrong"`, ""), want: []string{"Credentials refused by the service", "invalid_client", "Check oauth2.client_id and oauth2.client_secret"}},
		"oauth2 without its token URL":          {config: withProvider(map[string]string{"username": "", "password": "", "oauth2": `{ client_id = "ci", client_secret = "s" }`}, aProject), want: []string{"Incomplete OAuth 2.0 client credentials", "RMS_OAUTH2_TOKEN_URL"}},
		"oauth2 token URL in clear text":        {config: withProvider(map[string]string{"username": "", "password": "", "oauth2": `{ token_url = "http://auth.example.com/token", client_id = "ci", client_secret = "s" }`}, aProject), want: []string{"Invalid OAuth 2.0 token URL", "plain http"}},
		"oauth2 and username/password both set": {opts: oauth2Opts(), config: withOAuth2(`"s3cret"`, "keep-basic"), want: []string{"Conflicting credentials", "oauth2 (or RMS_OAUTH2_CLIENT_ID and RMS_OAUTH2_CLIENT_SECRET) is set", "one scheme"}},
		"oauth2 scope with a space":             {config: withProvider(map[string]string{"username": "", "password": "", "oauth2": `{ token_url = "https://auth.example.com/token", client_id = "ci", client_secret = "s", scopes = ["lists contacts"] }`}, aProject), want: []string{"oauth2.scopes", "must be one scope"}},
		"oauth2 scope in endpoint_params":       {config: withProvider(map[string]string{"username": "", "password": "", "oauth2": `{ token_url = "https://auth.example.com/token", client_id = "ci", client_secret = "s", endpoint_params = { scope = "lists" } }`}, aProject), want: []string{"Reserved token request parameter", "oauth2.endpoint_params sets \"scope\"", "set oauth2.scopes instead"}},
		"oauth2 token URL answered 404":         {opts: oauth2Opts(), config: func(env *acctest.Env) string { return oauth2Block(env.URL, env, env.URL+"/oauth/token") + aProject }, want: []string{"Token endpoint refused the token request", "(HTTP 404)", "oauth2.token_url (or RMS_OAUTH2_TOKEN_URL)"}, empty: []string{"projects"}},
		"base_url https to a plain-HTTP server": {config: func(env *acctest.Env) string {
			return providerWith(env, map[string]string{"base_url": fmt.Sprintf("%q", strings.Replace(env.URL, "http://", "https://", 1))}) + aProject
		}, want: []string{"TLS spoken to a plain-HTTP server", "base_url (or RMS_BASE_URL) starts with https://"}, empty: []string{"projects"}},
		"client certificate PEM not a certificate": {config: withProvider(map[string]string{"client_certificate_pem": `"not a certificate"`, "client_key_pem": `"nor a key"`}, aProject), want: []string{"Invalid client certificate", "client_certificate_pem and client_key_pem"}},

		// Server answers a broken proxy might give.
		"server answers HTML instead of JSON": {opts: corrupt(emulator.FaultHTML), config: withEnv(readProject), want: []string{"expected a JSON answer but the server sent text/html"}},
		"server answers an empty body":        {opts: corrupt(emulator.FaultEmpty), config: withEnv(readProject), want: []string{"empty body where a JSON answer was expected"}},
		"server answers truncated JSON":       {opts: corrupt(emulator.FaultTruncated), config: withEnv(readProject), want: []string{"the JSON answer was cut short"}},
		"server answers malformed JSON":       {opts: corrupt(emulator.FaultMalformed), config: withEnv(readProject), want: []string{"decoding the JSON answer"}},
		"server answers a huge body":          {opts: corrupt(emulator.FaultHuge), config: withEnv(readProject), want: []string{"cut short (truncated or over 64 MiB)"}},
		"server redirects to another host":    {opts: corrupt(emulator.FaultRedirect), config: withEnv(readProject), want: []string{"redirect"}},
		"server keeps failing":                {opts: emulator.Options{Faults: emulator.FaultOptions{Rate: 1, Kinds: []string{emulator.FaultUnavailable}, RetryAfter: 1}}, config: withProvider(map[string]string{"max_retries": "1"}, readProject), want: []string{"503", "retry later"}},
		"resource retired by the service":     {opts: emulator.Options{Retired: map[string]string{"projects": "Projects moved to workspaces"}}, config: withEnv(aProject), want: []string{"410 GONE: Projects moved to workspaces"}},

		// rms_project and rms_list.
		"project name empty":   {config: withEnv(`resource "rms_project" "p" { name = "" }`), want: []string{"name string length must be at least 1"}},
		"project name missing": {config: withEnv(`resource "rms_project" "p" {}`), want: []string{`The argument "name" is required`}},
		"list name empty":      {config: withEnv(`resource "rms_list" "l" { name = "" }`), want: []string{"name string length must be at least 1"}},
		"list sender e-mail malformed": {config: withEnv(`resource "rms_list" "l" { 
  name = "L"
  sender_email = "Ada <ada@example.com>"
}`), want: []string{"Invalid e-mail address", `sender_email "Ada <ada@example.com>" is more than a bare e-mail address`, `write "ada@example.com"`}, empty: []string{"lists"}},
		"project looked up by an unknown name": {config: withEnv(`data "rms_project" "p" { name = "Nobody" }`), want: []string{`no project is named "Nobody"`}},

		// rms_contact.
		// A key of no attribute is a warning at plan (the attribute may be
		// made earlier in the apply) and refused before the first write:
		// the contact's list is that of a list id no list has, so any write
		// would show.
		"contact property of an unknown attribute":    {config: withEnv(aContactOfList5(`  properties = { colour = "red" }`)), want: []string{"Unknown contact attribute", `key "colour" names no contact attribute of the account (its attributes: email, mobile, firstname, lastname)`, "Nothing was written", `collection = "properties"`}, empty: []string{"lists"}},
		"contact property of an unknown attribute id": {config: withEnv(aContactOfList5(`  properties = { "999" = "x" }`)), want: []string{"Unknown contact attribute", `key "999" names an attribute id the account does not have`, "Nothing was written"}, empty: []string{"lists"}},
		"contact e-mail status not an allowed value":  {config: withEnv(aContact(`  email_status = "subscribed"`)), want: []string{"email_status", `value must be one of: ["SUBSCRIBED" "UNSUBSCRIBED"]`}},
		"contact mobile status not an allowed value":  {config: withEnv(aContact(`  mobile_status = "OPTED_OUT"`)), want: []string{"mobile_status", `value must be one of`}},
		"contact original id empty": {config: withEnv(`resource "rms_contact" "c" {
  list_id     = "5"
  original_id = ""
}`), want: []string{"original_id", "string length must be at least 1"}},
		"contact in a list that does not exist": {config: withEnv(`resource "rms_contact" "c" {
  list_id     = "99999"
  original_id = "c-1"
}`), want: []string{"list_id", "List 99999 does not exist"}},
		"contact list id not a number": {config: withEnv(`resource "rms_contact" "c" {
  list_id     = "news"
  original_id = "c-1"
}`), want: []string{"list_id", "must be the numeric id of a list"}},
		"exclusive create on a list with subscribers it does not name": {
			seed: func(t *testing.T, env *acctest.Env) {
				env.MustDo(t, "POST", "lists", map[string]any{"name": "Seeded"}, nil)
				env.MustDo(t, "POST", "lists/5/contacts", map[string]any{"originalId": "stranger"}, nil)
			},
			config: withEnv(`resource "rms_list_contacts" "c" {
  list_id   = "5"
  exclusive = true
  contacts = {
    "a" = {}
  }
}`), want: []string{"Unsubscriptions on create need a limit set explicitly", `"stranger"`, "max_unsubscribe = 1", "exclusive = false"},
		},
		"contact original id already taken": {
			seed: func(t *testing.T, env *acctest.Env) {
				var l map[string]any
				env.MustDo(t, "POST", "lists", map[string]any{"name": "Seeded"}, &l)
				env.MustDo(t, "POST", fmt.Sprintf("lists/%v/contacts", l["id"]), map[string]any{"originalId": "taken"}, nil)
			},
			config: withEnv(`resource "rms_contact" "c" {
  list_id     = "5"
  original_id = "taken"
}`), want: []string{"Contact already exists", "terraform import rms_contact.example 5/taken"},
		},

		// rms_list_contacts and rms_list_import: input the service refuses,
		// refused at plan (a key of no attribute: at apply, before the
		// first write), nothing written.
		"list contacts property of an unknown attribute": {config: withEnv(`resource "rms_list_contacts" "c" {
  list_id  = "5"
  contacts = { a = { properties = { shoe_size = "42" } } }
}`), want: []string{"Unknown contact attribute", `key "shoe_size" names no contact attribute of the account (its attributes: email, mobile, firstname, lastname)`, "Nothing was written"}, empty: []string{"lists"}},
		"list contacts key empty": {config: withEnv(`resource "rms_list_contacts" "c" {
  list_id  = "5"
  contacts = { "" = { properties = { firstname = "Ann" } } }
}`), want: []string{"Contact without an id", "which the service requires to be non-empty"}, empty: []string{"lists"}},
		"list contacts allow_resubscribe_ids names no contact": {config: withEnv(`resource "rms_list_contacts" "c" {
  list_id               = "5"
  contacts              = { "m-03" = { email_status = "SUBSCRIBED" } }
  allow_resubscribe_ids = ["m-O3"]
}`), want: []string{"Unknown contact in allow_resubscribe_ids", `"m-O3" is neither a contact of the input`, `Did you mean "m-03"?`}, empty: []string{"lists"}},
		// The account's suppression list.
		"suppression list is the managed list": {config: withEnv(`resource "rms_list_contacts" "c" {
  list_id             = "5"
  suppression_list_id = "5"
  contacts            = { a = {} }
}`), want: []string{"The suppression list cannot be the list this resource manages", "suppression_list_id is 5"}},
		"suppression list not found": {config: withEnv(`resource "rms_list_contacts" "c" {
  list_id             = "5"
  suppression_list_id = "424242"
  contacts            = { a = {} }
}`), want: []string{"Unable to use the suppression list 424242", "suppression_list_id"}},
		"provider suppression_list_id not a list id": {config: withProvider(map[string]string{"suppression_list_id": `"opt-outs"`}, aProject), want: []string{"suppression_list_id", "must be the numeric id of a list"}},
		"import file column that is no attribute": {config: withEnv(`resource "rms_list_import" "i" {
  list_id = "5"
  type    = "ADD"
  content = "originalId,shoe_size\na,42\n"
}`), want: []string{"Import file refused", `column "shoe_size" names no contact attribute of the account (its attributes: email, mobile, firstname, lastname)`, "no import was created"}, empty: []string{"lists"}},
		"import file with a status column": {config: withEnv(`resource "rms_list_import" "i" {
  list_id = "5"
  type    = "ADD"
  content = "originalId,email_status\na,UNSUBSCRIBED\n"
}`), want: []string{"Import file refused", `column "email_status" is a subscription status column, which the service's import does not have`, "source_file of rms_list_contacts", "no import was created"}, empty: []string{"lists"}},

		// rms_list_import and rms_statistics_export whose POST had an unknown
		// outcome. The emulator's clock runs ahead, so a candidate made by
		// the seed counts as made "just now" however slowly the test runs.
		"an import's outcome is unknown and several candidates exist": {
			opts: emulator.Options{Now: aheadClock, Faults: emulator.FaultOptions{ActThenDropRate: 1, Methods: []string{"POST"}, PathPrefix: "lists/"}},
			seed: func(t *testing.T, env *acctest.Env) {
				env.MustDo(t, "POST", "lists", map[string]any{"name": "Seeded"}, nil)
				postDropped(t, env, "lists/5/imports", map[string]any{"delimiter": "44", "encoding": "UTF8", "type": "ADD"})
			},
			config: withEnv(anImport), want: []string{"Unable to tell which import was created", "import ids", "An import without a file has not changed the list"},
		},
		"an import upload's outcome stays unknown": {
			opts: emulator.Options{Faults: emulator.FaultOptions{Rate: 1, Kinds: []string{emulator.FaultBadGateway}, Methods: []string{"POST"}, PathPrefix: "lists/5/recipients"}},
			seed: func(t *testing.T, env *acctest.Env) {
				env.MustDo(t, "POST", "lists", map[string]any{"name": "Seeded"}, nil)
			},
			config: withProvider(map[string]string{"max_retries": "1"}, anImport), want: []string{"Unable to upload the import file", "got no answer", "terraform import rms_list_import.<name> 5/ADD/"},
		},
		"import rows refused by the service": {
			// The good row is imported: the list is destroyed with it.
			config: withEnv(`
resource "rms_list" "l" {
  name                = "L"
  deletion_protection = false
}
resource "rms_list_import" "i" {
  list_id = rms_list.l.id
  type    = "ADD"
  content = "originalId,email\na,ada@example.com\nb,grace@example.com,extra\n"
}`),
			want: []string{"Import rows refused", "1 of 2 rows of the file could not be imported", "row 3: 3 fields where the header has 2", "more than max_failed_rows (0) allows", "as tainted", "raise max_failed_rows"},
		},
		"an export's outcome is unknown and several candidates exist": {
			opts: emulator.Options{Now: aheadClock, Faults: emulator.FaultOptions{ActThenDropRate: 1, Methods: []string{"POST"}, PathPrefix: "batches"}},
			seed: func(t *testing.T, env *acctest.Env) {
				postDropped(t, env, "batches/exports/statistics", map[string]any{"exportType": "LISTS", "period": "TODAY"})
			},
			config: withEnv(exportConfig("LISTS", "TODAY")), want: []string{"Unable to tell which statistics export was started", "batch ids", "terraform import rms_statistics_export.<name>"},
		},
		"an export start's outcome stays unknown": {
			opts:   emulator.Options{Faults: emulator.FaultOptions{Rate: 1, Kinds: []string{emulator.FaultBadGateway}, Methods: []string{"POST"}, PathPrefix: "batches"}},
			config: withProvider(map[string]string{"max_retries": "1"}, exportConfig("LISTS", "TODAY")), want: []string{"Unable to start statistics export", "did not find an export this start made"},
		},

		// rms_resource.
		"generic body given as a JSON string": {config: withEnv(aResource("campaigns", `jsonencode({ name = "x" })`)), want: []string{"body must be an object, not a string", "Pass the object itself"}},
		"generic body not an object":          {config: withEnv(aResource("campaigns", `["a", "b"]`)), want: []string{"body must be an object"}},
		"generic body sets id":                {config: withEnv(aResource("campaigns", `{ id = 5, name = "x" }`)), want: []string{"Key set by the server", `body must not contain "id"`}},
		"generic key in both body and sensitive_body": {needs: []tfversion.TerraformVersionCheck{acctest.SkipWithoutWriteOnly}, config: withEnv(`
resource "rms_resource" "r" {
  collection             = "campaigns"
  body                   = { name = "x", apiKey = "plain" }
  sensitive_body         = { apiKey = "secret" }
  sensitive_body_version = 1
}`), want: []string{"Key in both body and sensitive_body", `"apiKey" is set in both`}, empty: []string{"campaigns"}},
		"generic collection internal-only": {config: withEnv(aResource("systemusers", `{ name = "x" }`)), want: []string{"internal-only domain"}},
		"generic collection unknown":       {config: withEnv(aResource("gadgets", `{ name = "x" }`)), want: []string{`collection "gadgets" is not a public domain`}},
		"generic collection retired":       {opts: emulator.Options{Retired: map[string]string{"campaigns": "Campaigns were replaced by journeys"}}, config: withEnv(aResource("campaigns", `{ name = "x" }`)), want: []string{"Campaigns were replaced by journeys"}},

		// rms_webhook and rms_transactional_message.
		"webhook url plain http to a remote host": {config: withEnv(aWebhook(`  url = "http://hooks.example.com/rms"
  events = ["message.sent"]`)), want: []string{"Webhook URL must use https"}},
		"webhook event unknown": {config: withEnv(aWebhook(`  url = "https://hooks.example.com/rms"
  events = ["message.exploded"]`)), want: []string{"value must be one of", "message.sent"}},
		"webhook without events": {config: withEnv(aWebhook(`  url = "https://hooks.example.com/rms"
  events = []`)), want: []string{"events set must contain at least 1 elements"}},
		"transactional message through a missing trigger": {config: withEnv(`resource "rms_transactional_message" "m" {
  trigger_id = "424242"
  recipient  = { email = "ada@example.com" }
}`), want: []string{"Trigger not found", "Create the trigger first"}},
	}
}

// TestAccBadInputCatalogue runs every row of the catalogue: each gives its
// diagnostic, none panics, and a failed apply leaves nothing behind.
func TestAccBadInputCatalogue(t *testing.T) {
	acctest.SkipUnlessAcceptance(t)
	cat := badInputCatalogue()
	if len(cat) < 40 {
		t.Fatalf("the catalogue has %d rows; the issue asks for at least 40", len(cat))
	}
	t.Logf("bad-input catalogue: %d rows", len(cat))
	for name, tc := range cat {
		t.Run(name, func(t *testing.T) {
			env := acctest.NewEnv(t, tc.opts)
			if tc.seed != nil {
				tc.seed(t, env)
			}
			resource.ParallelTest(t, resource.TestCase{
				TerraformVersionChecks:   tc.needs,
				ProtoV6ProviderFactories: acctest.ProviderFactories(),
				Steps: []resource.TestStep{{
					Config:      tc.config(env),
					ExpectError: acctest.ExpectErrorParts(tc.want...),
				}},
			})
			for _, coll := range tc.empty {
				var left []map[string]any
				env.MustDo(t, "GET", coll, nil, &left)
				if len(left) != 0 {
					t.Errorf("the failed apply left %d entities in %s: %v", len(left), coll, left)
				}
			}
		})
	}
}
