package contactsync

import (
	"encoding/json"
	"fmt"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/rms-labs/terraform-provider-rms/internal/client"
)

func TestAppliedRecordRelease(t *testing.T) {
	cases := []struct {
		name    string
		service ServiceContact
		want    [2]string
		kept    bool
	}{
		{"both subscribed", ServiceContact{Email: sub, Mobile: sub}, [2]string{sub, sub}, true},
		{"e-mail opted out already", ServiceContact{Email: unsub, Mobile: sub}, [2]string{"", sub}, true},
		{"statuses not shown count as subscribed", ServiceContact{}, [2]string{sub, sub}, true},
		{"both unsubscribed: their own doing", ServiceContact{Email: unsub, Mobile: unsub}, [2]string{}, false},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			var a Record
			a.Release("c", tc.service)
			got, ok := a.Released["c"]
			if ok != tc.kept || got != tc.want {
				t.Fatalf("Released[c] = %v, %v; want %v, %v", got, ok, tc.want, tc.kept)
			}
			// A second release keeps the first record (the status before
			// Terraform's first unsubscription).
			a.Release("c", ServiceContact{Email: unsub, Mobile: unsub})
			if got := a.Released["c"]; got != tc.want {
				t.Fatalf("after a second release Released[c] = %v, want %v", got, tc.want)
			}
		})
	}
}

func TestAppliedRecordLookupAndRestore(t *testing.T) {
	cases := []struct {
		name                    string
		rec                     Record
		email, mobile           string
		restoreEmail, restoreMo string
	}{
		{"map, not recorded", Record{}, "", "", "", ""},
		{"map, applied", Record{Contacts: map[string][2]string{"c": {sub, unsub}}}, sub, unsub, "", ""},
		{"file, not recorded: subscribed", Record{File: true}, sub, sub, "", ""},
		{"file, unsubscribed by the file", Record{File: true, Contacts: map[string][2]string{"c": {unsub, ""}}}, unsub, sub, "", ""},
		{"released e-mail only", Record{Released: map[string][2]string{"c": {sub, ""}}}, unsub, "", sub, ""},
		{"file, released both", Record{File: true, Released: map[string][2]string{"c": {sub, sub}}}, unsub, unsub, sub, sub},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			e, m := tc.rec.Lookup("c")
			re, rm := tc.rec.Restore("c")
			if e != tc.email || m != tc.mobile || re != tc.restoreEmail || rm != tc.restoreMo {
				t.Fatalf("lookup = %q, %q; restore = %q, %q; want %q, %q; %q, %q", e, m, re, rm, tc.email, tc.mobile, tc.restoreEmail, tc.restoreMo)
			}
		})
	}
}

func TestAppliedRecordPrune(t *testing.T) {
	a := Record{Released: map[string][2]string{
		"still":   {sub, sub},
		"resub":   {sub, ""},  // subscribed again since on the channel released
		"other":   {"", sub},  // e-mail subscribed, but only mobile was released
		"gone":    {sub, sub}, // no longer in the list
		"partial": {sub, sub}, // mobile subscribed again, or its write never ran
	}}
	a.Prune(ServiceListOf(map[string]ServiceContact{
		"still":   {Email: unsub, Mobile: unsub},
		"resub":   {Email: sub, Mobile: unsub},
		"other":   {Email: sub, Mobile: unsub},
		"partial": {Email: unsub, Mobile: sub},
	}))
	// "partial" keeps its e-mail record: an apply cut short after its
	// UNSUBSCRIBE import and before the mobile call left e-mail
	// unsubscribed by Terraform, and that must not pass for an opt-out.
	want := map[string][2]string{"still": {sub, sub}, "other": {"", sub}, "partial": {sub, ""}}
	if diff := cmp.Diff(want, a.Released); diff != "" {
		t.Fatalf("Released after prune (-want +got):\n%s", diff)
	}
}

// A release after an interrupted one adds the channel the first did not
// get to, and keeps the first record of the other.
func TestAppliedRecordReleaseMergesChannels(t *testing.T) {
	a := Record{Released: map[string][2]string{"c": {sub, ""}}}
	a.Release("c", ServiceContact{Email: unsub, Mobile: "PENDING"})
	if got := a.Released["c"]; got != [2]string{sub, "PENDING"} {
		t.Fatalf("Released[c] = %v, want e-mail's first record and mobile's status before", got)
	}
}

// record forgets the released contacts the input names again.
func TestAppliedRecordRecordEndsRelease(t *testing.T) {
	a := Record{File: true, Released: map[string][2]string{"back": {sub, sub}, "away": {sub, sub}}}
	a.NoteApplied(BookOf([]Desired{{ID: "back", Email: sub}, {ID: "new", Email: unsub}}))
	if _, ok := a.Released["back"]; ok {
		t.Fatal("a contact named again is still released")
	}
	if _, ok := a.Released["away"]; !ok {
		t.Fatal("a contact still unnamed is no longer released")
	}
	if got := a.Contacts["new"]; got != [2]string{unsub, ""} {
		t.Fatalf("Contacts[new] = %v", got)
	}
}

// A released contact named again with its status left to the service gets
// back the status it had; one named SUBSCRIBED is re-subscribed without
// allow_resubscribe; one never released stays an opt-out.
func TestDiffRestoresReleased(t *testing.T) {
	a := Record{Released: map[string][2]string{"rel": {sub, sub}}}
	service := map[string]ServiceContact{
		"rel":  {Email: unsub, Mobile: unsub},
		"own":  {Email: unsub, Mobile: sub},
		"said": {Email: unsub, Mobile: unsub},
	}
	a.Released["said"] = [2]string{sub, ""}
	d := Compare(BookOf([]Desired{
		{ID: "own", Email: sub},
		{ID: "rel"},
		{ID: "said", Email: sub},
	}), ServiceListOf(service), Options{Applied: a.Lookup, Restore: a.Restore})
	got := map[string]client.SubscriptionStatus{}
	for _, ch := range d.Changes {
		got[ch.ID] = ch.Status
	}
	want := map[string]client.SubscriptionStatus{
		"rel":  {Status: sub, MobileStatus: sub},
		"said": {Status: sub},
	}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Fatalf("status changes (-want +got):\n%s", diff)
	}
	if len(d.OptedOut) != 1 || d.OptedOut[0] != "own" {
		t.Fatalf("OptedOut = %v, want [own]", d.OptedOut)
	}
}

// Records written before Released existed read as before.
func TestAppliedRecordReadsOlderJSON(t *testing.T) {
	var a Record
	if err := json.Unmarshal([]byte(`{"file":true,"contacts":{"c":["UNSUBSCRIBED",""]}}`), &a); err != nil {
		t.Fatal(err)
	}
	if e, m := a.Lookup("c"); e != unsub || m != sub || a.Released != nil {
		t.Fatalf("lookup = %q, %q; Released = %v", e, m, a.Released)
	}
}

// BenchmarkListContactsPrivateState reports the size of rms_list_contacts'
// private state for 100,000 contacts (private-bytes) in its heaviest shape:
// a file input that unsubscribes every contact it names, with 100,000 more
// released by exclusive; and the light one (a file that names everyone
// SUBSCRIBED and releases nobody).
func BenchmarkListContactsPrivateState(b *testing.B) {
	const n = 100_000
	heavy := Record{File: true, Contacts: map[string][2]string{}, Released: map[string][2]string{}}
	for i := range n {
		heavy.Contacts[fmt.Sprintf("customer-%06d", i)] = [2]string{unsub, unsub}
		heavy.Released[fmt.Sprintf("former-%06d", i)] = [2]string{sub, sub}
	}
	for _, bc := range []struct {
		name string
		rec  Record
	}{{"100k-named-unsubscribed+100k-released", heavy}, {"100k-named-subscribed", Record{File: true}}} {
		b.Run(bc.name, func(b *testing.B) {
			var size int
			for b.Loop() {
				raw, err := json.Marshal(bc.rec)
				if err != nil {
					b.Fatal(err)
				}
				size = len(raw)
			}
			b.ReportMetric(float64(size), "private-bytes")
		})
	}
}

// An unsubscription the input asked for and an apply cut short may have
// made counts as applied until the service shows what happened: made, it
// is recorded as applied; not made, it is forgotten.
func TestAppliedRecordPendingSettles(t *testing.T) {
	for _, file := range []bool{false, true} {
		t.Run(fmt.Sprintf("file=%v", file), func(t *testing.T) {
			a := Record{File: file, Contacts: map[string][2]string{"made": {sub, sub}, "not-made": {sub, sub}}}
			a.MarkPending("made", client.SubscriptionStatus{Status: unsub})
			a.MarkPending("not-made", client.SubscriptionStatus{Status: unsub, MobileStatus: unsub})
			a.MarkPending("subscribing", client.SubscriptionStatus{Status: sub})
			if e, m := a.Lookup("not-made"); e != unsub || m != unsub {
				t.Fatalf("pending Lookup = %s/%s, want both UNSUBSCRIBED", e, m)
			}
			if _, ok := a.Pending["subscribing"]; ok {
				t.Fatal("a subscription is noted pending")
			}
			a.Prune(ServiceListOf(map[string]ServiceContact{"made": {Email: unsub, Mobile: sub}, "not-made": {Email: sub, Mobile: sub}}))
			if a.Pending != nil {
				t.Fatalf("Pending after Prune = %v", a.Pending)
			}
			if e, _ := a.Lookup("made"); e != unsub {
				t.Errorf("a pending unsubscription the service shows made is not applied: %s", e)
			}
			if e, m := a.Lookup("not-made"); e != sub || m != sub {
				t.Errorf("a pending unsubscription never made is kept: %s/%s", e, m)
			}
		})
	}
}
