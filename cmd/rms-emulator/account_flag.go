package main

import (
	"fmt"
	"strconv"
	"strings"

	"github.com/rms-labs/terraform-provider-rms/internal/emulator"
)

// accountFlag collects repeated -account customerid:username:password
// flags: further accounts served beside the first, on the same address.
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

// options are the accounts' ids and credentials.
func (f accountFlag) options() ([]emulator.Options, error) {
	out := make([]emulator.Options, 0, len(f))
	for _, v := range f {
		// The password comes last and may itself hold colons.
		parts := strings.SplitN(v, ":", 3)
		if len(parts) != 3 || parts[1] == "" || parts[2] == "" {
			return nil, fmt.Errorf("-account %q: want customerid:username:password, e.g. 2000:bob:bob-password", redactPassword(v))
		}
		id, err := strconv.ParseInt(parts[0], 10, 64)
		if err != nil || id <= 0 {
			return nil, fmt.Errorf("-account %q: the customer id must be a positive number", redactPassword(v))
		}
		out = append(out, emulator.Options{CustomerID: id, Username: parts[1], Password: parts[2]})
	}
	return out, nil
}

// redactPassword keeps the password of an -account value out of messages.
func redactPassword(v string) string {
	parts := strings.SplitN(v, ":", 3)
	if len(parts) == 3 {
		parts[2] = "***"
	}
	return strings.Join(parts, ":")
}
