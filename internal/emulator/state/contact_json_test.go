package state

import (
	"encoding/json"
	"math/rand/v2"
	"testing"
)

// contactViewFields is ContactView without its MarshalJSON: what
// encoding/json writes by the struct tags.
type contactViewFields ContactView

// ContactView's own encoding is byte for byte encoding/json's, for values
// of every kind of character and every optional field left out.
func TestContactViewJSON(t *testing.T) {
	strs := []string{"", "a", "customer-42", `quo"te`, `back\slash`, "<tag>&", "line\nbreak\ttab\x01", "Zoë", "日本", "\u2028\u2029", "bad\xffutf8", "del\x7f", "SUBSCRIBED"}
	rnd := rand.New(rand.NewPCG(34, 35))
	pick := func() string { return strs[rnd.IntN(len(strs))] }
	views := []ContactView{{}, {Properties: map[string]string{}}}
	for range 300 {
		v := ContactView{ID: rnd.Int64N(1 << 40), OriginalID: pick(), Status: pick(), MobileStatus: pick(), DateCreated: pick(), DateModified: pick()}
		if rnd.IntN(5) > 0 {
			v.Properties = map[string]string{}
			for range rnd.IntN(12) {
				v.Properties[pick()] = pick()
			}
		}
		views = append(views, v)
	}
	for _, v := range views {
		want, err := json.Marshal(contactViewFields(v))
		if err != nil {
			t.Fatal(err)
		}
		got, err := json.Marshal(v)
		if err != nil {
			t.Fatal(err)
		}
		if string(got) != string(want) {
			t.Fatalf("encoding of %#v:\n got %s\nwant %s", v, got, want)
		}
	}
	page := make([]contactViewFields, len(views))
	for i, v := range views {
		page[i] = contactViewFields(v)
	}
	want, _ := json.Marshal(page)
	if got := AppendContactsJSON(nil, views); string(got) != string(want) {
		t.Errorf("a page encodes otherwise than encoding/json:\n got %.200s\nwant %.200s", got, want)
	}
	if got := AppendContactsJSON(nil, nil); string(got) != "[]" {
		t.Errorf("no contacts encode as %s, want []", got)
	}
}
