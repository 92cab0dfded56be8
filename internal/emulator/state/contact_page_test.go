package state

import (
	"math/rand/v2"
	"strconv"
	"testing"
)

// A page written straight from the stored contacts holds the same bytes as
// the views of those contacts encoded one by one: properties in key order
// (by name, or by id as a wire profile keys them), values of an attribute
// that no longer exists left out, statuses present or not.
func TestContactsPageJSON(t *testing.T) {
	strs := []string{"", "a", "customer-42", `quo"te`, `back\slash`, "<tag>&", "line\nbreak", "Zoë", "日本", "bad\xffutf8"}
	rnd := rand.New(rand.NewPCG(36, 37))
	pick := func() string { return strs[rnd.IntN(len(strs))] }
	// Ids 1 to 12 exist; 13 and 14 are values of deleted attributes.
	names := map[int64]string{}
	for id := int64(1); id <= 12; id++ {
		names[id] = "attr" + pick() + strconv.FormatInt(id, 10)
	}
	var contacts []*Contact
	for i := range 200 {
		vals := map[int64]string{}
		for range rnd.IntN(8) {
			vals[1+rnd.Int64N(14)] = pick()
		}
		contacts = append(contacts, &Contact{
			ID: int64(i) << rnd.IntN(30), OriginalID: pick(), Props: packProps(vals),
			status: []statusCode{codeSubscribed, codeUnsubscribed, codeNone}[rnd.IntN(3)], mobile: []statusCode{codeSubscribed, codeNone}[rnd.IntN(2)],
			created: stamp(rnd.Int64N(4e9)), modified: stamp(rnd.Int64N(4e9)),
		})
	}
	byName, byID := make([]PropKey, 0, len(names)), make([]PropKey, 0, len(names))
	for id, name := range names {
		byName = append(byName, PropKey{ID: id, Key: name})
		byID = append(byID, PropKey{ID: id, Key: strconv.FormatInt(id, 10)})
	}
	SortPropKeys(byName)
	SortPropKeys(byID)

	tests := []struct {
		name     string
		keys     []PropKey
		statuses bool
		view     func(ContactView) ContactView
	}{
		{"by name", byName, true, func(v ContactView) ContactView { return v }},
		{"without statuses", byName, false, func(v ContactView) ContactView {
			v.Status, v.MobileStatus = "", ""
			return v
		}},
		{"by id", byID, true, func(v ContactView) ContactView {
			ids := map[string]int64{}
			for id, name := range names {
				ids[name] = id
			}
			props := map[string]string{}
			for name, val := range v.Properties {
				props[strconv.FormatInt(ids[name], 10)] = val
			}
			v.Properties = props
			return v
		}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			views := make([]ContactView, len(contacts))
			for i, c := range contacts {
				views[i] = tt.view(c.View(names))
			}
			want := AppendContactsJSON(nil, views)
			got := AppendContactsPageJSON(nil, contacts, tt.keys, tt.statuses)
			if string(got) != string(want) {
				t.Fatalf("the page differs from its views:\n got %.300s\nwant %.300s", got, want)
			}
		})
	}
	if got := AppendContactsPageJSON(nil, nil, byName, true); string(got) != "[]" {
		t.Errorf("no contacts encode as %s, want []", got)
	}
}
