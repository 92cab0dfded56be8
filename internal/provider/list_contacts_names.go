package provider

// Contact ids in the counts and warnings of rms_list_contacts.

import (
	"fmt"
	"strings"
)

// firstNames renders ids for a warning.
func firstNames(ids []string, total int) string {
	if len(ids) == 0 {
		return ""
	}
	s := `"` + strings.Join(ids, `", "`) + `"`
	if total > len(ids) {
		s += fmt.Sprintf(" and %d more", total-len(ids))
	}
	return s
}
