package provider

import (
	"github.com/hashicorp/terraform-plugin-framework/diag"
	"github.com/hashicorp/terraform-plugin-framework/path"

	"github.com/rms-labs/terraform-provider-rms/internal/client"
)

// settingsFault fails the plan when the credentials check's failure proves
// a setting wrong (client.Fault): a token endpoint that answered a client
// error, or a URL whose scheme does not match what its server speaks. A
// retry, a later apply or the service coming back cannot change these, so
// they are errors, not the warning of a check that got no answer. It
// reports whether it added one.
func settingsFault(err error, said string, diags *diag.Diagnostics) bool {
	fault, atToken := client.Fault(err)
	attr, env, name := path.Root(attrBaseURL), envBaseURL, attrBaseURL
	if atToken {
		attr, env, name = oauth2Path(attrOAuth2TokenURL), envOAuth2TokenURL, attrOAuth2+"."+attrOAuth2TokenURL
	}
	named := name + " (or " + env + ")"
	var summary, fix string
	switch fault {
	case client.TokenEndpointRefused:
		summary = "Token endpoint refused the token request"
		fix = "The token endpoint answered, and its answer is a client error no retry changes: check that " + named +
			" names the token endpoint (for the emulator, {base_url}/oauth2/token) and that " + attrOAuth2 + "." + attrOAuth2Params +
			" holds what it asks for."
	case client.TLSToPlainHTTP:
		summary = "TLS spoken to a plain-HTTP server"
		fix = named + " starts with https://, but the server there speaks plain HTTP. Write http:// if it is a loopback server " +
			"such as the emulator (credentials go over plain HTTP only to a loopback address), or else name the service's https:// address and port."
	case client.PlainHTTPToTLS:
		summary = "Plain HTTP spoken to a TLS server"
		fix = named + " starts with http://, but the server there speaks TLS: write https://."
	default:
		return false
	}
	diags.AddAttributeError(attr, summary, said+"\n\n"+fix+"\n\n"+credentialsCheckNote)
	return true
}
