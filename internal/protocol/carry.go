package protocol

import (
	"context"
	"fmt"
	"strings"
	"sync"

	"github.com/hashicorp/terraform-plugin-go/tfprotov6"
	"github.com/hashicorp/terraform-plugin-go/tftypes"
)

// Carrying one attribute past the framework.
//
// terraform-plugin-framework v1.19 walks every element of a map-nested
// attribute in each request, and its plan-modification walk copies the
// whole map for every key (fwserver.AttributeModifyPlan, mapElemObject):
// a plan of a map of n objects costs O(n²), and the other walks (path
// lookups that copy the schema's attribute map per value, semantic
// equality, NullifyCollectionBlocks) cost far more per element than the
// value itself. dev/upstream.md has the reproduction and the fix proposed
// upstream.
//
// For a resource type and attribute named by a Carry, the server below
// takes the attribute's value out of every request before the framework
// sees it, leaves the framework a one-element placeholder of the same type
// (so that its schema, defaults, validators and equality tests still hold),
// and hands the real value to the resource through the request's context
// (CarriedValue). The resource gives back the value of its answer with
// SetCarriedValue; where it gives none, a placeholder the framework passed
// through is replaced by the value it stands for. Terraform never sees a
// placeholder, so state, plan rendering and schema are unchanged; a
// resource that reads its model without CarriedValue sees placeholders,
// which is why the provider reads and writes the attribute in one place.
//
// Null and wholly unknown values are not carried: the framework handles
// them as before, and CarriedValue says there is nothing.

// Carry names a top-level attribute of a resource type whose value crosses
// the framework out of band. The attribute must be a map.
type Carry struct {
	TypeName  string // e.g. "rms_list_contacts"
	Attribute string // e.g. "contacts"
}

// Role is which of a request's values a carried value comes from.
type Role int

const (
	// RoleConfig is the configuration (ValidateResourceConfig,
	// PlanResourceChange, ApplyResourceChange).
	RoleConfig Role = iota
	// RolePlan is the proposed new state of PlanResourceChange (what the
	// framework hands ModifyPlan as the plan) and the planned state of
	// ApplyResourceChange.
	RolePlan
	// RoleState is the prior state (PlanResourceChange,
	// ApplyResourceChange) or the current state (ReadResource).
	RoleState
	roles
)

// carriedKey is the context key of a request's *carried.
type carriedKey struct{}

// carried is what one request carries past the framework.
type carried struct {
	mu  sync.Mutex
	in  [roles]*tftypes.Value
	tok [roles]string // the placeholder token of each in value
	out *tftypes.Value
}

// CarriedValue is the real value of the carried attribute in the request's
// value of role, when the request carries one.
func CarriedValue(ctx context.Context, role Role) (tftypes.Value, bool) {
	c, _ := ctx.Value(carriedKey{}).(*carried)
	if c == nil || role < 0 || role >= roles {
		return tftypes.Value{}, false
	}
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.in[role] == nil {
		return tftypes.Value{}, false
	}
	return *c.in[role], true
}

// Carrying reports whether the request of ctx carries an attribute past the
// framework, so that SetCarriedValue would be heard.
func Carrying(ctx context.Context) bool {
	c, _ := ctx.Value(carriedKey{}).(*carried)
	return c != nil
}

// SetCarriedValue sets the carried attribute of the request's answer (the
// planned state of a plan, the new state of an apply or a read) to v,
// whatever the framework's answer holds there. It reports false when the
// request carries nothing (the framework's answer is then the one sent).
func SetCarriedValue(ctx context.Context, v tftypes.Value) bool {
	c, _ := ctx.Value(carriedKey{}).(*carried)
	if c == nil {
		return false
	}
	c.mu.Lock()
	defer c.mu.Unlock()
	c.out = &v
	return true
}

// placeholderPrefix starts the key of a placeholder's only element: a NUL
// no originalId or configuration key can start with (Terraform's own
// strings may, but no provider-written key does).
const placeholderPrefix = "\x00carried-past-the-framework:"

// carrier carries one attribute of one resource type; its types are taken
// from the provider's schema on first use.
type carrier struct {
	Carry
	once    sync.Once
	objType tftypes.Object
	attrTyp tftypes.Map
	err     error

	warnOnce sync.Once // of a schema it cannot carry
}

// load reads the resource's type from the framework's schema.
func (c *carrier) load(ctx context.Context, fw tfprotov6.ProviderServer) error {
	c.once.Do(func() {
		resp, err := fw.GetProviderSchema(ctx, &tfprotov6.GetProviderSchemaRequest{})
		if err != nil {
			c.err = err
			return
		}
		s := resp.ResourceSchemas[c.TypeName]
		if s == nil {
			c.err = fmt.Errorf("no resource type %q", c.TypeName)
			return
		}
		obj, ok := s.ValueType().(tftypes.Object)
		if !ok {
			c.err = fmt.Errorf("%s: schema type %s is not an object", c.TypeName, s.ValueType())
			return
		}
		m, ok := obj.AttributeTypes[c.Attribute].(tftypes.Map)
		if !ok {
			c.err = fmt.Errorf("%s.%s is not a map", c.TypeName, c.Attribute)
			return
		}
		c.objType, c.attrTyp = obj, m
	})
	return c.err
}

// placeholder is the one-element map the framework sees instead of a value
// whose token is tok: values of one request with the same token are equal.
func (c *carrier) placeholder(tok string) tftypes.Value {
	elem := nullObject(c.attrTyp.ElementType)
	return tftypes.NewValue(c.attrTyp, map[string]tftypes.Value{placeholderPrefix + tok: elem})
}

// nullObject is an object of t with every attribute null, or a null t when
// t is not an object: the framework's validators accept nulls.
func nullObject(t tftypes.Type) tftypes.Value {
	o, ok := t.(tftypes.Object)
	if !ok || len(o.OptionalAttributes) > 0 {
		return tftypes.NewValue(t, nil)
	}
	attrs := make(map[string]tftypes.Value, len(o.AttributeTypes))
	for name, at := range o.AttributeTypes {
		attrs[name] = tftypes.NewValue(at, nil)
	}
	return tftypes.NewValue(t, attrs)
}

// placeholderToken is the token of a placeholder, or false.
func placeholderToken(v tftypes.Value) (string, bool) {
	if !v.IsKnown() || v.IsNull() {
		return "", false
	}
	var m map[string]tftypes.Value
	if err := v.As(&m); err != nil || len(m) != 1 {
		return "", false
	}
	for k := range m {
		if tok, ok := strings.CutPrefix(k, placeholderPrefix); ok {
			return tok, true
		}
	}
	return "", false
}

// takeOut replaces the carried attribute of dv (one of the request's
// values, for role) by a placeholder and keeps the real value in cr. A
// null object, or a null or wholly unknown attribute, is left as it is.
func (c *carrier) takeOut(dv *tfprotov6.DynamicValue, role Role, cr *carried) (*tfprotov6.DynamicValue, error) {
	if dv == nil {
		return nil, nil
	}
	obj, attrs, err := c.decode(dv)
	if err != nil || attrs == nil {
		return dv, err
	}
	v := attrs[c.Attribute]
	if v.IsNull() || !v.IsKnown() {
		return dv, nil
	}
	tok := fmt.Sprint(int(role))
	for r := range roles { // equal values share a token, so the framework's equality tests hold
		if cr.in[r] != nil && cr.in[r].Equal(v) {
			tok = cr.tok[r]
			break
		}
	}
	cr.in[role], cr.tok[role] = &v, tok
	attrs[c.Attribute] = c.placeholder(tok)
	return c.encode(obj, attrs)
}

// putBack gives the answer's value dv its carried attribute: the value the
// resource set, else the real value of the placeholder the framework passed
// through.
func (c *carrier) putBack(dv *tfprotov6.DynamicValue, cr *carried) (*tfprotov6.DynamicValue, error) {
	if dv == nil {
		return nil, nil
	}
	obj, attrs, err := c.decode(dv)
	if err != nil || attrs == nil {
		return dv, err
	}
	cr.mu.Lock()
	defer cr.mu.Unlock()
	v := attrs[c.Attribute]
	switch tok, isPlaceholder := placeholderToken(v); {
	case cr.out != nil:
		v = *cr.out
	case isPlaceholder:
		found := false
		for r := range roles {
			if cr.in[r] != nil && cr.tok[r] == tok {
				v, found = *cr.in[r], true
				break
			}
		}
		if !found {
			// Never let a placeholder reach Terraform's state: answer
			// with the prior value (or none) and say why.
			v = tftypes.NewValue(c.attrTyp, nil)
			if cr.in[RoleState] != nil {
				v = *cr.in[RoleState]
			}
			attrs[c.Attribute] = v
			out, encErr := c.encode(obj, attrs)
			if encErr != nil {
				return dv, encErr
			}
			return out, fmt.Errorf("%s.%s: the answer holds a placeholder of no value of the request", c.TypeName, c.Attribute)
		}
	default:
		return dv, nil
	}
	attrs[c.Attribute] = v
	return c.encode(obj, attrs)
}

// decode unmarshals dv; attrs is nil for a null or unknown object.
func (c *carrier) decode(dv *tfprotov6.DynamicValue) (tftypes.Value, map[string]tftypes.Value, error) {
	obj, err := dv.Unmarshal(c.objType)
	if err != nil {
		return obj, nil, fmt.Errorf("%s: %w", c.TypeName, err)
	}
	if obj.IsNull() || !obj.IsKnown() {
		return obj, nil, nil
	}
	var attrs map[string]tftypes.Value
	if err := obj.As(&attrs); err != nil {
		return obj, nil, fmt.Errorf("%s: %w", c.TypeName, err)
	}
	return obj, attrs, nil
}

func (c *carrier) encode(obj tftypes.Value, attrs map[string]tftypes.Value) (*tfprotov6.DynamicValue, error) {
	dv, err := tfprotov6.NewDynamicValue(c.objType, tftypes.NewValue(obj.Type(), attrs))
	if err != nil {
		return nil, fmt.Errorf("%s: %w", c.TypeName, err)
	}
	return &dv, nil
}
