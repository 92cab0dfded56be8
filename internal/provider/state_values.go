package provider

import (
	"context"
	"strconv"

	"github.com/hashicorp/terraform-plugin-framework-timetypes/timetypes"
	"github.com/hashicorp/terraform-plugin-framework/diag"
	"github.com/hashicorp/terraform-plugin-framework/types"

	"github.com/rms-labs/terraform-provider-rms/internal/client"
)

// Conversions between the service's values and Terraform values that
// several resources share.

// rfc3339 turns a server timestamp into a state value; an empty one is null.
func rfc3339(t client.Timestamp) timetypes.RFC3339 {
	if t.IsZero() {
		return timetypes.NewRFC3339Null()
	}
	return timetypes.NewRFC3339ValueMust(t.String())
}

// stringPointer is nil for a null or unknown value.
func stringPointer(v types.String) *string {
	if v.IsNull() || v.IsUnknown() {
		return nil
	}
	s := v.ValueString()
	return &s
}

// nullIfEmpty is a string the service may leave out: null when it did.
func nullIfEmpty(s string) types.String {
	if s == "" {
		return types.StringNull()
	}
	return types.StringValue(s)
}

// int64OrNull is a number the service sends as digits, or may leave out:
// null when it did, or sent something else.
func int64OrNull(s string) types.Int64 {
	n, err := strconv.ParseInt(s, 10, 64)
	if err != nil {
		return types.Int64Null()
	}
	return types.Int64Value(n)
}

// knownString is the value of a known, non-null string, else "".
func knownString(v types.String) string {
	if v.IsNull() || v.IsUnknown() {
		return ""
	}
	return v.ValueString()
}

// stringMap converts a map attribute; null or unknown is nil.
func stringMap(ctx context.Context, m types.Map) (map[string]string, diag.Diagnostics) {
	if m.IsNull() || m.IsUnknown() {
		return nil, nil
	}
	// Read directly, as ElementsAs reflects per element; a null or
	// unknown value goes to ElementsAs for its diagnostics.
	elems := m.Elements()
	out := make(map[string]string, len(elems))
	for k, v := range elems {
		s, ok := v.(types.String)
		if !ok || s.IsNull() || s.IsUnknown() {
			out = map[string]string{}
			return out, m.ElementsAs(ctx, &out, false)
		}
		out[k] = s.ValueString()
	}
	return out, nil
}

// optionalString is a server value for an optional attribute: an empty
// string where the user has none stays null.
func optionalString(v *string, prior types.String) types.String {
	if v != nil && *v == "" && prior.IsNull() {
		return types.StringNull()
	}
	return types.StringPointerValue(v)
}
