package protocol

import (
	"context"

	"github.com/hashicorp/terraform-plugin-go/tfprotov6"
)

// carriedCall serves one of the four requests that carry a resource's
// values (validate, read, plan, apply): for a type with a carrier, the
// carried attribute is taken out of the request's values before call and
// put back into its answer (carry.go); other types go to call as they are.
// A request the carrier cannot take apart goes to the framework whole,
// which is slower but the same.
func carriedCall[Req, Resp any](ctx context.Context, s *server, req Req, call func(context.Context, Req) (Resp, error)) (Resp, error) {
	c := s.carriers[resourceTypeOf(req)]
	if c == nil {
		return released(ctx, req, call)
	}
	if err := c.load(ctx, s.framework); err != nil {
		c.warnOnce.Do(func() {
			logf("[WARN] internal/protocol: not carrying %s.%s past the framework: %v", c.TypeName, c.Attribute, err)
		})
		return released(ctx, req, call)
	}
	cr := &carried{}
	out, err := takeOutOf(c, req, cr)
	if err != nil {
		logf("[WARN] internal/protocol: %s.%s goes through the framework: %v", c.TypeName, c.Attribute, err)
		return released(ctx, req, call)
	}
	resp, err := released(context.WithValue(ctx, carriedKey{}, cr), out, call)
	if err != nil {
		return resp, err
	}
	putBackInto(c, resp, cr)
	return resp, nil
}

// resourceTypeOf is the resource type a request is about, or "".
func resourceTypeOf(req any) string {
	switch r := req.(type) {
	case *tfprotov6.ValidateResourceConfigRequest:
		return r.TypeName
	case *tfprotov6.ReadResourceRequest:
		return r.TypeName
	case *tfprotov6.PlanResourceChangeRequest:
		return r.TypeName
	case *tfprotov6.ApplyResourceChangeRequest:
		return r.TypeName
	}
	return ""
}

// takeOutOf is a copy of req whose values hold placeholders, the real
// values kept in cr. The prior or current state goes first, so that the
// values equal to it share its token.
func takeOutOf[Req any](c *carrier, req Req, cr *carried) (Req, error) {
	var err error
	take := func(dv *tfprotov6.DynamicValue, role Role) *tfprotov6.DynamicValue {
		if err != nil {
			return dv
		}
		var out *tfprotov6.DynamicValue
		out, err = c.takeOut(dv, role, cr)
		return out
	}
	var out any
	switch r := any(req).(type) {
	case *tfprotov6.ValidateResourceConfigRequest:
		cp := *r
		cp.Config = take(r.Config, RoleConfig)
		out = &cp
	case *tfprotov6.ReadResourceRequest:
		cp := *r
		cp.CurrentState = take(r.CurrentState, RoleState)
		out = &cp
	case *tfprotov6.PlanResourceChangeRequest:
		cp := *r
		cp.PriorState = take(r.PriorState, RoleState)
		cp.ProposedNewState = take(r.ProposedNewState, RolePlan)
		cp.Config = take(r.Config, RoleConfig)
		out = &cp
	case *tfprotov6.ApplyResourceChangeRequest:
		cp := *r
		cp.PriorState = take(r.PriorState, RoleState)
		cp.PlannedState = take(r.PlannedState, RolePlan)
		cp.Config = take(r.Config, RoleConfig)
		out = &cp
	default:
		return req, nil
	}
	if err != nil {
		return req, err
	}
	return out.(Req), nil
}

// putBackInto gives the answer's state its carried attribute; a failure is
// an error diagnostic of the answer.
func putBackInto(c *carrier, resp any, cr *carried) {
	var state **tfprotov6.DynamicValue
	var diags *[]*tfprotov6.Diagnostic
	switch r := resp.(type) {
	case *tfprotov6.ReadResourceResponse:
		if r != nil {
			state, diags = &r.NewState, &r.Diagnostics
		}
	case *tfprotov6.PlanResourceChangeResponse:
		if r != nil {
			state, diags = &r.PlannedState, &r.Diagnostics
		}
	case *tfprotov6.ApplyResourceChangeResponse:
		if r != nil {
			state, diags = &r.NewState, &r.Diagnostics
		}
	}
	if state == nil {
		return
	}
	dv, err := c.putBack(*state, cr)
	*state = dv
	if err != nil {
		*diags = append(*diags, &tfprotov6.Diagnostic{
			Severity: tfprotov6.DiagnosticSeverityError,
			Summary:  "Provider error: " + c.TypeName + "." + c.Attribute,
			Detail:   "The provider could not give its answer the value of " + c.Attribute + " (" + err.Error() + "). This is a bug in the provider; please report it.",
		})
	}
}
