package main

import (
	"go/ast"
	"go/token"
	"path/filepath"
	"regexp"
	"sort"
	"strconv"
	"strings"
	"testing"
)

// acceptanceName matches the names of acceptance tests as Terraform
// providers write them (TestAccWire), not those of tests of Accept headers
// or accounts (TestAcceptHeader, TestAccountSend).
var acceptanceName = regexp.MustCompile(`^TestAcc([A-Z0-9_]|$)`)

// setUpCalls are the calls that start an acceptance test's set-up or its
// terraform: terraform-plugin-testing's resource.Test and ParallelTest
// skip without TF_ACC only once called, after everything their arguments
// and the lines before them made, and acctest's helpers start emulators or
// build the provider.
var setUpCalls = map[string]map[string]bool{
	"resource": {"Test": true, "ParallelTest": true},
	"acctest": {
		"NewEnv": true, "NewAccountEnvs": true, "NewWorkspace": true, "DevOverrides": true,
		"FilesystemMirror": true, "MustDetectCLI": true, "RequireCLI": true,
	},
}

// Every acceptance test of the module skips without TF_ACC before it sets
// anything up: its first statement is acctest.SkipUnlessAcceptance(t), or,
// in a package that does not import acctest, an `if os.Getenv("TF_ACC") ==
// ""` whose first statement skips. An acceptance test is one named TestAcc,
// or one that reaches resource.Test, resource.ParallelTest or an acctest
// helper that starts an emulator or runs the CLI, directly or through
// functions of its own package. make unit runs every package without
// TF_ACC; a test that started an emulator and made its lists before
// skipping cost seconds there for nothing.
func TestAcceptanceTestsSkipFirst(t *testing.T) {
	var late []string
	checked := 0
	for _, dir := range dirsUsingAcctest(t) {
		p := parseDir(t, dir)
		reaches := p.funcsReachingSetUp()
		for path, f := range p.files {
			if !strings.HasSuffix(path, "_test.go") {
				continue
			}
			for _, d := range f.Decls {
				fn, ok := d.(*ast.FuncDecl)
				if !ok || fn.Recv != nil || fn.Body == nil || !strings.HasPrefix(fn.Name.Name, "Test") {
					continue
				}
				if !acceptanceName.MatchString(fn.Name.Name) && !reaches[fn.Name.Name] {
					continue
				}
				checked++
				if !skipsFirst(fn) {
					late = append(late, p.fset.Position(fn.Pos()).String()+": "+fn.Name.Name)
				}
			}
		}
	}
	sort.Strings(late)
	if len(late) > 0 {
		t.Errorf("%d acceptance tests do not skip first without TF_ACC; make acctest.SkipUnlessAcceptance(t) their first statement:\n%s",
			len(late), strings.Join(late, "\n"))
	}
	// The test holds something only while it finds the acceptance tests.
	if checked < 100 {
		t.Errorf("found %d acceptance tests, want the hundreds of internal/provider: is the search broken?", checked)
	}
}

// dirsUsingAcctest are the module's package directories but acctest's
// own, whose tests call its helpers to see them skip.
func dirsUsingAcctest(t *testing.T) []string {
	t.Helper()
	var dirs []string
	for _, dir := range goPackageDirs(t) {
		if filepath.ToSlash(dir) != "internal/acctest" {
			dirs = append(dirs, dir)
		}
	}
	return dirs
}

// funcsReachingSetUp names the functions of the directory that call one of
// setUpCalls, directly or through other functions of the directory.
func (p parsedDir) funcsReachingSetUp() map[string]bool {
	calls := map[string][]string{}
	reaches := map[string]bool{}
	for _, f := range p.files {
		for _, d := range f.Decls {
			fn, ok := d.(*ast.FuncDecl)
			if !ok || fn.Recv != nil || fn.Body == nil {
				continue
			}
			name := fn.Name.Name
			ast.Inspect(fn.Body, func(n ast.Node) bool {
				call, ok := n.(*ast.CallExpr)
				if !ok {
					return true
				}
				switch fun := call.Fun.(type) {
				case *ast.Ident:
					calls[name] = append(calls[name], fun.Name)
				case *ast.SelectorExpr:
					if x, ok := fun.X.(*ast.Ident); ok && setUpCalls[x.Name][fun.Sel.Name] {
						reaches[name] = true
					}
				}
				return true
			})
		}
	}
	for changed := true; changed; {
		changed = false
		for name, callees := range calls {
			for _, c := range callees {
				if reaches[c] && !reaches[name] {
					reaches[name], changed = true, true
				}
			}
		}
	}
	return reaches
}

// skipsFirst reports whether fn's first statement skips without TF_ACC.
func skipsFirst(fn *ast.FuncDecl) bool {
	if len(fn.Body.List) == 0 {
		return false
	}
	switch s := fn.Body.List[0].(type) {
	case *ast.ExprStmt:
		call, ok := s.X.(*ast.CallExpr)
		if !ok {
			return false
		}
		switch fun := call.Fun.(type) {
		case *ast.SelectorExpr:
			x, ok := fun.X.(*ast.Ident)
			return ok && x.Name == "acctest" && fun.Sel.Name == "SkipUnlessAcceptance"
		case *ast.Ident:
			return fun.Name == "SkipUnlessAcceptance"
		}
	case *ast.IfStmt:
		return isTFAccUnset(s.Cond) && len(s.Body.List) > 0 && isSkip(s.Body.List[0])
	}
	return false
}

// isTFAccUnset matches os.Getenv("TF_ACC") == "".
func isTFAccUnset(e ast.Expr) bool {
	b, ok := e.(*ast.BinaryExpr)
	if !ok || b.Op != token.EQL {
		return false
	}
	call, ok := b.X.(*ast.CallExpr)
	if !ok || len(call.Args) != 1 {
		return false
	}
	sel, ok := call.Fun.(*ast.SelectorExpr)
	if !ok || sel.Sel.Name != "Getenv" {
		return false
	}
	name, ok := call.Args[0].(*ast.BasicLit)
	empty, ok2 := b.Y.(*ast.BasicLit)
	if !ok || !ok2 {
		return false
	}
	n, err := strconv.Unquote(name.Value)
	return err == nil && n == "TF_ACC" && empty.Value == `""`
}

// isSkip matches t.Skip(...), t.Skipf(...) and t.SkipNow().
func isSkip(s ast.Stmt) bool {
	e, ok := s.(*ast.ExprStmt)
	if !ok {
		return false
	}
	call, ok := e.X.(*ast.CallExpr)
	if !ok {
		return false
	}
	sel, ok := call.Fun.(*ast.SelectorExpr)
	return ok && strings.HasPrefix(sel.Sel.Name, "Skip")
}
