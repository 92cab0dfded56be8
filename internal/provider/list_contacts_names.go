package provider

// Contact ids in the counts and warnings of rms_list_contacts.

import (
	"fmt"
	"strings"

	"github.com/rms-labs/terraform-provider-rms/internal/contactsync"
)

// namedSet is what the model names, for "unmanaged" counts.
func namedSet(desired []contactsync.Desired) func(string) bool {
	set := make(map[string]bool, len(desired))
	for _, w := range desired {
		set[w.ID] = true
	}
	return func(id string) bool { return set[id] }
}

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
