package contactsync

import (
	"context"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/rms-labs/terraform-provider-rms/internal/client"
)

// suppressedBy is a SuppressedFunc holding ids and addresses as the
// suppression list would: e-mail for "s-*" ids and for x@suppressed,
// both channels for "both".
func suppressedBy(b *Book, i int) Channels {
	w := b.Contact(i)
	switch {
	case w.ID == "both":
		return Channels{Email: true, Mobile: true}
	case strings.HasPrefix(w.ID, "s-"), NormalizeEmail(w.Props["email"]) == "x@suppressed":
		return Channels{Email: true}
	}
	return Channels{}
}

// TestCompareSuppressed: a contact the suppression list holds is created
// UNSUBSCRIBED on its suppressed channels whatever the input says, is not
// re-subscribed even where the input itself asks for it, and is
// unsubscribed where the list shows it subscribed; allow_resubscribe and
// allow_resubscribe_ids lift it; others are as without suppression.
func TestCompareSuppressed(t *testing.T) {
	applied := func(e, m string) AppliedStatuses { return func(string) (string, string) { return e, m } }
	st := func(e, m string) client.SubscriptionStatus {
		return client.SubscriptionStatus{Status: e, MobileStatus: m}
	}
	cases := []struct {
		name    string
		desired []Desired
		service map[string]ServiceContact
		opts    Options
		want    Diff
	}{
		{
			name:    "created unsubscribed on its suppressed channels, by id or by address",
			desired: []Desired{{ID: "both"}, {ID: "c", Props: map[string]string{"email": " X@Suppressed"}, Email: sub}, {ID: "free", Email: sub}, {ID: "s-1", Email: unsub}},
			want: Diff{Changes: []Change{
				{ID: "both", Create: true, Set: map[string]string{}, Status: st(unsub, unsub), Suppressed: Channels{Email: true, Mobile: true}},
				{ID: "c", Create: true, Set: map[string]string{"email": " X@Suppressed"}, Status: st(unsub, ""), Suppressed: Channels{Email: true}},
				{ID: "free", Create: true, Set: map[string]string{}, Status: st(sub, "")},
				{ID: "s-1", Create: true, Set: map[string]string{}, Status: st(unsub, "")},
			}, Suppressed: []string{"both", "c"}},
		},
		{
			name:    "a re-subscription the input asks for is not made",
			desired: []Desired{{ID: "s-1", Email: sub}},
			service: map[string]ServiceContact{"s-1": {Email: unsub}},
			opts:    Options{Applied: applied(unsub, "")},
			want:    Diff{Suppressed: []string{"s-1"}},
		},
		{
			name:    "subscribed in this list: unsubscribed",
			desired: []Desired{{ID: "s-1"}, {ID: "s-2", Email: sub}},
			service: map[string]ServiceContact{"s-1": {Email: sub, Mobile: sub}, "s-2": {Email: "PENDING"}},
			want: Diff{Changes: []Change{
				{ID: "s-1", Status: st(unsub, ""), Suppressed: Channels{Email: true}},
				{ID: "s-2", Status: st(unsub, ""), Suppressed: Channels{Email: true}},
			}, Suppressed: []string{"s-1", "s-2"}},
		},
		{
			// One reason per channel: the suppression list comes before
			// a kept opt-out, so the two counts never overlap.
			name:    "an opt-out on a suppressed channel counts as suppressed",
			desired: []Desired{{ID: "s-1", Email: sub}, {ID: "free", Email: sub}},
			service: map[string]ServiceContact{"s-1": {Email: unsub}, "free": {Email: unsub}},
			opts:    Options{Applied: applied(sub, "")},
			want:    Diff{OptedOut: []string{"free"}, Suppressed: []string{"s-1"}},
		},
		{
			name:    "statuses not shown: unsubscribed only where a status would be sent",
			desired: []Desired{{ID: "s-1"}, {ID: "s-2", Email: sub}},
			service: map[string]ServiceContact{"s-1": {}, "s-2": {}},
			want:    Diff{Changes: []Change{{ID: "s-2", Status: st(unsub, ""), Suppressed: Channels{Email: true}}}, Suppressed: []string{"s-2"}},
		},
		{
			name:    "allow_resubscribe_ids names it",
			desired: []Desired{{ID: "s-1", Email: sub}, {ID: "s-2", Email: sub}},
			service: map[string]ServiceContact{"s-1": {Email: unsub}},
			opts:    Options{Applied: applied(unsub, ""), Resubscribe: map[string]bool{"s-1": true, "s-2": true}},
			want: Diff{Changes: []Change{
				{ID: "s-1", Status: st(sub, "")},
				{ID: "s-2", Create: true, Set: map[string]string{}, Status: st(sub, "")},
			}, Resubscribed: map[string]Channels{"s-1": {Email: true}, "s-2": {Email: true}}},
		},
		{
			// The allowance used once is remembered (Record.Consented):
			// the entry no longer holds the channel, with or without the
			// id still in allow_resubscribe_ids.
			name:    "a consented re-subscription is left subscribed",
			desired: []Desired{{ID: "s-1", Email: sub}, {ID: "s-2", Email: sub}},
			service: map[string]ServiceContact{"s-1": {Email: sub}, "s-2": {Email: sub}},
			opts:    Options{Applied: applied(sub, ""), Consented: map[string][2]bool{"s-1": {true, false}}},
			want: Diff{Changes: []Change{
				{ID: "s-2", Status: st(unsub, ""), Suppressed: Channels{Email: true}},
			}, Suppressed: []string{"s-2"}},
		},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			tc.opts.Suppressed = suppressedBy
			got := Compare(BookOf(tc.desired), ServiceListOf(tc.service), tc.opts)
			if diff := cmp.Diff(tc.want, got); diff != "" {
				t.Errorf("Compare (-want +got):\n%s", diff)
			}
		})
	}
}

// TestOptOutsToRecord: the opt-outs to record are the named contacts'
// UNSUBSCRIBED channels that Terraform did not apply, with their e-mail
// and mobile values (the service's, else the input's), less what the
// suppression list holds.
func TestOptOutsToRecord(t *testing.T) {
	run := NewRun(nil, RunOptions{})
	run.Attributes = LoadedAttributes(map[string]string{"1": "email", "2": "mobile"})
	desired := BookOf([]Desired{
		{ID: "a", Props: map[string]string{"email": "a@x"}},
		{ID: "b", Props: map[string]string{"1": "b@x", "2": "+49"}},
		{ID: "mine", Email: unsub},
		{ID: "held"},
		{ID: "sub"},
	})
	service := ServiceListOf(map[string]ServiceContact{
		"a":     {Email: unsub, Mobile: sub},
		"b":     {Email: unsub, Mobile: unsub, Props: map[string]string{"email": "B@x"}},
		"mine":  {Email: unsub},
		"held":  {Email: unsub},
		"sub":   {Email: sub, Mobile: sub},
		"other": {Email: unsub},
	})
	applied := func(id string) (string, string) {
		if id == "mine" {
			return unsub, ""
		}
		return sub, sub
	}
	missing := func(o OptOut) (Channels, error) {
		if o.OriginalID == "held" {
			return Channels{}, nil
		}
		return o.Channels, nil
	}
	got, err := run.OptOutsToRecord(context.Background(), desired, service, applied, missing)
	if err != nil {
		t.Fatal(err)
	}
	want := []OptOut{
		{OriginalID: "a", Email: "a@x", Channels: Channels{Email: true}},
		{OriginalID: "b", Email: "B@x", Mobile: "+49", Channels: Channels{Email: true, Mobile: true}},
	}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("OptOutsToRecord (-want +got):\n%s", diff)
	}
}
