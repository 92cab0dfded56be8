package contactsync

import (
	"strconv"
	"testing"

	"github.com/rms-labs/terraform-provider-rms/internal/client"
)

// A listing's fingerprint changes with any contact's id or statuses, and
// with the properties of the contacts it covers, never with the order of
// the listing.
func TestFingerprintOf(t *testing.T) {
	base := map[string]ServiceContact{
		"a": {Props: map[string]string{"firstname": "Ann"}, Email: client.StatusSubscribed},
		"b": {Props: map[string]string{"firstname": "Ben"}, Email: client.StatusSubscribed, Mobile: client.StatusUnsubscribed},
	}
	with := func(id string, c ServiceContact) map[string]ServiceContact {
		m := map[string]ServiceContact{}
		for k, v := range base {
			m[k] = v
		}
		m[id] = c
		return m
	}
	onlyA := func(id string) bool { return id == "a" }
	cases := []struct {
		name    string
		listing map[string]ServiceContact
		props   func(string) bool
		same    bool
	}{
		{name: "the same listing", listing: base, same: true},
		{name: "an opt-out", listing: with("a", ServiceContact{Props: base["a"].Props, Email: client.StatusUnsubscribed})},
		{name: "a sign-up", listing: with("c", ServiceContact{Email: client.StatusSubscribed})},
		{name: "a property edited", listing: with("b", ServiceContact{Props: map[string]string{"firstname": "Benjamin"}, Email: client.StatusSubscribed, Mobile: client.StatusUnsubscribed})},
		{name: "a property edited where not covered", props: onlyA, same: true,
			listing: with("b", ServiceContact{Props: map[string]string{"firstname": "Benjamin"}, Email: client.StatusSubscribed, Mobile: client.StatusUnsubscribed})},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			before := FingerprintOf(ServiceListOf(base), tc.props)
			for range 5 { // map order varies: the fingerprint must not
				if got := FingerprintOf(ServiceListOf(tc.listing), tc.props); (got == before) != tc.same {
					t.Fatalf("fingerprint %v against %v: same = %v, want %v", got, before, got == before, tc.same)
				}
			}
		})
	}
}

// BenchmarkFingerprintOf100k is what a refresh of a 100,000-contact list
// adds for the fingerprint (statuses only, as for contacts a map does not
// name).
func BenchmarkFingerprintOf100k(b *testing.B) {
	s := NewServiceList(nil, false)
	for i := range 100_000 {
		s.Add(strconv.Itoa(i), ServiceContact{Email: client.StatusSubscribed, Mobile: client.StatusUnsubscribed})
	}
	none := func(string) bool { return false }
	b.ResetTimer()
	for b.Loop() {
		FingerprintOf(s, none)
	}
}
