package contactsync

import (
	"errors"
	"fmt"
	"maps"
	"reflect"
	"testing"

	"github.com/rms-labs/terraform-provider-rms/internal/client"
)

// sketchBase is a list of n contacts, every third opted out by e-mail.
func sketchBase(n int) map[string]ServiceContact {
	m := map[string]ServiceContact{}
	for i := range n {
		c := ServiceContact{Props: map[string]string{"firstname": fmt.Sprint("Name ", i)}, Email: client.StatusSubscribed, Mobile: client.StatusSubscribed}
		if i%3 == 0 {
			c.Email = client.StatusUnsubscribed
		}
		m[fmt.Sprintf("c-%04d", i)] = c
	}
	return m
}

// A sketch of a refresh's listing gives back, from a later listing, the
// contacts that moved on with the statuses the refresh saw, and refuses
// what it cannot give back.
func TestSketchMovedSince(t *testing.T) {
	const n = 2000
	sub, unsub := client.StatusSubscribed, client.StatusUnsubscribed
	cases := []struct {
		name    string
		change  func(m map[string]ServiceContact)
		then    map[string][2]string
		joined  []string
		wantErr error
	}{
		{name: "nothing moved", change: func(map[string]ServiceContact) {}},
		{
			name: "an opt-out and a re-subscription",
			change: func(m map[string]ServiceContact) {
				c := m["c-0001"]
				c.Email = unsub
				m["c-0001"] = c
				c = m["c-0003"]
				c.Email = sub
				m["c-0003"] = c
			},
			then: map[string][2]string{"c-0001": {sub, sub}, "c-0003": {unsub, sub}},
		},
		{
			name: "sign-ups",
			change: func(m map[string]ServiceContact) {
				m["new-1"] = ServiceContact{Email: sub}
				m["new-2"] = ServiceContact{Mobile: sub}
			},
			joined: []string{"new-1", "new-2"},
		},
		{
			name: "as many as it holds",
			change: func(m map[string]ServiceContact) {
				for i := range MovedCapacity {
					id := fmt.Sprintf("c-%04d", 3*i+1)
					c := m[id]
					c.Mobile = unsub
					m[id] = c
				}
			},
		},
		{
			name: "more than it holds",
			change: func(m map[string]ServiceContact) {
				for i := range 400 {
					id := fmt.Sprintf("c-%04d", i)
					c := m[id]
					c.Mobile = unsub
					m[id] = c
				}
			},
			wantErr: ErrMovedTooFar,
		},
		{name: "a contact left", change: func(m map[string]ServiceContact) { delete(m, "c-0007") }, wantErr: ErrMovedLeft},
		{
			name: "a property edited",
			change: func(m map[string]ServiceContact) {
				c := m["c-0008"]
				c.Props = map[string]string{"firstname": "Someone else"}
				m["c-0008"] = c
			},
			wantErr: ErrMovedProps,
		},
		{
			name: "a status the provider does not know, then",
			change: func(m map[string]ServiceContact) {
				c := m["c-0010"]
				c.Email = unsub
				m["c-0010"] = c
			},
			wantErr: ErrMovedOdd,
		},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			base := sketchBase(n)
			if errors.Is(tc.wantErr, ErrMovedOdd) {
				c := base["c-0010"]
				c.Email = "BOUNCED"
				base["c-0010"] = c
			}
			sketch := SketchOf(ServiceListOf(base), nil)
			now := maps.Clone(base)
			tc.change(now)
			got, err := sketch.MovedSince(ServiceListOf(now), nil)
			if tc.wantErr != nil {
				if !errors.Is(err, tc.wantErr) {
					t.Fatalf("error %v, want %v", err, tc.wantErr)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			if tc.name == "as many as it holds" {
				if got.Len() != MovedCapacity {
					t.Fatalf("%d contacts moved, want %d", got.Len(), MovedCapacity)
				}
				return
			}
			if len(got.Then) != len(tc.then) || (len(tc.then) > 0 && !reflect.DeepEqual(got.Then, tc.then)) || !reflect.DeepEqual(got.Joined, tc.joined) {
				t.Fatalf("moved %+v, want then %v, joined %v", got, tc.then, tc.joined)
			}
		})
	}
}

// Rewound by what moved on, a later listing counts as the refresh's did
// (the same fingerprint), held against a file's book or holding
// properties; undone, it is the later listing again.
func TestServiceListRewind(t *testing.T) {
	base := sketchBase(300)
	var desired []Desired
	for _, id := range SortedKeys(base)[:200] {
		c := base[id]
		desired = append(desired, Desired{ID: id, Props: c.Props})
	}
	book := fileBook(t, []string{"firstname"}, desired)
	listings := map[string]func(map[string]ServiceContact) *ServiceList{
		"with properties":      ServiceListOf,
		"held against a book":  func(m map[string]ServiceContact) *ServiceList { return listAgainst(book, m) },
		"statuses only (none)": func(m map[string]ServiceContact) *ServiceList { return listAgainst(nil, m) },
	}
	for name, listOf := range listings {
		t.Run(name, func(t *testing.T) {
			then := listOf(base)
			now := maps.Clone(base)
			for _, id := range []string{"c-0001", "c-0250"} { // one the book names, one it does not
				c := now[id]
				c.Email = client.StatusUnsubscribed
				now[id] = c
			}
			now["c-0003"] = ServiceContact{Props: now["c-0003"].Props, Email: client.StatusSubscribed, Mobile: client.StatusSubscribed}
			now["joined-1"] = ServiceContact{Email: client.StatusSubscribed}
			listed := listOf(now)
			moved, err := SketchOf(then, nil).MovedSince(listed, nil)
			if err != nil {
				t.Fatal(err)
			}
			if moved.Len() != 4 {
				t.Fatalf("moved %+v, want 4 contacts", moved)
			}
			after := FingerprintOf(listed, nil)
			undo := listed.Rewind(moved)
			if got, want := FingerprintOf(listed, nil), FingerprintOf(then, nil); got != want {
				t.Fatalf("rewound fingerprint %v, the refresh's %v", got, want)
			}
			if listed.Len() != then.Len() {
				t.Fatalf("rewound listing holds %d, the refresh's %d", listed.Len(), then.Len())
			}
			undo()
			if got := FingerprintOf(listed, nil); got != after {
				t.Fatalf("undone fingerprint %v, the later listing's %v", got, after)
			}
		})
	}
}

// BenchmarkSketchOf100k is what a refresh of a 100,000-contact list adds
// for the sketch (statuses only, as for contacts a map does not name).
func BenchmarkSketchOf100k(b *testing.B) {
	s := NewServiceList(nil, false)
	for i := range 100_000 {
		s.Add(fmt.Sprint(i), ServiceContact{Email: client.StatusSubscribed, Mobile: client.StatusUnsubscribed})
	}
	none := func(string) bool { return false }
	b.ReportAllocs()
	for b.Loop() {
		SketchOf(s, none)
	}
}
