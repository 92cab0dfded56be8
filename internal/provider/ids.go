package provider

import (
	"regexp"
	"strconv"
	"strings"

	"github.com/hashicorp/terraform-plugin-framework-validators/stringvalidator"
)

// isEntityID reports whether s looks like a server-assigned entity id: a
// string of decimal digits. Import ids are checked before any call so a
// typo gives a clear message rather than a 404.
func isEntityID(s string) bool {
	if s == "" || strings.TrimSpace(s) != s {
		return false
	}
	_, err := strconv.ParseUint(s, 10, 64)
	return err == nil
}

func quote(s string) string { return strconv.Quote(s) }

// listIDValidator checks at plan time that a list id is a server id.
var listIDValidator = stringvalidator.RegexMatches(regexp.MustCompile(`^[0-9]+$`), "must be the numeric id of a list, e.g. rms_list.example.id")
