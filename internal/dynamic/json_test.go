package dynamic

import (
	"bytes"
	"context"
	"encoding/json"
	"math/big"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/hashicorp/terraform-plugin-framework/attr"
	"github.com/hashicorp/terraform-plugin-framework/types"
)

func decodeTestJSON(t *testing.T, s string) any {
	t.Helper()
	dec := json.NewDecoder(bytes.NewReader([]byte(s)))
	dec.UseNumber()
	var v any
	if err := dec.Decode(&v); err != nil {
		t.Fatalf("decoding %s: %v", s, err)
	}
	return v
}

func encodeTestJSON(t *testing.T, v any) string {
	t.Helper()
	b, err := json.Marshal(v)
	if err != nil {
		t.Fatalf("encoding %#v: %v", v, err)
	}
	return string(b)
}

func mustNumber(t *testing.T, s string) types.Number {
	t.Helper()
	f, _, err := big.ParseFloat(s, 10, numberPrecision, big.ToNearestEven)
	if err != nil {
		t.Fatal(err)
	}
	return types.NumberValue(f)
}

// JSON read into framework values and written back is the same JSON, with
// numbers exact however large or fine.
func TestJSONRoundTrip(t *testing.T) {
	for name, in := range map[string]string{
		"flat object":          `{"a":"x","b":true,"c":1.5,"d":null}`,
		"big integer":          `{"n":123456789012345678901234567890}`,
		"int64 overflow":       `{"n":9223372036854775808}`,
		"negative":             `{"n":-42}`,
		"decimal":              `{"n":0.1}`,
		"tiny":                 `{"n":1.5e-300}`,
		"nested tuple":         `{"rows":[1,"two",{"three":[3,[4]]}]}`,
		"nested object":        `{"rule":{"field":"status","and":{"op":"eq","value":[true,false]}}}`,
		"empty object and arr": `{"o":{},"a":[]}`,
		"unicode":              `{"s":"Grüße ✓"}`,
	} {
		t.Run(name, func(t *testing.T) {
			in := decodeTestJSON(t, in)
			v, err := JSONToValue(in, nil)
			if err != nil {
				t.Fatal(err)
			}
			out, err := ValueToJSON(v)
			if err != nil {
				t.Fatal(err)
			}
			if diff := cmp.Diff(encodeTestJSON(t, in), encodeTestJSON(t, out)); diff != "" {
				t.Errorf("round trip changed the JSON (-in +out):\n%s", diff)
			}
		})
	}
}

// HCL values become JSON of the same shape and exact numbers.
func TestValueToJSON(t *testing.T) {
	list, _ := types.ListValue(types.StringType, []attr.Value{types.StringValue("a"), types.StringValue("b")})
	set, _ := types.SetValue(types.NumberType, []attr.Value{mustNumber(t, "3")})
	tuple, _ := types.TupleValue([]attr.Type{types.NumberType, types.StringType}, []attr.Value{mustNumber(t, "1"), types.StringValue("x")})
	m, _ := types.MapValue(types.BoolType, map[string]attr.Value{"on": types.BoolValue(true)})
	nested, _ := types.ObjectValue(
		map[string]attr.Type{"t": tuple.Type(context.Background()), "n": types.DynamicType},
		map[string]attr.Value{"t": tuple, "n": types.DynamicNull()},
	)
	tests := []struct {
		name string
		in   attr.Value
		want string
	}{
		{"string", types.StringValue("s"), `"s"`},
		{"bool", types.BoolValue(false), `false`},
		{"huge integer", mustNumber(t, "98765432109876543210987654321"), `98765432109876543210987654321`},
		{"decimal", mustNumber(t, "0.1"), `0.1`},
		{"int64", types.Int64Value(-7), `-7`},
		{"list", list, `["a","b"]`},
		{"set", set, `[3]`},
		{"map", m, `{"on":true}`},
		{"object with tuple and null", nested, `{"n":null,"t":[1,"x"]}`},
		{"dynamic wrapper", types.DynamicValue(list), `["a","b"]`},
		{"null", types.StringNull(), `null`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, err := ValueToJSON(tt.in)
			if err != nil {
				t.Fatal(err)
			}
			if s := encodeTestJSON(t, got); s != tt.want {
				t.Errorf("got %s, want %s", s, tt.want)
			}
		})
	}
	if _, err := ValueToJSON(types.StringUnknown()); err == nil {
		t.Error("an unknown value converted without error")
	}
}

// The type of the prior value decides what a JSON array or object becomes,
// so that reading back what was written yields the same Terraform type.
func TestJSONToValueKeepsHintedTypes(t *testing.T) {
	ctx := context.Background()
	list, _ := types.ListValue(types.StringType, []attr.Value{types.StringValue("a")})
	set, _ := types.SetValue(types.StringType, []attr.Value{types.StringValue("a")})
	m, _ := types.MapValue(types.StringType, map[string]attr.Value{"k": types.StringValue("v")})
	tuple, _ := types.TupleValue([]attr.Type{types.StringType}, []attr.Value{types.StringValue("a")})
	listOfObjects, _ := types.ListValue(
		types.ObjectType{AttrTypes: map[string]attr.Type{"n": types.NumberType}},
		[]attr.Value{types.ObjectValueMust(map[string]attr.Type{"n": types.NumberType}, map[string]attr.Value{"n": mustNumber(t, "1")})},
	)
	tests := []struct {
		name string
		json string
		hint attr.Type
		want attr.Type
	}{
		{"no hint array is tuple", `["a","b"]`, nil, types.TupleType{ElemTypes: []attr.Type{types.StringType, types.StringType}}},
		{"list stays list", `["a","b"]`, list.Type(ctx), types.ListType{ElemType: types.StringType}},
		{"set stays set", `["a","b"]`, set.Type(ctx), types.SetType{ElemType: types.StringType}},
		{"map stays map", `{"x":"1","y":"2"}`, m.Type(ctx), types.MapType{ElemType: types.StringType}},
		{"tuple stays tuple", `["a"]`, tuple.Type(ctx), types.TupleType{ElemTypes: []attr.Type{types.StringType}}},
		{"list of objects", `[{"n":1},{"n":2}]`, listOfObjects.Type(ctx), listOfObjects.Type(ctx)},
		{"list that no longer fits becomes a tuple", `["a",1]`, list.Type(ctx), types.TupleType{ElemTypes: []attr.Type{types.StringType, types.NumberType}}},
		{"no hint object is object", `{"x":"1"}`, nil, types.ObjectType{AttrTypes: map[string]attr.Type{"x": types.StringType}}},
		{"null with hint is typed", `null`, types.StringType, types.StringType},
		{"empty list stays list", `[]`, list.Type(ctx), types.ListType{ElemType: types.StringType}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			v, err := JSONToValue(decodeTestJSON(t, tt.json), tt.hint)
			if err != nil {
				t.Fatal(err)
			}
			if got := v.Type(ctx); !got.Equal(tt.want) {
				t.Errorf("type = %s, want %s", got, tt.want)
			}
		})
	}
}

// Written then read back through the dynamic wrapper, an HCL value is equal
// to itself: no perpetual diff, no inconsistent result.
func TestDynamicRoundTripEqual(t *testing.T) {
	inner, _ := types.TupleValue(
		[]attr.Type{types.NumberType, types.ObjectType{AttrTypes: map[string]attr.Type{"deep": types.StringType}}},
		[]attr.Value{mustNumber(t, "18446744073709551617"), types.ObjectValueMust(map[string]attr.Type{"deep": types.StringType}, map[string]attr.Value{"deep": types.StringValue("x")})},
	)
	tags, _ := types.ListValue(types.StringType, []attr.Value{types.StringValue("a"), types.StringValue("b")})
	body := types.DynamicValue(types.ObjectValueMust(
		map[string]attr.Type{"rows": inner.Type(context.Background()), "tags": tags.Type(context.Background()), "ratio": types.NumberType},
		map[string]attr.Value{"rows": inner, "tags": tags, "ratio": mustNumber(t, "0.3")},
	))
	j, err := ValueToJSON(body)
	if err != nil {
		t.Fatal(err)
	}
	// Through the wire, as the service would echo it.
	back, err := FromJSON(decodeTestJSON(t, encodeTestJSON(t, j)), body)
	if err != nil {
		t.Fatal(err)
	}
	if !back.Equal(body) {
		t.Errorf("read back %s, want %s", back, body)
	}
}

func TestProjectJSON(t *testing.T) {
	tests := []struct {
		name          string
		remote, prior string
		want          string
	}{
		{"server-added keys dropped", `{"a":1,"added":2}`, `{"a":1}`, `{"a":1}`},
		{"changed value kept", `{"a":2}`, `{"a":1}`, `{"a":2}`},
		{"nested added key dropped", `{"r":{"f":"s","op":"eq"}}`, `{"r":{"f":"s"}}`, `{"r":{"f":"s"}}`},
		{"nested change kept", `{"r":{"f":"t","op":"eq"}}`, `{"r":{"f":"s"}}`, `{"r":{"f":"t"}}`},
		{"key gone on server left out", `{}`, `{"a":1}`, `{}`},
		{"null matches absence", `{}`, `{"a":null}`, `{"a":null}`},
		{"array elements projected", `{"l":[{"x":1,"y":2},{"x":3}]}`, `{"l":[{"x":1},{"x":3}]}`, `{"l":[{"x":1},{"x":3}]}`},
		{"longer array kept whole", `{"l":[1,2,3]}`, `{"l":[1]}`, `{"l":[1,2,3]}`},
		{"type change kept", `{"a":"now a string"}`, `{"a":{"b":1}}`, `{"a":"now a string"}`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got := ProjectJSON(decodeTestJSON(t, tt.remote), decodeTestJSON(t, tt.prior))
			if s := encodeTestJSON(t, got); s != tt.want {
				t.Errorf("got %s, want %s", s, tt.want)
			}
		})
	}
}

func TestMergeBody(t *testing.T) {
	tests := []struct {
		name                   string
		remote, planned, prior string
		want                   string
	}{
		{"plan over remote keeps server keys", `{"a":1,"srv":"x"}`, `{"a":2}`, `{"a":1}`, `{"a":2,"srv":"x"}`},
		{"removed top-level key sent as null", `{"a":1,"b":2}`, `{"a":1}`, `{"a":1,"b":2}`, `{"a":1,"b":null}`},
		{"nested merge keeps server nested keys", `{"r":{"f":"s","op":"eq"}}`, `{"r":{"f":"t"}}`, `{"r":{"f":"s"}}`, `{"r":{"f":"t","op":"eq"}}`},
		{"removed nested key dropped", `{"r":{"f":"s","g":1}}`, `{"r":{"f":"s"}}`, `{"r":{"f":"s","g":1}}`, `{"r":{"f":"s"}}`},
		{"arrays replaced whole", `{"l":[1,2]}`, `{"l":[3]}`, `{"l":[1,2]}`, `{"l":[3]}`},
		{"new key added", `{}`, `{"n":true}`, `{}`, `{"n":true}`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			obj := func(s string) map[string]any { return decodeTestJSON(t, s).(map[string]any) }
			got := MergeBody(obj(tt.remote), obj(tt.planned), obj(tt.prior))
			if s := encodeTestJSON(t, got); s != tt.want {
				t.Errorf("got %s, want %s", s, tt.want)
			}
		})
	}
}
