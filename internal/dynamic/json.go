package dynamic

import (
	"context"
	"encoding/json"
	"fmt"
	"math/big"
	"sort"

	"github.com/hashicorp/terraform-plugin-framework/attr"
	"github.com/hashicorp/terraform-plugin-framework/diag"
	"github.com/hashicorp/terraform-plugin-framework/types"
	"github.com/hashicorp/terraform-plugin-framework/types/basetypes"
)

// This file converts between the framework's values (what a dynamic
// attribute such as rms_resource.body holds) and JSON values as
// encoding/json decodes them with UseNumber: map[string]any, []any, string,
// bool, json.Number and nil.
//
// Numbers travel as json.Number text and are parsed at the precision
// Terraform itself uses (512 bits), so integers of any size and decimals
// such as 0.1 come back bit-for-bit equal to what the configuration held.

// numberPrecision is the mantissa size Terraform's own number parser uses.
const numberPrecision = 512

// ValueToJSON converts a known framework value to a JSON value. Unknown
// values are refused: the caller must only convert what is known.
func ValueToJSON(v attr.Value) (any, error) {
	if v == nil || v.IsNull() {
		return nil, nil
	}
	if v.IsUnknown() {
		return nil, fmt.Errorf("value is not known yet")
	}
	switch tv := v.(type) {
	case basetypes.DynamicValue:
		if tv.IsUnderlyingValueNull() {
			return nil, nil
		}
		if tv.IsUnderlyingValueUnknown() {
			return nil, fmt.Errorf("value is not known yet")
		}
		return ValueToJSON(tv.UnderlyingValue())
	case basetypes.StringValue:
		return tv.ValueString(), nil
	case basetypes.BoolValue:
		return tv.ValueBool(), nil
	case basetypes.NumberValue:
		return bigFloatToJSON(tv.ValueBigFloat()), nil
	case basetypes.Int64Value:
		return json.Number(fmt.Sprint(tv.ValueInt64())), nil
	case basetypes.Int32Value:
		return json.Number(fmt.Sprint(tv.ValueInt32())), nil
	case basetypes.Float64Value:
		return bigFloatToJSON(big.NewFloat(tv.ValueFloat64())), nil
	case basetypes.Float32Value:
		return bigFloatToJSON(big.NewFloat(float64(tv.ValueFloat32()))), nil
	case basetypes.ObjectValue:
		return attrMapToJSON(tv.Attributes())
	case basetypes.MapValue:
		return attrMapToJSON(tv.Elements())
	case basetypes.ListValue:
		return attrSliceToJSON(tv.Elements())
	case basetypes.SetValue:
		return attrSliceToJSON(tv.Elements())
	case basetypes.TupleValue:
		return attrSliceToJSON(tv.Elements())
	}
	return nil, fmt.Errorf("values of type %s cannot be sent as JSON", v.Type(context.Background()))
}

func attrMapToJSON(in map[string]attr.Value) (map[string]any, error) {
	out := make(map[string]any, len(in))
	for k, e := range in {
		j, err := ValueToJSON(e)
		if err != nil {
			return nil, fmt.Errorf("%s: %w", k, err)
		}
		out[k] = j
	}
	return out, nil
}

func attrSliceToJSON(in []attr.Value) ([]any, error) {
	out := make([]any, len(in))
	for i, e := range in {
		j, err := ValueToJSON(e)
		if err != nil {
			return nil, fmt.Errorf("[%d]: %w", i, err)
		}
		out[i] = j
	}
	return out, nil
}

// bigFloatToJSON writes a number exactly: integers in full, other numbers in
// the shortest decimal form that reads back to the same value.
func bigFloatToJSON(f *big.Float) json.Number {
	if f == nil {
		return json.Number("0")
	}
	if f.IsInt() {
		return json.Number(f.Text('f', 0))
	}
	return json.Number(f.Text('g', -1))
}

// parseJSONNumber reads a json.Number at Terraform's precision.
func parseJSONNumber(n json.Number) (*big.Float, error) {
	f, _, err := big.ParseFloat(string(n), 10, numberPrecision, big.ToNearestEven)
	if err != nil {
		return nil, fmt.Errorf("number %q: %w", n, err)
	}
	return f, nil
}

// JSONToValue converts a JSON value to a framework value. hint, when not
// nil, is the type the value had before (in state or configuration): a list,
// set or map the user wrote stays a list, set or map when the JSON fits it,
// and an object or tuple passes its element types down. Without a hint (or
// when the JSON does not fit it) objects become objects and arrays tuples,
// which is what HCL's { } and [ ] literals are.
func JSONToValue(v any, hint attr.Type) (attr.Value, error) {
	if _, ok := hint.(basetypes.DynamicType); ok {
		hint = nil
	}
	switch jv := v.(type) {
	case nil:
		if hint != nil {
			return nullOf(hint), nil
		}
		return types.DynamicNull(), nil
	case string:
		return types.StringValue(jv), nil
	case bool:
		return types.BoolValue(jv), nil
	case json.Number:
		f, err := parseJSONNumber(jv)
		if err != nil {
			return nil, err
		}
		return types.NumberValue(f), nil
	case float64: // decoded without UseNumber; tolerated
		return types.NumberValue(new(big.Float).SetPrec(numberPrecision).SetFloat64(jv)), nil
	case []any:
		return jsonArrayToValue(jv, hint)
	case map[string]any:
		return jsonObjectToValue(jv, hint)
	}
	return nil, fmt.Errorf("unsupported JSON value of Go type %T", v)
}

// nullOf is a null of type t, wrapped so that it can sit where a dynamic
// value may.
func nullOf(t attr.Type) attr.Value {
	switch tt := t.(type) {
	case basetypes.StringType:
		return types.StringNull()
	case basetypes.BoolType:
		return types.BoolNull()
	case basetypes.NumberType:
		return types.NumberNull()
	case basetypes.ObjectType:
		return types.ObjectNull(tt.AttrTypes)
	case basetypes.MapType:
		return types.MapNull(tt.ElemType)
	case basetypes.ListType:
		return types.ListNull(tt.ElemType)
	case basetypes.SetType:
		return types.SetNull(tt.ElemType)
	case basetypes.TupleType:
		return types.TupleNull(tt.ElemTypes)
	}
	return types.DynamicNull()
}

func jsonArrayToValue(items []any, hint attr.Type) (attr.Value, error) {
	// A list or set the user wrote keeps its kind when every element fits
	// the element type.
	switch h := hint.(type) {
	case basetypes.ListType:
		if elems, ok := convertUniform(items, h.ElemType); ok {
			v, diags := types.ListValue(h.ElemType, elems)
			if !diags.HasError() {
				return v, nil
			}
		}
	case basetypes.SetType:
		if elems, ok := convertUniform(items, h.ElemType); ok {
			v, diags := types.SetValue(h.ElemType, elems)
			if !diags.HasError() {
				return v, nil
			}
		}
	}
	var elemHints []attr.Type
	if h, ok := hint.(basetypes.TupleType); ok {
		elemHints = h.ElemTypes
	}
	elems := make([]attr.Value, len(items))
	elemTypes := make([]attr.Type, len(items))
	for i, item := range items {
		var eh attr.Type
		if i < len(elemHints) {
			eh = elemHints[i]
		}
		e, err := JSONToValue(item, eh)
		if err != nil {
			return nil, fmt.Errorf("[%d]: %w", i, err)
		}
		elems[i] = e
		elemTypes[i] = e.Type(context.Background())
	}
	v, diags := types.TupleValue(elemTypes, elems)
	if diags.HasError() {
		return nil, fmt.Errorf("building a tuple: %s", diagsSummary(diags))
	}
	return v, nil
}

func jsonObjectToValue(obj map[string]any, hint attr.Type) (attr.Value, error) {
	if h, ok := hint.(basetypes.MapType); ok {
		keys := sortedKeys(obj)
		items := make([]any, len(keys))
		for i, k := range keys {
			items[i] = obj[k]
		}
		if elems, ok := convertUniform(items, h.ElemType); ok {
			m := make(map[string]attr.Value, len(keys))
			for i, k := range keys {
				m[k] = elems[i]
			}
			v, diags := types.MapValue(h.ElemType, m)
			if !diags.HasError() {
				return v, nil
			}
		}
	}
	var attrHints map[string]attr.Type
	if h, ok := hint.(basetypes.ObjectType); ok {
		attrHints = h.AttrTypes
	}
	attrs := make(map[string]attr.Value, len(obj))
	attrTypes := make(map[string]attr.Type, len(obj))
	for k, item := range obj {
		e, err := JSONToValue(item, attrHints[k])
		if err != nil {
			return nil, fmt.Errorf("%s: %w", k, err)
		}
		attrs[k] = e
		attrTypes[k] = e.Type(context.Background())
	}
	v, diags := types.ObjectValue(attrTypes, attrs)
	if diags.HasError() {
		return nil, fmt.Errorf("building an object: %s", diagsSummary(diags))
	}
	return v, nil
}

// convertUniform converts items with the element type as hint and reports
// whether every result has exactly that type (a collection needs it).
func convertUniform(items []any, elemType attr.Type) ([]attr.Value, bool) {
	out := make([]attr.Value, len(items))
	for i, item := range items {
		e, err := JSONToValue(item, elemType)
		if err != nil || !e.Type(context.Background()).Equal(elemType) {
			return nil, false
		}
		out[i] = e
	}
	return out, true
}

func sortedKeys(m map[string]any) []string {
	keys := make([]string, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	return keys
}

// ProjectJSON keeps of remote only what the shape of prior names: the keys
// of objects prior holds (recursively, also inside arrays element by
// element). Keys the server added are dropped, so they never show as a
// diff; a key prior holds that the server no longer has is left out (the
// plan then shows it being added back), except a key prior holds as null,
// which the server's silence matches.
func ProjectJSON(remote, prior any) any {
	switch p := prior.(type) {
	case map[string]any:
		r, ok := remote.(map[string]any)
		if !ok {
			return remote
		}
		out := make(map[string]any, len(p))
		for k, pv := range p {
			rv, present := r[k]
			switch {
			case present:
				out[k] = ProjectJSON(rv, pv)
			case pv == nil:
				out[k] = nil
			}
		}
		return out
	case []any:
		r, ok := remote.([]any)
		if !ok {
			return remote
		}
		out := make([]any, len(r))
		for i, rv := range r {
			if i < len(p) {
				out[i] = ProjectJSON(rv, p[i])
			} else {
				out[i] = rv
			}
		}
		return out
	}
	return remote
}

// MergeBody builds the PUT body of an update (the interface: send "all
// fields as returned by a GET"): the user's planned body laid over the last
// GET, object by object. Keys the prior body held that the plan no longer
// has are removed: at the top level they are sent as null, which is how
// the service's PUT removes a key; deeper down they are left out of the
// object that replaces the stored one.
func MergeBody(remote, planned, prior map[string]any) map[string]any {
	out := make(map[string]any, len(remote)+len(planned))
	for k, v := range remote {
		out[k] = v
	}
	for k := range prior {
		if _, kept := planned[k]; !kept {
			out[k] = nil
		}
	}
	for k, pv := range planned {
		out[k] = mergeValue(remote[k], pv, prior[k])
	}
	return out
}

func mergeValue(remote, planned, prior any) any {
	r, rok := remote.(map[string]any)
	p, pok := planned.(map[string]any)
	if !rok || !pok {
		return planned
	}
	old, _ := prior.(map[string]any)
	out := make(map[string]any, len(r)+len(p))
	for k, v := range r {
		out[k] = v
	}
	for k := range old {
		if _, kept := p[k]; !kept {
			delete(out, k)
		}
	}
	for k, pv := range p {
		out[k] = mergeValue(r[k], pv, old[k])
	}
	return out
}

// FromJSON wraps a JSON value as a dynamic value, using hint's type
// (the prior value) to keep lists, sets and maps what they were.
func FromJSON(v any, hint types.Dynamic) (types.Dynamic, error) {
	var ht attr.Type
	if !hint.IsNull() && !hint.IsUnknown() && !hint.IsUnderlyingValueNull() && !hint.IsUnderlyingValueUnknown() {
		ht = hint.UnderlyingValue().Type(context.Background())
	}
	val, err := JSONToValue(v, ht)
	if err != nil {
		return types.DynamicNull(), err
	}
	if dv, ok := val.(basetypes.DynamicValue); ok {
		return dv, nil
	}
	return types.DynamicValue(val), nil
}

// ObjectToJSON converts a dynamic value that must hold an object (or
// a map) to a JSON object.
func ObjectToJSON(v types.Dynamic) (map[string]any, error) {
	j, err := ValueToJSON(v)
	if err != nil {
		return nil, err
	}
	if j == nil {
		return map[string]any{}, nil
	}
	obj, ok := j.(map[string]any)
	if !ok {
		return nil, fmt.Errorf("expected an object, got %T", j)
	}
	return obj, nil
}

func diagsSummary(diags diag.Diagnostics) string {
	var s string
	for _, d := range diags.Errors() {
		if s != "" {
			s += "; "
		}
		s += d.Summary() + ": " + d.Detail()
	}
	return s
}
