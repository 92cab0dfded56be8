package main

import (
	"flag"
	"fmt"
	"maps"
	"slices"
	"strings"
	"time"

	"github.com/rms-labs/terraform-provider-rms/internal/emulator"
)

// oauth2Flags are -oauth2-client ID:SECRET (repeatable) and -token-ttl:
// the first account's OAuth 2.0 clients and the lifetime of the tokens
// POST /oauth2/token issues them.
type oauth2Flags struct {
	clients oauth2ClientFlag
	ttl     *time.Duration
}

func registerOAuth2Flags(fs *flag.FlagSet) *oauth2Flags {
	f := &oauth2Flags{clients: oauth2ClientFlag{}}
	fs.Var(f.clients, "oauth2-client", "accept the OAuth 2.0 client `ID:SECRET` at POST /oauth2/token (client credentials), which issues bearer tokens of the first account (a further account's client: -account ID:oauth2:CLIENTID:SECRET); repeatable")
	f.ttl = fs.Duration("token-ttl", emulator.DefaultTokenTTL, "how long a token from /oauth2/token stays valid, at least 1s; an expired one is refused with 401")
	return f
}

// options returns Options.OAuth2Clients and TokenTTL.
func (f *oauth2Flags) options() (map[string]string, time.Duration, error) {
	// expires_in is in whole seconds: a shorter life would read as none.
	if *f.ttl < time.Second {
		return nil, 0, fmt.Errorf("-token-ttl must be at least 1s, got %s", *f.ttl)
	}
	if len(f.clients) == 0 {
		return nil, *f.ttl, nil
	}
	return maps.Clone(f.clients), *f.ttl, nil
}

// oauth2ClientFlag collects repeated -oauth2-client ID:SECRET flags.
type oauth2ClientFlag map[string]string

// String lists the client ids, never their secrets.
func (f oauth2ClientFlag) String() string {
	return strings.Join(slices.Sorted(maps.Keys(f)), ",")
}

func (f oauth2ClientFlag) Set(v string) error {
	id, secret, err := emulator.ParseOAuth2Client(v)
	if err != nil {
		return err
	}
	if _, dup := f[id]; dup {
		return fmt.Errorf("client %q is given twice", id)
	}
	f[id] = secret
	return nil
}

// oauth2Block is the provider configuration of an account's OAuth 2.0
// clients, for the banner: commented out as an alternative, or, with
// active, the first client as the configuration itself (an account reached
// only through OAuth 2.0) and any further ones commented out.
func oauth2Block(url string, o emulator.Options, active bool) string {
	b := ""
	for i, id := range slices.Sorted(maps.Keys(o.OAuth2Clients)) {
		block := fmt.Sprintf("oauth2 = {\n  token_url     = %s\n  client_id     = %s\n  client_secret = %s\n}",
			hclString(url+emulator.OAuth2TokenPath), hclString(id), hclString(o.OAuth2Clients[id]))
		if active && i == 0 {
			b += fmt.Sprintf("  # OAuth 2.0 client credentials (tokens live %s)\n%s\n", o.TokenTTL, indent(block, "  "))
			continue
		}
		b += fmt.Sprintf("  # or, with OAuth 2.0 client credentials (tokens live %s):\n%s\n", o.TokenTTL, indent(block, "  # "))
	}
	return b
}

// indent prefixes every line of s.
func indent(s, prefix string) string {
	return prefix + strings.ReplaceAll(s, "\n", "\n"+prefix)
}
