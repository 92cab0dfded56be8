package contactsync

import (
	"encoding/json"
	"testing"

	"github.com/google/go-cmp/cmp"
)

// TestRecordNoteOptOuts: what a listing teaches the record of opt-outs, and
// what it makes it forget.
func TestRecordNoteOptOuts(t *testing.T) {
	named := BookOf([]Desired{{ID: "a", Email: sub, Mobile: sub}, {ID: "b", Email: sub, Mobile: sub}, {ID: "c", Email: sub, Mobile: sub}})
	cases := []struct {
		name    string
		rec     Record
		named   *Book
		unnamed bool
		service map[string]ServiceContact
		want    map[string][2]bool
		changed bool
	}{
		{
			name: "a recipient's own UNSUBSCRIBED is learned, per channel", rec: Record{Contacts: map[string][2]string{"a": {sub, sub}}}, named: named,
			service: map[string]ServiceContact{"a": {Email: unsub, Mobile: sub}},
			want:    map[string][2]bool{"a": {true, false}}, changed: true,
		},
		{
			name: "a file's contact not recorded counts as applied SUBSCRIBED", rec: Record{File: true}, named: named,
			service: map[string]ServiceContact{"b": {Email: unsub, Mobile: unsub}},
			want:    map[string][2]bool{"b": {true, true}}, changed: true,
		},
		{
			name: "Terraform's own unsubscriptions are no opt-outs (input, released, pending)",
			rec: Record{
				Contacts: map[string][2]string{"a": {unsub, sub}},
				Released: map[string][2]string{"b": {sub, sub}},
				Pending:  map[string][2]string{"c": {unsub, ""}},
			},
			named:   named,
			service: map[string]ServiceContact{"a": {Email: unsub, Mobile: sub}, "b": {Email: unsub, Mobile: unsub}, "c": {Email: unsub, Mobile: sub}},
		},
		{
			name: "a channel the input leaves to the service, or sets UNSUBSCRIBED, teaches nothing", rec: Record{Contacts: map[string][2]string{"a": {sub, ""}}},
			named:   BookOf([]Desired{{ID: "a", Email: unsub}}),
			service: map[string]ServiceContact{"a": {Email: unsub, Mobile: unsub}},
		},
		{
			name: "a contact the input does not name teaches nothing", rec: Record{Contacts: map[string][2]string{}}, named: named,
			service: map[string]ServiceContact{"x": {Email: unsub, Mobile: unsub}},
		},
		{
			name: "a file's contact its rows no longer name (a cut file) is learned as wanted SUBSCRIBED", rec: Record{File: true, Released: map[string][2]string{"r": {sub, sub}}}, named: named, unnamed: true,
			service: map[string]ServiceContact{"x": {Email: unsub, Mobile: sub}, "r": {Email: unsub, Mobile: unsub}},
			want:    map[string][2]bool{"x": {true, false}}, changed: true,
		},
		{
			name: "a contact gone from the list is remembered still", rec: Record{OptedOut: map[string][2]bool{"a": {true, false}}}, named: BookOf(nil),
			service: map[string]ServiceContact{},
			want:    map[string][2]bool{"a": {true, false}},
		},
		{
			name: "a channel listed SUBSCRIBED again is forgotten, the other kept", rec: Record{OptedOut: map[string][2]bool{"a": {true, true}, "b": {true, false}}}, named: BookOf(nil),
			service: map[string]ServiceContact{"a": {Email: sub, Mobile: unsub}, "b": {Email: sub, Mobile: sub}},
			want:    map[string][2]bool{"a": {false, true}}, changed: true,
		},
		{
			name: "a status the service does not show forgets nothing", rec: Record{OptedOut: map[string][2]bool{"a": {true, false}}}, named: named,
			service: map[string]ServiceContact{"a": {}},
			want:    map[string][2]bool{"a": {true, false}},
		},
		{
			name: "without a book (a file not readable) the record only settles", rec: Record{File: true, OptedOut: map[string][2]bool{"a": {true, false}}},
			service: map[string]ServiceContact{"a": {Email: sub, Mobile: sub}, "b": {Email: unsub, Mobile: unsub}},
			changed: true,
		},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			changed := tc.rec.NoteOptOuts(tc.named, ServiceListOf(tc.service), tc.unnamed)
			if changed != tc.changed {
				t.Errorf("changed = %v, want %v", changed, tc.changed)
			}
			if diff := cmp.Diff(tc.want, tc.rec.OptedOut, cmpEmptyMaps); diff != "" {
				t.Errorf("OptedOut (-want +got):\n%s", diff)
			}
		})
	}
}

// cmpEmptyMaps compares a nil map equal to an empty one.
var cmpEmptyMaps = cmp.FilterValues(func(x, y map[string][2]bool) bool { return len(x) == 0 && len(y) == 0 }, cmp.Ignore())

// TestCompareKeepsSeenOptOuts: a contact back in the list is created
// UNSUBSCRIBED on the channels it had left, unless the configuration
// allows its re-subscription.
func TestCompareKeepsSeenOptOuts(t *testing.T) {
	desired := BookOf([]Desired{
		{ID: "back", Props: map[string]string{}, Email: sub, Mobile: sub},
		{ID: "left-to-service", Props: map[string]string{}},
		{ID: "new", Props: map[string]string{}, Email: sub},
	})
	seen := map[string][2]bool{"back": {true, false}, "left-to-service": {false, true}}
	cases := []struct {
		name     string
		opts     Options
		want     map[string][2]string // id -> status written
		rejoined []string
	}{
		{
			name:     "kept",
			opts:     Options{SeenOptOuts: seen},
			want:     map[string][2]string{"back": {unsub, sub}, "left-to-service": {"", unsub}, "new": {sub, ""}},
			rejoined: []string{"back", "left-to-service"},
		},
		{
			name: "allow_resubscribe",
			opts: Options{SeenOptOuts: seen, AllowResubscribe: true},
			want: map[string][2]string{"back": {sub, sub}, "left-to-service": {"", ""}, "new": {sub, ""}},
		},
		{
			name:     "allow_resubscribe_ids names one",
			opts:     Options{SeenOptOuts: seen, Resubscribe: map[string]bool{"back": true}},
			want:     map[string][2]string{"back": {sub, sub}, "left-to-service": {"", unsub}, "new": {sub, ""}},
			rejoined: []string{"left-to-service"},
		},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			d := Compare(desired, ServiceListOf(nil), tc.opts)
			got := map[string][2]string{}
			for _, c := range d.Changes {
				if !c.Create {
					t.Fatalf("%s is not created: %+v", c.ID, c)
				}
				got[c.ID] = [2]string{c.Status.Status, c.Status.MobileStatus}
			}
			if diff := cmp.Diff(tc.want, got); diff != "" {
				t.Errorf("statuses created (-want +got):\n%s", diff)
			}
			if diff := cmp.Diff(tc.rejoined, d.Rejoined); diff != "" {
				t.Errorf("Rejoined (-want +got):\n%s", diff)
			}
		})
	}
}

// TestRecordResubscribeOnce: an id of allow_resubscribe_ids allows one
// re-subscription; once an apply had it, it allows no more while it stays
// named, and naming it again after it was dropped allows once more.
func TestRecordResubscribeOnce(t *testing.T) {
	named := map[string]bool{"m-03": true}
	cases := []struct {
		name   string
		before Record
		named  map[string]bool
		failed map[string]bool
		unused map[string]bool // what the record before allows
		after  map[string]bool // Resubscribed after the apply
	}{
		{name: "first apply with the id: allowed, then used", named: named, unused: named, after: named},
		{name: "later applies: used", before: Record{Resubscribed: named}, named: named, unused: map[string]bool{}, after: named},
		{name: "the id dropped: the use is forgotten", before: Record{Resubscribed: named}, named: nil, unused: nil, after: nil},
		{name: "a failed write does not use it", named: named, failed: named, unused: named, after: nil},
		{name: "a failed write keeps an earlier use", before: Record{Resubscribed: named}, named: named, failed: named, unused: map[string]bool{}, after: named},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			if diff := cmp.Diff(tc.unused, tc.before.Unused(tc.named)); diff != "" {
				t.Errorf("Unused (-want +got):\n%s", diff)
			}
			var next Record
			next.NoteResubscribeIDs(tc.named, tc.failed, tc.before)
			if diff := cmp.Diff(tc.after, next.Resubscribed); diff != "" {
				t.Errorf("Resubscribed (-want +got):\n%s", diff)
			}
		})
	}
}

// TestRecordForgetsAllowedOptOuts: the configuration's allowance ends the
// memory of an opt-out; the others stay, and survive the JSON of private
// state.
func TestRecordForgetsAllowedOptOuts(t *testing.T) {
	a := Record{OptedOut: map[string][2]bool{"a": {true, false}, "b": {false, true}}, Resubscribed: map[string]bool{"c": true}}
	a.ForgetOptOuts(func(id string) bool { return id == "a" })
	raw, err := json.Marshal(a)
	if err != nil {
		t.Fatal(err)
	}
	var got Record
	if err := json.Unmarshal(raw, &got); err != nil {
		t.Fatal(err)
	}
	want := Record{OptedOut: map[string][2]bool{"b": {false, true}}, Resubscribed: map[string]bool{"c": true}}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("record after JSON (-want +got):\n%s", diff)
	}
	if !got.KnowsOptOut("b") || !got.KnowsOptOut("c") || got.KnowsOptOut("a") {
		t.Errorf("KnowsOptOut: b %v, c %v, a %v; want true, true, false", got.KnowsOptOut("b"), got.KnowsOptOut("c"), got.KnowsOptOut("a"))
	}
}

// TestRecordConsented: the channels an allowed re-subscription subscribed
// are remembered by the apply that made it (not for a contact whose write
// failed), are kept by a listing that shows them subscribed or does not
// hold the contact, and are forgotten, channel by channel, once a listing
// shows the recipient unsubscribed there again (a new opt-out).
func TestRecordConsented(t *testing.T) {
	var rules InputRules
	var next Record
	diff := Diff{Resubscribed: map[string]Channels{"a": {Email: true}, "b": {Email: true, Mobile: true}, "failed": {Email: true}}}
	rules.Remember(&next, Record{}, diff, map[string]bool{"failed": true})
	want := map[string][2]bool{"a": {true, false}, "b": {true, true}}
	if diff := cmp.Diff(want, next.Consented); diff != "" {
		t.Fatalf("Consented after the apply (-want +got):\n%s", diff)
	}
	if got := rules.Options(next).Consented; !cmp.Equal(got, want) {
		t.Errorf("Options carries Consented %v, want %v", got, want)
	}
	// a: still subscribed; b: opted out of e-mail again; c is not listed.
	next.NoteOptOuts(BookOf([]Desired{{ID: "a", Email: sub}, {ID: "b", Email: sub, Mobile: sub}}),
		ServiceListOf(map[string]ServiceContact{"a": {Email: sub}, "b": {Email: unsub, Mobile: sub}}), false)
	want = map[string][2]bool{"a": {true, false}, "b": {false, true}}
	if diff := cmp.Diff(want, next.Consented); diff != "" {
		t.Errorf("Consented after a listing (-want +got):\n%s", diff)
	}
	if !next.OptedOut["b"][0] {
		t.Errorf("b's new e-mail opt-out is not noted: %v", next.OptedOut)
	}
	// Carried through the next apply's record.
	var after Record
	rules.Remember(&after, next, Diff{}, nil)
	if diff := cmp.Diff(want, after.Consented); diff != "" {
		t.Errorf("Consented after a later apply (-want +got):\n%s", diff)
	}
}
