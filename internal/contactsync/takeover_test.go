package contactsync

import (
	"testing"

	"github.com/google/go-cmp/cmp"
)

// The opt-outs a destroy half carries are the channels the service shows
// UNSUBSCRIBED that the record does not account for as Terraform's own.
func TestOptOutsOf(t *testing.T) {
	service := map[string]ServiceContact{
		"email":    {Email: unsub, Mobile: sub},
		"both":     {Email: unsub, Mobile: unsub},
		"mobile":   {Email: sub, Mobile: unsub},
		"subbed":   {Email: sub, Mobile: sub},
		"config":   {Email: unsub},                // the configuration set UNSUBSCRIBED
		"released": {Email: unsub, Mobile: unsub}, // exclusive unsubscribed it
		"unknown":  {Email: unsub},                // in no record: the safe side
		"noshow":   {},                            // statuses not shown
	}
	old := Record{
		Contacts: map[string][2]string{"email": {sub, sub}, "both": {sub, ""}, "mobile": {"", sub}, "subbed": {sub, sub}, "config": {unsub, ""}},
		Released: map[string][2]string{"released": {sub, sub}},
	}
	got := OptOutsOf("5", ServiceListOf(service), old)
	want := CarriedOptOuts{From: []string{"5"}, Contacts: map[string][2]bool{
		"email": {true, false}, "both": {true, true}, "mobile": {false, true}, "unknown": {true, false},
	}}
	if d := cmp.Diff(want, got); d != "" {
		t.Errorf("opt-outs (-want +got):\n%s", d)
	}
	// A file record counts every contact it does not name as last applied
	// SUBSCRIBED: an UNSUBSCRIBED is an opt-out unless the file set it.
	file := Record{File: true, Contacts: map[string][2]string{"config": {unsub, ""}}}
	got = OptOutsOf("5", ServiceListOf(map[string]ServiceContact{"config": {Email: unsub}, "other": {Mobile: unsub}}), file)
	want = CarriedOptOuts{From: []string{"5"}, Contacts: map[string][2]bool{"other": {false, true}}}
	if d := cmp.Diff(want, got); d != "" {
		t.Errorf("file opt-outs (-want +got):\n%s", d)
	}
}

// The create half finds the opt-outs under its list id or its input's key;
// two lists carried under one key are merged (consent's side), and a key
// the plan could not make finds nothing.
func TestProvenanceOptOuts(t *testing.T) {
	p := NewProvenance()
	key := ReplacementKey("", []string{"b", "a"})
	if key != ReplacementKey("", []string{"a", "b"}) || key == ReplacementKey("a\x00b", nil) {
		t.Fatalf("replacement key depends on order or confuses a file with a map")
	}
	p.CarryOptOuts(key, CarriedOptOuts{From: []string{"5"}, Contacts: map[string][2]bool{"a": {true, false}}})
	p.CarryOptOuts(key, CarriedOptOuts{From: []string{"6"}, Contacts: map[string][2]bool{"a": {false, true}, "b": {true, false}}})
	p.CarryOptOuts("9", CarriedOptOuts{From: []string{"7"}, Contacts: map[string][2]bool{"c": {true, true}}})
	got, ok := p.OptOuts("8", key)
	want := CarriedOptOuts{From: []string{"5", "6"}, Contacts: map[string][2]bool{"a": {true, true}, "b": {true, false}}}
	if d := cmp.Diff(want, got); !ok || d != "" {
		t.Errorf("by key (-want +got):\n%s", d)
	}
	if got, ok := p.OptOuts("9", ""); !ok || !got.Contacts["c"][1] {
		t.Errorf("by list id: %v %v", got, ok)
	}
	if _, ok := p.OptOuts("10", ""); ok {
		t.Errorf("nothing carried for list 10, found some")
	}
}
