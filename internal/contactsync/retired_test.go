package contactsync

import (
	"testing"

	"github.com/google/go-cmp/cmp"
)

// TestRetired: the channels the records of a list's destroyed contacts
// resources know as Terraform's own (the input's UNSUBSCRIBED, released by
// exclusive) are kept from the list's opt-outs; an opt-out any record saw
// stays, and a list no record was added for takes nothing.
func TestRetired(t *testing.T) {
	r := NewRetired()
	r.Add("7", Record{
		Contacts: map[string][2]string{"input": {unsub, sub}, "both": {unsub, ""}},
		Released: map[string][2]string{"gone": {sub, sub}},
		OptedOut: map[string][2]bool{"both": {false, true}},
	})
	// Another resource on the list saw "input" opt out of e-mail itself.
	r.Add("7", Record{OptedOut: map[string][2]bool{"input": {true, false}}})
	if _, ok := r.Take("8"); ok {
		t.Error("list 8 has a record although none was added")
	}
	own, ok := r.Take("7")
	if !ok {
		t.Fatal("list 7's records were not kept")
	}
	want := map[string][2]bool{"both": {true, false}, "gone": {true, true}}
	if diff := cmp.Diff(want, own); diff != "" {
		t.Errorf("Terraform's own channels (-want +got):\n%s", diff)
	}
	outs := []OptOut{
		{OriginalID: "gone", Channels: Channels{Email: true, Mobile: true}},
		{OriginalID: "both", Channels: Channels{Email: true, Mobile: true}},
		{OriginalID: "input", Channels: Channels{Email: true}},
		{OriginalID: "someone", Channels: Channels{Mobile: true}},
	}
	wantOuts := []OptOut{
		{OriginalID: "both", Channels: Channels{Mobile: true}},
		{OriginalID: "input", Channels: Channels{Email: true}},
		{OriginalID: "someone", Channels: Channels{Mobile: true}},
	}
	if diff := cmp.Diff(wantOuts, RecipientsOwn(outs, own)); diff != "" {
		t.Errorf("recipients' own opt-outs (-want +got):\n%s", diff)
	}
	if _, ok := r.Take("7"); ok {
		t.Error("list 7's records were taken twice")
	}
}
