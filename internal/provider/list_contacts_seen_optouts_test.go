package provider

import (
	"strings"
	"testing"

	"github.com/hashicorp/terraform-plugin-framework/attr"
	"github.com/hashicorp/terraform-plugin-framework/diag"
	"github.com/hashicorp/terraform-plugin-framework/types"

	"github.com/rms-labs/terraform-provider-rms/internal/contactsync"
)

// TestCheckResubscribeIDs: an id of allow_resubscribe_ids must name a
// contact of the input or one the record knows opted out (or allowed
// once); any other is an error naming it and, when one is near, the id
// meant.
func TestCheckResubscribeIDs(t *testing.T) {
	t.Parallel()
	desired := contactsync.BookOf([]contactsync.Desired{{ID: "m-01"}, {ID: "m-02"}, {ID: "m-03"}})
	rec := contactsync.Record{OptedOut: map[string][2]bool{"gone-1": {true, false}}, Resubscribed: map[string]bool{"gone-2": true}}
	cases := []struct {
		name string
		ids  []string
		want []string // parts of the one error; none: no error
	}{
		{name: "ids of the input", ids: []string{"m-01", "m-03"}},
		{name: "an opt-out the record keeps, of a contact no longer listed", ids: []string{"gone-1"}},
		{name: "an id whose one re-subscription was used", ids: []string{"gone-2"}},
		{name: "a typo, with the id meant", ids: []string{"m-O3"}, want: []string{`"m-O3" is neither a contact of the input`, `Did you mean "m-03"?`}},
		{name: "an id near none", ids: []string{"somebody-else"}, want: []string{`"somebody-else" is neither`, "Correct the id or remove it"}},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			elems := make([]attr.Value, 0, len(tc.ids))
			for _, id := range tc.ids {
				elems = append(elems, types.StringValue(id))
			}
			plan := listContactsModel{ListID: types.StringValue("42"), AllowResubscribeIDs: types.SetValueMust(types.StringType, elems)}
			var diags diag.Diagnostics
			checkResubscribeIDs(plan, desired, rec, &diags)
			if len(tc.want) == 0 {
				if diags.HasError() {
					t.Fatalf("unexpected error: %v", diags)
				}
				return
			}
			if diags.ErrorsCount() != 1 {
				t.Fatalf("%d errors, want 1: %v", diags.ErrorsCount(), diags)
			}
			e := diags.Errors()[0]
			if e.Summary() != "Unknown contact in allow_resubscribe_ids" {
				t.Errorf("summary %q", e.Summary())
			}
			wantParts(t, e.Detail(), tc.want...)
			if tc.name == "an id near none" && strings.Contains(e.Detail(), "Did you mean") {
				t.Errorf("suggests an id though none is near:\n%s", e.Detail())
			}
		})
	}
}

// TestEditDistance: the distance nearestID suggests by, capped.
func TestEditDistance(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		a, b  string
		limit int
		want  int
	}{
		{"m-O3", "m-03", 3, 1},
		{"m-03", "m-03", 3, 0},
		{"m-3", "m-03", 3, 1},
		{"abc", "xyz", 3, 3},
		{"short", "a-much-longer-id", 3, 3},
	} {
		if got := editDistance(tc.a, tc.b, tc.limit); got != tc.want {
			t.Errorf("editDistance(%q, %q, %d) = %d, want %d", tc.a, tc.b, tc.limit, got, tc.want)
		}
	}
}
