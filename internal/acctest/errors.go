package acctest

import (
	"regexp"
	"strings"
)

// ExpectErrorParts builds an ExpectError pattern from literal parts that must
// appear in this order. Terraform wraps diagnostics at 80 columns, so every
// run of spaces in a part matches any run of whitespace.
func ExpectErrorParts(parts ...string) *regexp.Regexp {
	quoted := make([]string, len(parts))
	for i, p := range parts {
		words := strings.Fields(p)
		for j, w := range words {
			words[j] = regexp.QuoteMeta(w)
		}
		quoted[i] = strings.Join(words, `\s+`)
	}
	return regexp.MustCompile(`(?s)` + strings.Join(quoted, `.*`))
}
