package contactsync

import (
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/rms-labs/terraform-provider-rms/internal/client"
)

func TestSplitPathUnsafe(t *testing.T) {
	st := func(e, m string) client.SubscriptionStatus {
		return client.SubscriptionStatus{Status: e, MobileStatus: m}
	}
	cases := []struct {
		name       string
		changes    []Change
		singles    []Change
		body       BodyWrites
		unwritable []string // ids
	}{
		{
			name:    "ids a path carries go by single calls, whatever they need",
			changes: []Change{{ID: "a", Remove: []string{"x"}, Status: st(sub, unsub)}, {ID: "...", Unsubscribe: true}},
			singles: []Change{{ID: "a", Remove: []string{"x"}, Status: st(sub, unsub)}, {ID: "...", Unsubscribe: true}},
		},
		{
			name:    "a create of a dot id goes by POST, statuses and all",
			changes: []Change{{ID: ".", Create: true, Set: map[string]string{"email": "d@x"}, Status: st(unsub, unsub)}},
			singles: []Change{{ID: ".", Create: true, Set: map[string]string{"email": "d@x"}, Status: st(unsub, unsub)}},
		},
		{
			name:    "values set by ADD rows, an e-mail unsubscription by an UNSUBSCRIBE row",
			changes: []Change{{ID: "..", Set: map[string]string{"firstname": "R"}, Status: st(unsub, "")}, {ID: ".", Unsubscribe: true, Status: st(unsub, "")}},
			body:    BodyWrites{Add: []Change{{ID: "..", Set: map[string]string{"firstname": "R"}}}, Unsubscribe: []string{"..", "."}},
		},
		{
			name: "what no body call can do: a removed value, a re-subscription, a mobile status",
			changes: []Change{
				{ID: "..", Set: map[string]string{"firstname": "R"}, Remove: []string{"lastname"}},
				{ID: ".", Status: st(sub, "")},
				{ID: ".", Unsubscribe: true}, // a zero status unsubscribes both channels
			},
			body:       BodyWrites{Add: []Change{{ID: "..", Set: map[string]string{"firstname": "R"}}}, Unsubscribe: []string{"."}},
			unwritable: []string{"..", ".", "."},
		},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			singles, body, unwritable := SplitPathUnsafe(c.changes)
			if diff := cmp.Diff(c.singles, singles); diff != "" {
				t.Errorf("singles (-want +got):\n%s", diff)
			}
			if diff := cmp.Diff(c.body, body); diff != "" {
				t.Errorf("body (-want +got):\n%s", diff)
			}
			var ids []string
			for _, u := range unwritable {
				ids = append(ids, u.ID)
				if len(u.What) == 0 {
					t.Errorf("%q: no reason given", u.ID)
				}
			}
			if diff := cmp.Diff(c.unwritable, ids); diff != "" {
				t.Errorf("unwritable (-want +got):\n%s", diff)
			}
		})
	}
}

// An exclusive unsubscription of a dot id asks for e-mail only, counts only
// e-mail as unmanaged, and names the mobile channel out of reach, so that
// the plan after it is empty.
func TestExclusiveDotIDs(t *testing.T) {
	desired := BookOf([]Desired{{ID: "a"}})
	service := ServiceListOf(map[string]ServiceContact{
		"a":  {Email: sub, Mobile: sub},
		".":  {Email: sub, Mobile: sub},
		"..": {Email: unsub, Mobile: sub},
		"b":  {Email: unsub, Mobile: sub},
	})
	got := ExclusiveChanges(desired, service)
	want := []Change{
		{ID: ".", Unsubscribe: true, Status: client.SubscriptionStatus{Status: unsub}},
		{ID: "b", Unsubscribe: true, Status: client.SubscriptionStatus{MobileStatus: unsub}},
	}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("ExclusiveChanges (-want +got):\n%s", diff)
	}
	if n := UnmanagedSubscribed(service, desired); n != 2 {
		t.Errorf("UnmanagedSubscribed = %d, want 2 (\".\" by e-mail, b by mobile)", n)
	}
	if diff := cmp.Diff([]string{".", ".."}, MobileOutOfReach(desired, service)); diff != "" {
		t.Errorf("MobileOutOfReach (-want +got):\n%s", diff)
	}
}
