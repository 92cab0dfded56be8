package protocol

import (
	"context"
	"strings"
	"testing"

	"github.com/hashicorp/terraform-plugin-go/tfprotov6"
	"github.com/hashicorp/terraform-plugin-go/tftypes"
)

func carryDV(t *testing.T, v tftypes.Value) *tfprotov6.DynamicValue {
	t.Helper()
	dv, err := tfprotov6.NewDynamicValue(carryThingTF, v)
	if err != nil {
		t.Fatal(err)
	}
	return &dv
}

// carryAttrs decodes an answer's object into its attributes (nil for null).
func carryAttrs(t *testing.T, dv *tfprotov6.DynamicValue) map[string]tftypes.Value {
	t.Helper()
	if dv == nil {
		t.Fatal("no value in the answer")
	}
	v, err := dv.Unmarshal(carryThingTF)
	if err != nil {
		t.Fatal(err)
	}
	if v.IsNull() {
		return nil
	}
	var attrs map[string]tftypes.Value
	if err := v.As(&attrs); err != nil {
		t.Fatal(err)
	}
	if tok, ok := placeholderToken(attrs["items"]); ok {
		t.Fatalf("the answer holds a placeholder (token %q): it must never reach Terraform", tok)
	}
	return attrs
}

func noErrors(t *testing.T, diags []*tfprotov6.Diagnostic) {
	t.Helper()
	for _, d := range diags {
		if d.Severity == tfprotov6.DiagnosticSeverityError {
			t.Fatalf("error: %s: %s", d.Summary, d.Detail)
		}
	}
}

// sawPlaceholder says whether the framework handed the resource a
// placeholder rather than the map.
func sawPlaceholder(seen *carrySeen) bool {
	seen.mu.Lock()
	defer seen.mu.Unlock()
	if seen.framework.IsNull() || seen.framework.IsUnknown() {
		return false
	}
	els := seen.framework.Elements()
	for k := range els {
		return len(els) == 1 && strings.HasPrefix(k, placeholderPrefix)
	}
	return false
}

func TestCarry_plan(t *testing.T) {
	null := tftypes.NewValue(carryItemsTF, nil)
	unknown := tftypes.NewValue(carryItemsTF, tftypes.UnknownValue)
	one, two := carryItems("a=1"), carryItems("a=1", "b=2")
	cases := []struct {
		name            string
		prior, proposed tftypes.Value // objects; a null object is a create or a destroy
		wantItems       tftypes.Value // planned items
		wantSize        any           // planned size: a number, "?" for unknown
		wantCarried     []Role
		wantPlaceholder bool
	}{
		{name: "changed map", prior: carryObject(one, 1), proposed: carryObject(two, 1), wantItems: two, wantSize: "?",
			wantCarried: []Role{RoleConfig, RolePlan, RoleState}, wantPlaceholder: true},
		{name: "unchanged map keeps the computed size", prior: carryObject(two, 2), proposed: carryObject(two, 2), wantItems: two, wantSize: 2,
			wantCarried: []Role{RoleConfig, RolePlan, RoleState}, wantPlaceholder: true},
		{name: "create", prior: tftypes.NewValue(carryThingTF, nil), proposed: carryObject(two, nil), wantItems: two, wantSize: "?",
			wantCarried: []Role{RoleConfig, RolePlan}, wantPlaceholder: true},
		{name: "null map is not carried", prior: carryObject(null, 0), proposed: carryObject(null, 0), wantItems: null, wantSize: 0},
		{name: "unknown map is not carried", prior: carryObject(one, 1), proposed: carryObject(unknown, 1), wantItems: unknown, wantSize: "?",
			wantCarried: []Role{RoleState}},
		{name: "partly unknown map", prior: carryObject(one, 1), proposed: carryObject(carryItems("a=?"), 1), wantItems: carryItems("a=?"), wantSize: "?",
			wantCarried: []Role{RoleConfig, RolePlan, RoleState}, wantPlaceholder: true},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			seen := &carrySeen{}
			s := carryServer(seen)
			config := c.proposed
			if !config.IsNull() { // the config has no computed value
				var attrs map[string]tftypes.Value
				_ = config.As(&attrs)
				config = carryObject(attrs["items"], nil) // As shares the map: build anew
			}
			resp, err := s.PlanResourceChange(context.Background(), &tfprotov6.PlanResourceChangeRequest{
				TypeName: "carry_thing", PriorState: carryDV(t, c.prior), ProposedNewState: carryDV(t, c.proposed), Config: carryDV(t, config),
			})
			if err != nil {
				t.Fatal(err)
			}
			noErrors(t, resp.Diagnostics)
			attrs := carryAttrs(t, resp.PlannedState)
			if !attrs["items"].Equal(c.wantItems) {
				t.Errorf("planned items = %s, want %s", attrs["items"], c.wantItems)
			}
			wantSize := carryObject(null, c.wantSize)
			var wantAttrs map[string]tftypes.Value
			_ = wantSize.As(&wantAttrs)
			if !attrs["size"].Equal(wantAttrs["size"]) {
				t.Errorf("planned size = %s, want %s (the framework's equality of prior and proposed must follow the real maps)", attrs["size"], wantAttrs["size"])
			}
			if got := sawPlaceholder(seen); got != c.wantPlaceholder {
				t.Errorf("framework handed the resource a placeholder: %v, want %v", got, c.wantPlaceholder)
			}
			seen.mu.Lock()
			defer seen.mu.Unlock()
			if len(seen.carried) != len(c.wantCarried) {
				t.Errorf("carried %d roles, want %v", len(seen.carried), c.wantCarried)
			}
			for _, r := range c.wantCarried {
				if _, ok := seen.carried[r]; !ok {
					t.Errorf("role %d not carried", r)
				}
			}
			if v, ok := seen.carried[RolePlan]; ok && !v.Equal(c.wantItems) {
				t.Errorf("CarriedValue(RolePlan) = %s, want %s", v, c.wantItems)
			}
		})
	}
}

func TestCarry_destroyPlanStaysNull(t *testing.T) {
	s := carryServer(&carrySeen{})
	resp, err := s.PlanResourceChange(context.Background(), &tfprotov6.PlanResourceChangeRequest{
		TypeName: "carry_thing", PriorState: carryDV(t, carryObject(carryItems("a=1"), 1)),
		ProposedNewState: carryDV(t, tftypes.NewValue(carryThingTF, nil)), Config: carryDV(t, tftypes.NewValue(carryThingTF, nil)),
	})
	if err != nil {
		t.Fatal(err)
	}
	noErrors(t, resp.Diagnostics)
	if attrs := carryAttrs(t, resp.PlannedState); attrs != nil {
		t.Errorf("destroy planned %v, want null", attrs)
	}
}

func TestCarry_read(t *testing.T) {
	current := carryItems("a=1", "b=2")
	set := carryItems("a=1")
	cases := []struct {
		name    string
		readOut *tftypes.Value
		want    tftypes.Value
	}{
		{name: "the state read back as it was", want: current},
		{name: "the value the resource set", readOut: &set, want: set},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			seen := &carrySeen{readOut: c.readOut}
			s := carryServer(seen)
			resp, err := s.ReadResource(context.Background(), &tfprotov6.ReadResourceRequest{TypeName: "carry_thing", CurrentState: carryDV(t, carryObject(current, 2))})
			if err != nil {
				t.Fatal(err)
			}
			noErrors(t, resp.Diagnostics)
			if got := carryAttrs(t, resp.NewState)["items"]; !got.Equal(c.want) {
				t.Errorf("new state items = %s, want %s", got, c.want)
			}
			if !sawPlaceholder(seen) {
				t.Error("the framework handed Read the real map; it must see a placeholder")
			}
			if v, ok := seen.carried[RoleState]; !ok || !v.Equal(current) {
				t.Errorf("CarriedValue(RoleState) = %s, %v; want the current items", v, ok)
			}
		})
	}
}

func TestCarry_validate(t *testing.T) {
	seen := &carrySeen{}
	s := carryServer(seen)
	config := carryObject(carryItems("a=1"), nil)
	resp, err := s.ValidateResourceConfig(context.Background(), &tfprotov6.ValidateResourceConfigRequest{TypeName: "carry_thing", Config: carryDV(t, config)})
	if err != nil {
		t.Fatal(err)
	}
	noErrors(t, resp.Diagnostics)
}

func TestCarry_otherTypesAndNoContext(t *testing.T) {
	if Carrying(context.Background()) {
		t.Error("a context without a carried request says it carries")
	}
	if _, ok := CarriedValue(context.Background(), RolePlan); ok {
		t.Error("CarriedValue found a value in a context without one")
	}
	if SetCarriedValue(context.Background(), tftypes.NewValue(carryItemsTF, nil)) {
		t.Error("SetCarriedValue reported it was heard without a carried request")
	}
}

func TestCarry_placeholderTokens(t *testing.T) {
	c := &carrier{attrTyp: carryItemsTF}
	for _, tok := range []string{"0", "1", "2"} {
		got, ok := placeholderToken(c.placeholder(tok))
		if !ok || got != tok {
			t.Errorf("placeholderToken(placeholder(%q)) = %q, %v", tok, got, ok)
		}
	}
	for name, v := range map[string]tftypes.Value{
		"null":      tftypes.NewValue(carryItemsTF, nil),
		"unknown":   tftypes.NewValue(carryItemsTF, tftypes.UnknownValue),
		"real":      carryItems("a=1"),
		"two items": carryItems("\x00carried-past-the-framework:0=1", "b=2"),
	} {
		if tok, ok := placeholderToken(v); ok {
			t.Errorf("%s: taken for a placeholder (token %q)", name, tok)
		}
	}
}
