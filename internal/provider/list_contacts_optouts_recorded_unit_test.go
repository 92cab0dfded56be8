package provider

import (
	"context"
	"strings"
	"testing"

	"github.com/hashicorp/terraform-plugin-framework/diag"

	"github.com/rms-labs/terraform-provider-rms/internal/contactsync"
)

func TestPlanWarningRecordedOptOuts(t *testing.T) {
	t.Parallel()
	email, both := [2]bool{true, false}, [2]bool{true, true}
	diff := contactsync.Diff{OptedOut: []string{"o-1", "o-2"}}
	for _, tc := range []struct {
		name      string
		diff      contactsync.Diff
		recorded  map[string][2]bool // the record as saved, before the refresh
		now       map[string][2]bool // the record after the refresh
		title     string
		want, not []string
	}{
		{
			name: "nothing recorded: both named", diff: diff, now: map[string][2]bool{"o-1": email, "o-2": email},
			title: "Opt-outs kept in list 42", want: []string{`2 opted out outside Terraform`, `"o-1", "o-2"`}, not: []string{"recorded by earlier applies"},
		},
		{
			name: "one recorded: the other named, it counted", diff: diff,
			recorded: map[string][2]bool{"o-1": email}, now: map[string][2]bool{"o-1": email, "o-2": email},
			title: "Opt-outs kept in list 42", want: []string{`1 opted out outside Terraform`, `"o-2"`, "1 opt-out kept, recorded by earlier applies"}, not: []string{`"o-1"`},
		},
		{
			name: "both recorded and no change: no warning", diff: diff,
			recorded: map[string][2]bool{"o-1": email, "o-2": both}, now: map[string][2]bool{"o-1": email, "o-2": both},
		},
		{
			name:     "both recorded beside a change: counted in the change's warning",
			diff:     contactsync.Diff{OptedOut: diff.OptedOut, Changes: []contactsync.Change{{ID: "n-1", Create: true}}},
			recorded: map[string][2]bool{"o-1": email, "o-2": email}, now: map[string][2]bool{"o-1": email, "o-2": email},
			title: "Changes to the contacts of list 42", want: []string{`1 to create (new to the list): "n-1"`, "2 opt-outs kept, recorded by earlier applies"}, not: []string{`"o-1"`, `"o-2"`},
		},
		{
			name: "a new channel is news", diff: diff,
			recorded: map[string][2]bool{"o-1": email, "o-2": email}, now: map[string][2]bool{"o-1": both, "o-2": email},
			title: "Opt-outs kept in list 42", want: []string{`"o-1"`, "1 opt-out kept, recorded by earlier applies"}, not: []string{`"o-2"`},
		},
		{
			name: "not in the record after the refresh: named", diff: diff,
			recorded: map[string][2]bool{"o-1": email}, now: map[string][2]bool{"o-1": email},
			title: "Opt-outs kept in list 42", want: []string{`"o-2"`, "1 opt-out kept"}, not: []string{`"o-1"`},
		},
	} {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			title, msg := planWarning(context.Background(), "42", tc.diff, false, tc.recorded, contactsync.Record{OptedOut: tc.now})
			if title != tc.title {
				t.Errorf("title %q, want %q (message %q)", title, tc.title, msg)
			}
			for _, w := range tc.want {
				if !strings.Contains(msg, w) {
					t.Errorf("message %q lacks %q", msg, w)
				}
			}
			for _, n := range tc.not {
				if strings.Contains(msg, n) {
					t.Errorf("message %q holds %q", msg, n)
				}
			}
			if len(tc.diff.OptedOut) != 2 {
				t.Errorf("the diff's opt-outs were changed: %v", tc.diff.OptedOut)
			}
		})
	}
}

func TestWarnHonouredNamesOnlyWhatThePlanDidNot(t *testing.T) {
	t.Parallel()
	email := [2]bool{true, false}
	diff := contactsync.Diff{OptedOut: []string{"o-1", "o-2"}}
	now := contactsync.Record{OptedOut: map[string][2]bool{"o-1": email, "o-2": email}}
	for _, tc := range []struct {
		name string
		seen map[string][2]bool // the record the plan worked from
		want string             // "" for no warning
	}{
		{name: "the plan knew both: no warning", seen: map[string][2]bool{"o-1": email, "o-2": email}},
		{name: "o-2 opted out after the plan: named alone", seen: map[string][2]bool{"o-1": email}, want: `1 opted out outside Terraform and were not re-subscribed though the configuration says SUBSCRIBED (set allow_resubscribe only if they agreed): "o-2"`},
		{name: "a plan without refresh: both named", want: `"o-1", "o-2"`},
	} {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			var diags diag.Diagnostics
			fresh, _ := contactsync.NewOptOuts(diff, tc.seen, now) // ApplyOutcome.Honoured
			warnHonoured(&diags, "42", fresh.OptedOut, false)
			switch {
			case tc.want == "" && len(diags) != 0:
				t.Errorf("want no warning, got %v", diags)
			case tc.want != "" && (len(diags) != 1 || !strings.Contains(diags[0].Detail(), tc.want)):
				t.Errorf("want one warning holding %q, got %v", tc.want, diags)
			}
		})
	}
}
