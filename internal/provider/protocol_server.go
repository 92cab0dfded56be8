package provider

import (
	"context"
	"sync"
	"time"

	"github.com/hashicorp/terraform-plugin-framework/providerserver"
	"github.com/hashicorp/terraform-plugin-go/tfprotov6"
)

// terraform-plugin-framework v1.19 keeps the context of every request it
// serves until Terraform calls StopProvider (internal/proto6server,
// registerContext appends each request's CancelFunc to a slice), and with
// it everything the context reaches: the gRPC stream, terraform-plugin-go's
// logger options, the request. A plan of 1,000 resources so grows the
// provider's live heap by some 60 MB, which the Go runtime must take from
// the system, zero and scan (BENCHMARKS.md). The server below hands the
// framework, for the requests Terraform makes once per resource (and for
// function calls), a context that forwards to the request's own until the
// request is answered and forgets it then: what the framework keeps is a
// few words per request. Streaming requests (list resources, actions) keep
// the framework's behaviour: their work goes on after the call returns.

// frameworkServer is what the framework's protocol 6 server implements;
// terraform-plugin-go finds the optional parts (list resources, actions,
// state stores) by type assertion, so the wrapper must keep them all.
type frameworkServer interface {
	tfprotov6.ProviderServerWithListResource
	tfprotov6.ProviderServerWithActions
	tfprotov6.ProviderServerWithStateStores
}

// NewProtocol6Server is providerserver.NewProtocol6 for this provider,
// with per-resource requests served on contexts the framework cannot keep
// alive. main.go serves it; acceptance tests use it too.
func NewProtocol6Server(version string) func() tfprotov6.ProviderServer {
	return func() tfprotov6.ProviderServer {
		fw := providerserver.NewProtocol6(New(version)())()
		if full, ok := fw.(frameworkServer); ok {
			return &protocolServer{frameworkServer: full}
		}
		return fw // a framework without the optional parts: serve it as it is
	}
}

// protocolServer is the framework's server; the requests Terraform makes
// for each resource instance get a requestContext.
type protocolServer struct {
	frameworkServer
}

func (s *protocolServer) ValidateResourceConfig(ctx context.Context, req *tfprotov6.ValidateResourceConfigRequest) (*tfprotov6.ValidateResourceConfigResponse, error) {
	rc := newRequestContext(ctx)
	defer rc.release()
	return s.frameworkServer.ValidateResourceConfig(rc, req)
}

func (s *protocolServer) UpgradeResourceState(ctx context.Context, req *tfprotov6.UpgradeResourceStateRequest) (*tfprotov6.UpgradeResourceStateResponse, error) {
	rc := newRequestContext(ctx)
	defer rc.release()
	return s.frameworkServer.UpgradeResourceState(rc, req)
}

func (s *protocolServer) ReadResource(ctx context.Context, req *tfprotov6.ReadResourceRequest) (*tfprotov6.ReadResourceResponse, error) {
	rc := newRequestContext(ctx)
	defer rc.release()
	return s.frameworkServer.ReadResource(rc, req)
}

func (s *protocolServer) PlanResourceChange(ctx context.Context, req *tfprotov6.PlanResourceChangeRequest) (*tfprotov6.PlanResourceChangeResponse, error) {
	rc := newRequestContext(ctx)
	defer rc.release()
	return s.frameworkServer.PlanResourceChange(rc, req)
}

func (s *protocolServer) ApplyResourceChange(ctx context.Context, req *tfprotov6.ApplyResourceChangeRequest) (*tfprotov6.ApplyResourceChangeResponse, error) {
	rc := newRequestContext(ctx)
	defer rc.release()
	return s.frameworkServer.ApplyResourceChange(rc, req)
}

func (s *protocolServer) ReadDataSource(ctx context.Context, req *tfprotov6.ReadDataSourceRequest) (*tfprotov6.ReadDataSourceResponse, error) {
	rc := newRequestContext(ctx)
	defer rc.release()
	return s.frameworkServer.ReadDataSource(rc, req)
}

func (s *protocolServer) ValidateDataResourceConfig(ctx context.Context, req *tfprotov6.ValidateDataResourceConfigRequest) (*tfprotov6.ValidateDataResourceConfigResponse, error) {
	rc := newRequestContext(ctx)
	defer rc.release()
	return s.frameworkServer.ValidateDataResourceConfig(rc, req)
}

func (s *protocolServer) ImportResourceState(ctx context.Context, req *tfprotov6.ImportResourceStateRequest) (*tfprotov6.ImportResourceStateResponse, error) {
	rc := newRequestContext(ctx)
	defer rc.release()
	return s.frameworkServer.ImportResourceState(rc, req)
}

func (s *protocolServer) MoveResourceState(ctx context.Context, req *tfprotov6.MoveResourceStateRequest) (*tfprotov6.MoveResourceStateResponse, error) {
	rc := newRequestContext(ctx)
	defer rc.release()
	return s.frameworkServer.MoveResourceState(rc, req)
}

func (s *protocolServer) UpgradeResourceIdentity(ctx context.Context, req *tfprotov6.UpgradeResourceIdentityRequest) (*tfprotov6.UpgradeResourceIdentityResponse, error) {
	rc := newRequestContext(ctx)
	defer rc.release()
	return s.frameworkServer.UpgradeResourceIdentity(rc, req)
}

func (s *protocolServer) CallFunction(ctx context.Context, req *tfprotov6.CallFunctionRequest) (*tfprotov6.CallFunctionResponse, error) {
	rc := newRequestContext(ctx)
	defer rc.release()
	return s.frameworkServer.CallFunction(rc, req)
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
