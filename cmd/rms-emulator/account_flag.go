package main

import (
	"fmt"
	"strconv"
	"strings"

	"github.com/rms-labs/terraform-provider-rms/internal/emulator"
)

// accountFlag collects repeated -account customerid:username:password (or
// customerid:token:TOKEN, or customerid:oauth2:CLIENTID:SECRET) flags:
// further accounts served beside the first, on the same address. The token
// and OAuth 2.0 forms read like the Basic one with a keyword in the user
// name's place, so they line up in a script; the price is that a Basic user
// named "token" or "oauth2" cannot be declared here.
// Values are checked after parsing (options), not in Set, because the flag
// package repeats a refused value, password and all, in its error.
type accountFlag []string

func (f *accountFlag) String() string {
	redacted := make([]string, len(*f))
	for i, v := range *f {
		redacted[i] = redactPassword(v)
	}
	return strings.Join(redacted, ",")
}

func (f *accountFlag) Set(v string) error {
	*f = append(*f, v)
	return nil
}

// tokenKeyword in the user name's place makes an -account a token account,
// oauth2Keyword one reached through an OAuth 2.0 client.
const (
	tokenKeyword  = "token"
	oauth2Keyword = "oauth2"
)

// options are the accounts' ids and credentials.
func (f accountFlag) options() ([]emulator.Options, error) {
	out := make([]emulator.Options, 0, len(f))
	for _, v := range f {
		// The password (or token) comes last and may itself hold colons.
		parts := strings.SplitN(v, ":", 3)
		if len(parts) != 3 || parts[1] == "" || parts[2] == "" {
			return nil, fmt.Errorf("-account %q: want customerid:username:password, customerid:token:TOKEN or customerid:oauth2:CLIENTID:SECRET, e.g. 2000:bob:bob-password, 3000:token:t0k3n or 4000:oauth2:ci:s3cret", redactPassword(v))
		}
		id, err := strconv.ParseInt(parts[0], 10, 64)
		if err != nil || id <= 0 {
			return nil, fmt.Errorf("-account %q: the customer id must be a positive number", redactPassword(v))
		}
		switch parts[1] {
		case tokenKeyword:
			// A token-only account: no Basic user (emulator.Options.Token).
			out = append(out, emulator.Options{CustomerID: id, Token: parts[2]})
			continue
		case oauth2Keyword:
			// Reached only through tokens its client gets at
			// /oauth2/token: no Basic user either.
			client, secret, err := emulator.ParseOAuth2Client(parts[2])
			if err != nil {
				return nil, fmt.Errorf("-account %q: %w", redactPassword(v), err)
			}
			out = append(out, emulator.Options{CustomerID: id, OAuth2Clients: map[string]string{client: secret}})
			continue
		}
		out = append(out, emulator.Options{CustomerID: id, Username: parts[1], Password: parts[2]})
	}
	return out, nil
}

// redactPassword keeps the password (or token) of an -account value out of
// messages.
func redactPassword(v string) string {
	parts := strings.SplitN(v, ":", 3)
	if len(parts) == 3 {
		parts[2] = "***"
	}
	return strings.Join(parts, ":")
}
