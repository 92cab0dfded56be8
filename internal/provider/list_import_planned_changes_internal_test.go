package provider

import (
	"strings"
	"testing"

	"github.com/hashicorp/terraform-plugin-framework/types"

	"github.com/rms-labs/terraform-provider-rms/internal/contactsync"
)

// TestImportPlannedChanges: what the plan of a new import knows, by type
// and by what its guardrail and suppression checks counted ("?" unknown).
func TestImportPlannedChanges(t *testing.T) {
	removal := contactsync.RemovalCount("7", "the REPLACE import", 5, 8)
	for _, tc := range []struct {
		name    string
		typ     string
		counted importCounts
		want    map[string]string
	}{
		{"ADD", "ADD", importCounts{toCopy: 0}, map[string]string{
			"removed": "0", "opt_outs_copied": "0", "list_size": "?", "created": "?",
			"email.unsubscribed": "0", "mobile.unsubscribed": "0", "email.subscribed": "?", "email.unsubscribed_by_exclusive": "0",
		}},
		{"REPLACE counted", "REPLACE", importCounts{removal: &removal, toCopy: 2}, map[string]string{
			"removed": "5", "opt_outs_copied": "2", "list_size": "8",
			"email.unsubscribed": "0", "mobile.unsubscribed": "0", "created": "?",
		}},
		{"REPLACE not counted", "REPLACE", importCounts{toCopy: -1}, map[string]string{
			"removed": "?", "opt_outs_copied": "?", "list_size": "?", "email.unsubscribed": "0",
		}},
		{"UNSUBSCRIBE", "UNSUBSCRIBE", importCounts{toCopy: -1}, map[string]string{
			"removed": "0", "opt_outs_copied": "0", "email.unsubscribed": "?", "mobile.unsubscribed": "0", "created": "0",
		}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			got := importPlannedChanges(tc.typ, tc.counted)
			for path, want := range tc.want {
				if v := plannedValue(got, path); v != want {
					t.Errorf("%s is %s, want %s", path, v, want)
				}
			}
		})
	}
	if v := importPlannedChanges("", importCounts{}); !v.IsUnknown() {
		t.Errorf("a type known only during the apply plans %v, want unknown", v)
	}
}

// plannedValue is the count at a dot path of planned_changes o: "?" when
// unknown.
func plannedValue(o types.Object, path string) string {
	attrs := o.Attributes()
	key, rest, nested := strings.Cut(path, ".")
	if nested {
		return plannedValue(attrs[key].(types.Object), rest)
	}
	n := attrs[key].(types.Int64)
	if n.IsUnknown() {
		return "?"
	}
	return n.String()
}
