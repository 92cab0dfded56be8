package contactsync

import (
	"fmt"
	"slices"
	"testing"

	"github.com/rms-labs/terraform-provider-rms/internal/client"
)

func TestCountCandidates(t *testing.T) {
	sub := ServiceContact{Email: client.StatusSubscribed, Mobile: client.StatusSubscribed}
	out := ServiceContact{Email: client.StatusUnsubscribed, Mobile: client.StatusUnsubscribed}
	half := ServiceContact{Email: client.StatusUnsubscribed, Mobile: client.StatusSubscribed}
	service := ServiceListOf(map[string]ServiceContact{"a": sub, "b": sub, "c": out, "d": half, "e": sub})
	named := BookOf([]Desired{{ID: "a"}, {ID: "c"}})
	c := CountCandidates(service, named)
	if c.Count != 3 || c.Subscribed != 4 || !slices.Equal(c.IDs, []string{"b", "d", "e"}) || c.Digest != "" {
		t.Errorf("counted %+v, want b, d, e of 4 subscribed", c)
	}
	if c.Input != IDsDigest([]string{"c", "a"}) {
		t.Errorf("input digest %s, want the named ids' in any order", c.Input)
	}

	// The same, listed against the named book (a file's listing).
	against := NewServiceList(named, false)
	for _, id := range []string{"a", "b", "c", "d", "e"} {
		c, _ := service.Get(id)
		against.Add(id, c)
	}
	if got := CountCandidates(against, named); got.Count != 3 || got.Subscribed != 4 || !slices.Equal(got.IDs, []string{"b", "d", "e"}) {
		t.Errorf("against the book: counted %+v, want b, d, e of 4 subscribed", got)
	}

	big := map[string]ServiceContact{}
	var ids []string
	for i := range MaxCountedIDs + 1 {
		id := fmt.Sprintf("x%04d", i)
		big[id] = sub
		ids = append(ids, id)
	}
	c = CountCandidates(ServiceListOf(big), nil)
	if c.Count != MaxCountedIDs+1 || c.IDs != nil || c.Digest != IDsDigest(ids) {
		t.Errorf("above %d candidates: count %d, %d ids, digest %q; want a digest only", MaxCountedIDs, c.Count, len(c.IDs), c.Digest)
	}
}

func TestCountedCheck(t *testing.T) {
	byID := Counted{Count: 2, IDs: []string{"b", "d"}, Subscribed: 4}
	byDigest := Counted{Count: 2, Digest: IDsDigest([]string{"b", "d"}), Subscribed: 4}
	namedA := func(id string) bool { return id == "a" }
	for _, tc := range []struct {
		name        string
		counted     Counted
		unsub       []string
		namedBefore func(string) bool
		comparable  bool
		outside     []string
		stop        bool
	}{
		{name: "by id: the candidates", counted: byID, unsub: []string{"d", "b"}, comparable: true},
		{name: "by id: fewer", counted: byID, unsub: []string{"b"}, comparable: true},
		{name: "by id: a sign-up stops", counted: byID, unsub: []string{"b", "z"}, comparable: true, outside: []string{"z"}, stop: true},
		{name: "by id: one the input named before was counted", counted: byID, unsub: []string{"a", "b"}, namedBefore: namedA, comparable: true},
		{name: "by digest: the candidates", counted: byDigest, unsub: []string{"d", "b"}, comparable: true},
		{name: "by digest: fewer", counted: byDigest, unsub: []string{"b"}, comparable: true, outside: []string{"b"}},
		{name: "by digest: more stops", counted: byDigest, unsub: []string{"b", "d", "z"}, comparable: true, outside: []string{"b", "d", "z"}, stop: true},
		{name: "by digest: named before set aside", counted: byDigest, unsub: []string{"a", "b", "d"}, namedBefore: namedA, comparable: true},
		{name: "input changed: within the subscribed", counted: byID, unsub: []string{"x", "y", "z", "w"}, outside: []string{"w", "x", "y", "z"}},
		{name: "input changed: more than subscribed stops", counted: byID, unsub: []string{"v", "w", "x", "y", "z"}, outside: []string{"v", "w", "x", "y", "z"}, stop: true},
		{name: "nothing counted: anyone stops", unsub: []string{"b"}, comparable: true, outside: []string{"b"}, stop: true},
	} {
		t.Run(tc.name, func(t *testing.T) {
			outside, stop := tc.counted.Check(tc.unsub, tc.namedBefore, tc.comparable)
			if stop != tc.stop || !slices.Equal(outside, tc.outside) {
				t.Errorf("Check = %v, %v; want %v, %v", outside, stop, tc.outside, tc.stop)
			}
		})
	}
}
