package protocol

import (
	"context"
	"errors"
	"fmt"
	"go/ast"
	"go/build"
	"go/parser"
	"go/token"
	"os"
	"path/filepath"
	"reflect"
	"runtime"
	"slices"
	"strings"
	"testing"
	"weak"

	"github.com/hashicorp/terraform-plugin-go/tfprotov6"
)

// releasedRPCs are the unary requests Terraform makes once per resource
// instance, data source, ephemeral resource, function call, list block or
// action block: their number grows with the configuration, and their work
// ends when they answer, so the wrapper releases their contexts.
var releasedRPCs = []string{
	// managed resources
	"ValidateResourceConfig",
	"UpgradeResourceState",
	"ReadResource",
	"PlanResourceChange",
	"ApplyResourceChange",
	"ImportResourceState",
	"MoveResourceState",
	"UpgradeResourceIdentity",
	"GenerateResourceConfig", // terraform query -generate-config-out, per result
	// data sources
	"ValidateDataResourceConfig",
	"ReadDataSource",
	// ephemeral resources: Open, Renew and Close are separate requests;
	// nothing of an open one lives on the request's context.
	"ValidateEphemeralResourceConfig",
	"OpenEphemeralResource",
	"RenewEphemeralResource",
	"CloseEphemeralResource",
	// functions
	"CallFunction",
	// the unary halves of list resources and actions
	"ValidateListResourceConfig",
	"ValidateActionConfig",
	"PlanAction",
}

// passThroughRPCs reach the framework with the request's own context, on
// purpose.
var passThroughRPCs = []string{
	// Streaming: the framework yields results from an iterator after the
	// call has returned, on the context it was given; releasing it at
	// return would cancel the stream.
	"ListResource",
	"InvokeAction",
	"ReadStateBytes",
	"WriteStateBytes",
	// StopProvider is how the framework cancels what it kept: it must see
	// the call as it is.
	"StopProvider",
	// Once per run (or per provider block): a handful of contexts, and
	// ConfigureProvider's may be kept by what the provider configures.
	"GetMetadata",
	"GetProviderSchema",
	"GetResourceIdentitySchemas",
	"GetFunctions",
	"ValidateProviderConfig",
	"ConfigureProvider",
	// State stores: a few calls per run, and this provider has none.
	"ValidateStateStoreConfig",
	"ConfigureStateStore",
	"GetStates",
	"DeleteState",
	"LockState",
	"UnlockState",
}

// TestWrap_wrapsThisFramework: with the framework version in go.mod the
// wrapper is always used; Wrap's fallback is for a framework that lost an
// optional interface, and must never be taken silently.
func TestWrap_wrapsThisFramework(t *testing.T) {
	var logged []string
	defer func(old func(string, ...any)) { logf = old }(logf)
	logf = func(format string, args ...any) { logged = append(logged, fmt.Sprintf(format, args...)) }

	s := Wrap(newFramework())
	if _, ok := s.(*server); !ok {
		t.Fatalf("the framework's server (%T) is served unwrapped: it no longer implements every optional interface the wrapper forwards; update internal/protocol", s)
	}
	if len(logged) > 0 {
		t.Errorf("Wrap logged: %q", logged)
	}
}

// TestWrap_fallbackIsLoud: a server the wrapper cannot forward for is
// served as it is, with an error in the log naming the consequence.
func TestWrap_fallbackIsLoud(t *testing.T) {
	var logged []string
	defer func(old func(string, ...any)) { logf = old }(logf)
	logf = func(format string, args ...any) { logged = append(logged, fmt.Sprintf(format, args...)) }

	type bare struct{ tfprotov6.ProviderServer }
	in := bare{}
	if got := Wrap(in); got != tfprotov6.ProviderServer(in) {
		t.Errorf("Wrap(bare) = %T, want the bare server back", got)
	}
	if len(logged) != 1 || !strings.Contains(logged[0], "[ERROR]") || !strings.Contains(logged[0], "unwrapped") {
		t.Errorf("fallback log = %q, want one [ERROR] line saying the server is unwrapped", logged)
	}
}

// TestServer_forwardsEveryMethod: every exported method of the framework's
// server exists on the wrapper with the same signature, and is either
// released or passed through on purpose, so a method or RPC the framework
// gains fails here instead of being hidden or going unwrapped. Released
// methods must be the wrapper's own, not promoted from the framework.
func TestServer_forwardsEveryMethod(t *testing.T) {
	fwType := reflect.TypeOf(newFramework())
	wrapType := reflect.TypeFor[*server]()
	listed := map[string]string{}
	for _, name := range releasedRPCs {
		listed[name] = "released"
	}
	for _, name := range passThroughRPCs {
		if _, dup := listed[name]; dup {
			t.Errorf("%s is both released and passed through", name)
		}
		listed[name] = "pass-through"
	}

	for i := range fwType.NumMethod() {
		fm := fwType.Method(i)
		wm, ok := wrapType.MethodByName(fm.Name)
		if !ok {
			t.Errorf("the framework's server (%v) has %s, the wrapper has not: terraform-plugin-go would not see it; forward it in internal/protocol", fwType, fm.Name)
			continue
		}
		if !sameSignature(fm.Type, wm.Type) {
			t.Errorf("%s: framework %v, wrapper %v", fm.Name, fm.Type, wm.Type)
		}
		kind, ok := listed[fm.Name]
		if !ok {
			t.Errorf("the framework's server has a new method %s: add it to releasedRPCs (and wrap it in server.go) if Terraform calls it per resource and it answers in one response, else to passThroughRPCs with the reason", fm.Name)
			continue
		}
		delete(listed, fm.Name)
		if kind == "released" && promoted(wm) {
			t.Errorf("%s is listed as released but the wrapper does not define it: add it to server.go", fm.Name)
		}
	}
	for name := range listed {
		t.Errorf("%s is listed in the tests but the framework's server has no such method: remove it", name)
	}
}

// sameSignature compares two method types without their receivers.
func sameSignature(a, b reflect.Type) bool {
	if a.NumIn() != b.NumIn() || a.NumOut() != b.NumOut() {
		return false
	}
	for i := 1; i < a.NumIn(); i++ {
		if a.In(i) != b.In(i) {
			return false
		}
	}
	for i := range a.NumOut() {
		if a.Out(i) != b.Out(i) {
			return false
		}
	}
	return true
}

// promoted reports whether m is a method the compiler generated for an
// embedded field rather than one written in this package.
func promoted(m reflect.Method) bool {
	fn := runtime.FuncForPC(m.Func.Pointer())
	if fn == nil {
		return true
	}
	file, _ := fn.FileLine(fn.Entry())
	return !strings.HasSuffix(file, "/internal/protocol/server.go")
}

// optionalInterfaces are terraform-plugin-go's optional server interfaces
// (found by type assertion in tf6server) that the tests know; deprecated
// in favour of ProviderServer growing their methods, not yet done.
//
//nolint:staticcheck // the deprecated interfaces are the subject of the test
var optionalInterfaces = map[string]reflect.Type{
	"ProviderServerWithListResource": reflect.TypeFor[tfprotov6.ProviderServerWithListResource](),
	"ProviderServerWithActions":      reflect.TypeFor[tfprotov6.ProviderServerWithActions](),
	"ProviderServerWithStateStores":  reflect.TypeFor[tfprotov6.ProviderServerWithStateStores](),
}

// TestServer_keepsOptionalInterfaces: every ProviderServerWith* interface
// declared in tfprotov6 is known here, and the wrapper satisfies each one
// the framework's server satisfies (terraform-plugin-go would otherwise
// answer those RPCs as unimplemented).
func TestServer_keepsOptionalInterfaces(t *testing.T) {
	declared := optionalInterfaceNames(t)
	for _, name := range declared {
		if _, ok := optionalInterfaces[name]; !ok {
			t.Errorf("tfprotov6 declares a new optional interface %s: add it to optionalInterfaces, and to the framework interface in server.go if the framework implements it", name)
		}
	}
	fw := reflect.TypeOf(newFramework())
	wrapped := reflect.TypeOf(Wrap(newFramework()))
	for name, iface := range optionalInterfaces {
		if !slices.Contains(declared, name) {
			t.Errorf("tfprotov6 no longer declares %s: remove it from optionalInterfaces", name)
		}
		if fw.Implements(iface) && !wrapped.Implements(iface) {
			t.Errorf("the framework's server implements %s, the wrapper does not", name)
		}
	}
}

// optionalInterfaceNames reads tfprotov6's source (from the module cache)
// for the names of the ProviderServerWith* interfaces: reflection cannot
// list a package's types.
func optionalInterfaceNames(t *testing.T) []string {
	t.Helper()
	pkg, err := build.Default.Import("github.com/hashicorp/terraform-plugin-go/tfprotov6", ".", build.FindOnly)
	if err != nil {
		t.Fatalf("locating tfprotov6: %v", err)
	}
	entries, err := os.ReadDir(pkg.Dir)
	if err != nil {
		t.Fatal(err)
	}
	fset := token.NewFileSet()
	var names []string
	for _, e := range entries {
		if !strings.HasSuffix(e.Name(), ".go") || strings.HasSuffix(e.Name(), "_test.go") {
			continue
		}
		f, err := parser.ParseFile(fset, filepath.Join(pkg.Dir, e.Name()), nil, parser.SkipObjectResolution)
		if err != nil {
			t.Fatalf("parsing tfprotov6: %v", err)
		}
		for _, d := range f.Decls {
			gd, ok := d.(*ast.GenDecl)
			if !ok || gd.Tok != token.TYPE {
				continue
			}
			for _, spec := range gd.Specs {
				ts := spec.(*ast.TypeSpec)
				if _, isIface := ts.Type.(*ast.InterfaceType); isIface && strings.HasPrefix(ts.Name.Name, "ProviderServerWith") {
					names = append(names, ts.Name.Name)
				}
			}
		}
	}
	if len(names) == 0 {
		t.Fatalf("no ProviderServerWith* interface found in %s", pkg.Dir)
	}
	return names
}

type testContextKey struct{}

// callKeepsContext calls rpc on s with a zero request and a context that
// alone reaches a 64 KiB block, cancels the context as gRPC does once the
// call is answered, and reports whether the block is still reachable after
// garbage collection (while s, as in the plugin, lives on).
func callKeepsContext(t *testing.T, s tfprotov6.ProviderServer, rpc string) bool {
	t.Helper()
	w := call(t, s, rpc)
	// A collected block is gone after one cycle; a few more cover a cycle
	// that a finalizer or the weak-pointer machinery deferred.
	for range 5 {
		runtime.GC()
		if w.Value() == nil {
			runtime.KeepAlive(s)
			return false
		}
	}
	runtime.KeepAlive(s)
	return true
}

// call makes the request in a frame of its own, so that nothing on the
// caller's stack reaches the block afterwards.
func call(t *testing.T, s tfprotov6.ProviderServer, rpc string) weak.Pointer[[1 << 16]byte] {
	t.Helper()
	big := new([1 << 16]byte)
	w := weak.Make(big)
	ctx, cancel := context.WithCancel(context.WithValue(context.Background(), testContextKey{}, big))
	m := reflect.ValueOf(s).MethodByName(rpc)
	if !m.IsValid() {
		t.Fatalf("%T has no method %s", s, rpc)
	}
	req := reflect.New(m.Type().In(1).Elem())
	func() {
		defer func() {
			if r := recover(); r != nil {
				t.Fatalf("%s with a zero request panicked: %v", rpc, r)
			}
		}()
		m.Call([]reflect.Value{reflect.ValueOf(ctx), req})
	}()
	cancel()
	return w
}

// TestServer_releasesContexts: through the wrapper, nothing a released
// request's context reaches stays reachable once the request is answered.
func TestServer_releasesContexts(t *testing.T) {
	for _, rpc := range releasedRPCs {
		t.Run(rpc, func(t *testing.T) {
			if callKeepsContext(t, Wrap(newFramework()), rpc) {
				t.Errorf("the wrapped server keeps the context of %s after answering it", rpc)
			}
		})
	}
}

// TestFramework_stillKeepsContexts: the shim exists because the framework
// keeps every request's context; when an upgrade stops that, this fails
// and the package should go.
func TestFramework_stillKeepsContexts(t *testing.T) {
	for _, rpc := range releasedRPCs {
		t.Run(rpc, func(t *testing.T) {
			if !callKeepsContext(t, newFramework(), rpc) {
				t.Errorf("%s: terraform-plugin-framework no longer keeps request contexts (upstream fix): delete internal/protocol and serve providerserver.NewProtocol6 directly", rpc)
			}
		})
	}
}

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

// TestPackage_isLeaf: the shim imports nothing of this module (the rule for
// leaf packages in CONTRIBUTING.md, "Parts, and which way they depend"), so
// deleting it later touches only its callers.
func TestPackage_isLeaf(t *testing.T) {
	pkg, err := build.Default.ImportDir(".", 0)
	if err != nil {
		t.Fatal(err)
	}
	for _, imp := range slices.Concat(pkg.Imports, pkg.TestImports) {
		if strings.HasPrefix(imp, "github.com/rms-labs/terraform-provider-rms/") {
			t.Errorf("internal/protocol imports %s; a leaf package imports nothing of ours", imp)
		}
	}
}
