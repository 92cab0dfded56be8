package dynamic

import (
	"bytes"
	"encoding/json"
	"testing"
)

// FuzzDynamicJSONRoundTrip decodes arbitrary JSON into a Terraform value and
// back: whatever the service sends must come back as the same JSON (numbers
// exact, types kept), and projecting a value onto itself must keep it.
func FuzzDynamicJSONRoundTrip(f *testing.F) {
	f.Add([]byte(`{"name":"Spring","budget":12.5,"tags":["a","b"],"rule":{"field":"status","n":12345678901234567890}}`))
	f.Add([]byte(`[1,"two",true,null,{"x":[]}]`))
	f.Add([]byte(`{"a":{"b":{"c":[1.0e-7, -0, 3]}}}`))
	f.Fuzz(func(t *testing.T, raw []byte) {
		dec := json.NewDecoder(bytes.NewReader(raw))
		dec.UseNumber()
		var in any
		if err := dec.Decode(&in); err != nil || dec.More() {
			return
		}
		v, err := JSONToValue(in, nil)
		if err != nil {
			return // a refusal is fine; a panic is not
		}
		out, err := ValueToJSON(v)
		if err != nil {
			t.Fatalf("value from %s does not encode back: %v", raw, err)
		}
		if !sameJSON(t, in, out) {
			t.Fatalf("round trip changed the value:\n in  %s\n out %s", mustJSON(t, in), mustJSON(t, out))
		}
		if p := ProjectJSON(in, in); !sameJSON(t, in, p) {
			t.Fatalf("projecting a value onto itself changed it:\n in  %s\n out %s", mustJSON(t, in), mustJSON(t, p))
		}
	})
}

// sameJSON compares two JSON values numerically exactly: numbers are
// compared by value, so 1.0 and 1 are equal, as they are to the service.
func sameJSON(t *testing.T, a, b any) bool {
	var x, y any
	for i, v := range []any{a, b} {
		dec := json.NewDecoder(bytes.NewReader([]byte(mustJSON(t, v))))
		dec.UseNumber()
		target := &x
		if i == 1 {
			target = &y
		}
		if err := dec.Decode(target); err != nil {
			t.Fatal(err)
		}
	}
	return equalNumbers(x, y)
}

func equalNumbers(a, b any) bool {
	switch av := a.(type) {
	case json.Number:
		bv, ok := b.(json.Number)
		if !ok {
			return false
		}
		fa, err1 := parseJSONNumber(av)
		fb, err2 := parseJSONNumber(bv)
		return err1 == nil && err2 == nil && fa.Cmp(fb) == 0
	case map[string]any:
		bv, ok := b.(map[string]any)
		if !ok || len(av) != len(bv) {
			return false
		}
		for k, v := range av {
			if !equalNumbers(v, bv[k]) {
				return false
			}
		}
		return true
	case []any:
		bv, ok := b.([]any)
		if !ok || len(av) != len(bv) {
			return false
		}
		for i := range av {
			if !equalNumbers(av[i], bv[i]) {
				return false
			}
		}
		return true
	default:
		return a == b
	}
}

func mustJSON(t *testing.T, v any) string {
	b, err := json.Marshal(v)
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}
