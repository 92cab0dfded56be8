package provider

import (
	"testing"

	"github.com/rms-labs/terraform-provider-rms/internal/client"
	"github.com/rms-labs/terraform-provider-rms/internal/contactsync"
)

// planned_changes and the plan's warning come from one walk
// (tallyChanges): per case, the counts are as wanted and agree with the
// kinds the warning prints.
func TestPlannedChangesAgreeWithWarning(t *testing.T) {
	t.Parallel()
	sub, unsub := client.StatusSubscribed, client.StatusUnsubscribed
	st := func(e, m string) client.SubscriptionStatus {
		return client.SubscriptionStatus{Status: e, MobileStatus: m}
	}
	cases := []struct {
		name string
		diff contactsync.Diff
		want plannedChanges
	}{
		{name: "nothing"},
		{
			name: "creates, one unsubscribed",
			diff: contactsync.Diff{Changes: []contactsync.Change{{ID: "a", Create: true, Status: st(sub, "")}, {ID: "b", Create: true, Status: st(sub, unsub)}}},
			want: plannedChanges{Created: 2, CreatedUnsubscribed: 1},
		},
		{
			name: "statuses per channel, properties",
			diff: contactsync.Diff{Changes: []contactsync.Change{
				{ID: "a", Status: st(unsub, unsub)},
				{ID: "b", Status: st(sub, "")},
				{ID: "c", Status: st("", unsub), Set: map[string]string{"firstname": "C"}},
				{ID: "d", Remove: []string{"firstname"}},
			}},
			want: plannedChanges{PropertiesChanged: 2, Email: channelChanges{Subscribed: 1, Unsubscribed: 1}, Mobile: channelChanges{Unsubscribed: 2}},
		},
		{
			name: "exclusive, opt-outs kept, suppressed",
			diff: contactsync.Diff{
				Changes:    []contactsync.Change{{ID: "x", Unsubscribe: true, Status: st(unsub, "")}, {ID: "y", Unsubscribe: true}},
				OptedOut:   []string{"p", "q"},
				Suppressed: []string{"s"},
			},
			want: plannedChanges{OptOutsKept: 2, Suppressed: 1, Email: channelChanges{UnsubscribedByExclusive: 2}, Mobile: channelChanges{UnsubscribedByExclusive: 1}},
		},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			kinds, got := tallyChanges(tc.diff)
			if got != tc.want {
				t.Errorf("counts = %+v, want %+v", got, tc.want)
			}
			printed := map[string]int{}
			for _, k := range changeKinds(tc.diff) {
				printed[k.label] = k.n
			}
			if printed[kinds.create.label] != got.Created || printed[kinds.properties.label] != got.PropertiesChanged {
				t.Errorf("the warning prints %v, the counts are %+v", printed, got)
			}
			byExclusive := max(got.Email.UnsubscribedByExclusive, got.Mobile.UnsubscribedByExclusive)
			if n := printed[kinds.exclusive.label]; n < byExclusive || n > got.Email.UnsubscribedByExclusive+got.Mobile.UnsubscribedByExclusive {
				t.Errorf("the warning prints %d unsubscribed by exclusive, the counts are %+v", n, got)
			}
			for label, ch := range map[string][2]int{
				kinds.subscribe.label:   {got.Email.Subscribed, got.Mobile.Subscribed},
				kinds.unsubscribe.label: {got.Email.Unsubscribed, got.Mobile.Unsubscribed},
			} {
				if n := printed[label]; n < max(ch[0], ch[1]) || n > ch[0]+ch[1] {
					t.Errorf("the warning prints %d %q, the counts per channel are %v", n, label, ch)
				}
			}
		})
	}
}
