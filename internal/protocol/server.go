package protocol

import (
	"context"
	"log"
	"sync"
	"time"

	"github.com/hashicorp/terraform-plugin-go/tfprotov6"
)

// The framework keeps every request's context until StopProvider, and with
// it everything the context reaches: the gRPC stream, terraform-plugin-go's
// logger options, the request (see the package doc). The server below hands
// the framework, for the requests Terraform makes once per resource,
// ephemeral resource, list or action block (and for function calls), a
// context that forwards to the request's own until the request is answered
// and forgets it then: what the framework keeps is a few words per request.
// Streaming requests (list resources, action invocation, state bytes) and
// the once-per-run requests keep the framework's behaviour; the tests hold
// the two lists.

// framework is what the framework's protocol 6 server implements;
// terraform-plugin-go finds the optional parts (list resources, actions,
// state stores) by type assertion, so the wrapper must keep them all. They
// are deprecated only in favour of ProviderServer itself growing the
// methods, which has not happened yet.
type framework interface {
	tfprotov6.ProviderServerWithListResource //nolint:staticcheck // still how tf6server finds list resources
	tfprotov6.ProviderServerWithActions      //nolint:staticcheck // still how tf6server finds actions
	tfprotov6.ProviderServerWithStateStores  //nolint:staticcheck // still how tf6server finds state stores
}

// logf reports a server that cannot be wrapped; a variable so a test can
// see the report.
var logf = log.Printf

// Wrap returns fw, the server providerserver.NewProtocol6 made, with
// per-request contexts released after each answer. A server without the
// framework's optional parts cannot be wrapped without hiding them from
// terraform-plugin-go; it is then served as it is, with an error in the
// provider's log (a test holds that this framework version never gets
// there). Each Carry names an attribute whose value crosses the framework
// out of band (carry.go).
func Wrap(fw tfprotov6.ProviderServer, carries ...Carry) tfprotov6.ProviderServer {
	full, ok := fw.(framework)
	if !ok {
		logf("[ERROR] internal/protocol: %T lacks the framework's optional interfaces; serving it unwrapped, so every request context is kept until StopProvider", fw)
		return fw
	}
	s := &server{framework: full, carriers: map[string]*carrier{}}
	for _, c := range carries {
		s.carriers[c.TypeName] = &carrier{Carry: c}
	}
	return s
}

// server is the framework's server; the unary requests Terraform makes
// for each resource instance, data source, ephemeral resource, function
// call, list or action block get a requestContext. The methods it does not
// define are the framework's own (promoted from the embedded interface).
type server struct {
	framework
	carriers map[string]*carrier // by resource type (carry.go)
}

// released calls the framework on a requestContext of ctx and releases it
// once the framework has answered.
func released[Req, Resp any](ctx context.Context, req Req, call func(context.Context, Req) (Resp, error)) (Resp, error) {
	rc := newRequestContext(ctx)
	defer rc.release()
	return call(rc, req)
}

func (s *server) ValidateResourceConfig(ctx context.Context, req *tfprotov6.ValidateResourceConfigRequest) (*tfprotov6.ValidateResourceConfigResponse, error) {
	return carriedCall(ctx, s, req, s.framework.ValidateResourceConfig)
}

func (s *server) UpgradeResourceState(ctx context.Context, req *tfprotov6.UpgradeResourceStateRequest) (*tfprotov6.UpgradeResourceStateResponse, error) {
	return released(ctx, req, s.framework.UpgradeResourceState)
}

func (s *server) ReadResource(ctx context.Context, req *tfprotov6.ReadResourceRequest) (*tfprotov6.ReadResourceResponse, error) {
	return carriedCall(ctx, s, req, s.framework.ReadResource)
}

func (s *server) PlanResourceChange(ctx context.Context, req *tfprotov6.PlanResourceChangeRequest) (*tfprotov6.PlanResourceChangeResponse, error) {
	return carriedCall(ctx, s, req, s.framework.PlanResourceChange)
}

func (s *server) ApplyResourceChange(ctx context.Context, req *tfprotov6.ApplyResourceChangeRequest) (*tfprotov6.ApplyResourceChangeResponse, error) {
	return carriedCall(ctx, s, req, s.framework.ApplyResourceChange)
}

func (s *server) ImportResourceState(ctx context.Context, req *tfprotov6.ImportResourceStateRequest) (*tfprotov6.ImportResourceStateResponse, error) {
	return released(ctx, req, s.framework.ImportResourceState)
}

func (s *server) MoveResourceState(ctx context.Context, req *tfprotov6.MoveResourceStateRequest) (*tfprotov6.MoveResourceStateResponse, error) {
	return released(ctx, req, s.framework.MoveResourceState)
}

func (s *server) UpgradeResourceIdentity(ctx context.Context, req *tfprotov6.UpgradeResourceIdentityRequest) (*tfprotov6.UpgradeResourceIdentityResponse, error) {
	return released(ctx, req, s.framework.UpgradeResourceIdentity)
}

func (s *server) GenerateResourceConfig(ctx context.Context, req *tfprotov6.GenerateResourceConfigRequest) (*tfprotov6.GenerateResourceConfigResponse, error) {
	return released(ctx, req, s.framework.GenerateResourceConfig)
}

func (s *server) ValidateDataResourceConfig(ctx context.Context, req *tfprotov6.ValidateDataResourceConfigRequest) (*tfprotov6.ValidateDataResourceConfigResponse, error) {
	return released(ctx, req, s.framework.ValidateDataResourceConfig)
}

func (s *server) ReadDataSource(ctx context.Context, req *tfprotov6.ReadDataSourceRequest) (*tfprotov6.ReadDataSourceResponse, error) {
	return released(ctx, req, s.framework.ReadDataSource)
}

func (s *server) ValidateEphemeralResourceConfig(ctx context.Context, req *tfprotov6.ValidateEphemeralResourceConfigRequest) (*tfprotov6.ValidateEphemeralResourceConfigResponse, error) {
	return released(ctx, req, s.framework.ValidateEphemeralResourceConfig)
}

func (s *server) OpenEphemeralResource(ctx context.Context, req *tfprotov6.OpenEphemeralResourceRequest) (*tfprotov6.OpenEphemeralResourceResponse, error) {
	return released(ctx, req, s.framework.OpenEphemeralResource)
}

func (s *server) RenewEphemeralResource(ctx context.Context, req *tfprotov6.RenewEphemeralResourceRequest) (*tfprotov6.RenewEphemeralResourceResponse, error) {
	return released(ctx, req, s.framework.RenewEphemeralResource)
}

func (s *server) CloseEphemeralResource(ctx context.Context, req *tfprotov6.CloseEphemeralResourceRequest) (*tfprotov6.CloseEphemeralResourceResponse, error) {
	return released(ctx, req, s.framework.CloseEphemeralResource)
}

func (s *server) CallFunction(ctx context.Context, req *tfprotov6.CallFunctionRequest) (*tfprotov6.CallFunctionResponse, error) {
	return released(ctx, req, s.framework.CallFunction)
}

func (s *server) ValidateListResourceConfig(ctx context.Context, req *tfprotov6.ValidateListResourceConfigRequest) (*tfprotov6.ValidateListResourceConfigResponse, error) {
	return released(ctx, req, s.framework.ValidateListResourceConfig)
}

func (s *server) ValidateActionConfig(ctx context.Context, req *tfprotov6.ValidateActionConfigRequest) (*tfprotov6.ValidateActionConfigResponse, error) {
	return released(ctx, req, s.framework.ValidateActionConfig)
}

func (s *server) PlanAction(ctx context.Context, req *tfprotov6.PlanActionRequest) (*tfprotov6.PlanActionResponse, error) {
	return released(ctx, req, s.framework.PlanAction)
}

// requestContext is the context of one request until release, and after it
// a context that is done (canceled) and holds no values: nothing of the
// request stays reachable through it. Only unary requests use it, whose
// work ends when they answer.
type requestContext struct {
	mu     sync.RWMutex
	parent context.Context // nil once released
}

func newRequestContext(parent context.Context) *requestContext {
	return &requestContext{parent: parent}
}

// releasedDone is the Done channel of a released requestContext.
var releasedDone = func() chan struct{} { c := make(chan struct{}); close(c); return c }()

func (c *requestContext) release() {
	c.mu.Lock()
	c.parent = nil
	c.mu.Unlock()
}

func (c *requestContext) get() context.Context {
	c.mu.RLock()
	defer c.mu.RUnlock()
	return c.parent
}

func (c *requestContext) Deadline() (time.Time, bool) {
	if p := c.get(); p != nil {
		return p.Deadline()
	}
	return time.Time{}, false
}

func (c *requestContext) Done() <-chan struct{} {
	if p := c.get(); p != nil {
		return p.Done()
	}
	return releasedDone
}

func (c *requestContext) Err() error {
	if p := c.get(); p != nil {
		return p.Err()
	}
	return context.Canceled
}

func (c *requestContext) Value(key any) any {
	if p := c.get(); p != nil {
		return p.Value(key)
	}
	return nil
}
