package provider

import (
	"context"
	"errors"
	"runtime"
	"testing"
	"weak"

	"github.com/hashicorp/terraform-plugin-framework/providerserver"
	"github.com/hashicorp/terraform-plugin-go/tfprotov6"
)

// TestProtocolServer_keepsOptionalParts: terraform-plugin-go finds list
// resources, actions and state stores by type assertion, so the wrapper
// must still offer them.
func TestProtocolServer_keepsOptionalParts(t *testing.T) {
	s := NewProtocol6Server("test")()
	if _, ok := s.(*protocolServer); !ok {
		t.Fatalf("the framework's server is served unwrapped (%T)", s)
	}
	if _, ok := s.(tfprotov6.ProviderServerWithListResource); !ok {
		t.Error("list resources lost")
	}
	if _, ok := s.(tfprotov6.ProviderServerWithActions); !ok {
		t.Error("actions lost")
	}
	if _, ok := s.(tfprotov6.ProviderServerWithStateStores); !ok {
		t.Error("state stores lost")
	}
}

type testContextKey struct{}

// TestRequestContext: until release it is the request's context; after
// it, a canceled context with no values, also seen through a context the
// framework derived from it.
func TestRequestContext(t *testing.T) {
	parent, cancel := context.WithCancel(context.WithValue(context.Background(), testContextKey{}, "v"))
	defer cancel()
	rc := newRequestContext(parent)
	child, childCancel := context.WithCancel(rc)
	defer childCancel()
	if got := child.Value(testContextKey{}); got != "v" {
		t.Errorf("value before release: %v", got)
	}
	if rc.Err() != nil || child.Err() != nil {
		t.Errorf("done before release: %v, %v", rc.Err(), child.Err())
	}
	rc.release()
	if got := child.Value(testContextKey{}); got != nil {
		t.Errorf("value after release: %v", got)
	}
	if !errors.Is(rc.Err(), context.Canceled) {
		t.Errorf("Err after release: %v", rc.Err())
	}
	select {
	case <-rc.Done():
	default:
		t.Error("Done is open after release")
	}
	// Canceling the request cancels what the framework derived from it.
	parent2, cancel2 := context.WithCancel(context.Background())
	child2, childCancel2 := context.WithCancel(newRequestContext(parent2))
	defer childCancel2()
	cancel2()
	<-child2.Done()
}

// TestProtocolServer_forgetsRequests: the framework (v1.19) keeps every
// request's context until StopProvider; through the wrapper, what a
// request's context holds is collectable once the request is answered.
func TestProtocolServer_forgetsRequests(t *testing.T) {
	retained := func(s tfprotov6.ProviderServer) bool {
		big := new([1 << 16]byte)
		w := weak.Make(big)
		ctx := context.WithValue(context.Background(), testContextKey{}, big)
		_, err := s.ValidateResourceConfig(ctx, &tfprotov6.ValidateResourceConfigRequest{TypeName: "rms_project"})
		if err != nil {
			t.Fatal(err)
		}
		ctx, big = nil, nil //nolint:ineffassign,wastedassign // drop the test's own references
		_, _ = ctx, big
		runtime.GC()
		runtime.GC()
		kept := w.Value() != nil
		runtime.KeepAlive(s) // the server lives on, as it does in the plugin
		return kept
	}
	if retained(NewProtocol6Server("test")()) {
		t.Error("the wrapped server keeps a request's context after answering it")
	}
	if !retained(providerserver.NewProtocol6(New("test")())()) {
		t.Log("the framework no longer keeps request contexts: protocol_server.go may be removed")
	}
}
