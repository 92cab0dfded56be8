package provider

import (
	"go/ast"
	"go/parser"
	"go/token"
	"io/fs"
	"path/filepath"
	"sort"
	"strings"
	"testing"
)

// coreRules are the functions of internal/contactsync that decide about a
// contact. The provider calls the core's entry points instead (Plan,
// PlanExclusive, PlanContact, Refreshed, Apply), so that every view of a
// plan (warning, planned_changes, apply, record) derives from one decision:
// a view that called a rule itself could decide otherwise.
var coreRules = map[string]string{
	"Compare":                 "a plan of a list decides through contactsync.Plan",
	"Decide":                  "a contact's channels are decided by contactsync.PlanContact",
	"EffectiveStatus":         "a refresh records the statuses contactsync.Refreshed gives",
	"ExclusiveChanges":        "what exclusive unsubscribes is decided by contactsync.PlanExclusive",
	"ExclusiveChangesKeeping": "what exclusive unsubscribes is decided by contactsync.PlanExclusive",
	"RecipientOptOuts":        "which opt-outs are the recipients' own is decided by contactsync.Apply (and Run.OptOutsToRecord for a plan's count)",
}

// portDecisions are what the provider's ListPort must not call: the port
// reads and writes, and the core decides what is refused and recorded.
var portDecisions = map[string]bool{
	"exceeds": true, "Exceeds": true, "checkUnsubscribeLimit": true, "Check": true, "ExclusiveCount": true,
	"ExclusiveUnsubscribed": true, "OptOutsToRecord": true, "Plan": true, "PlanExclusive": true, "Apply": true,
}

// TestProviderCallsCoreEntryPointsOnly reads the source of the provider
// package and of its packages (operation, batchcore, ...) and fails on any
// use of a core rule outside the tests.
func TestProviderCallsCoreEntryPointsOnly(t *testing.T) {
	var files []string
	err := filepath.WalkDir(".", func(name string, d fs.DirEntry, err error) error {
		if err == nil && !d.IsDir() && strings.HasSuffix(name, ".go") {
			files = append(files, name)
		}
		return err
	})
	if err != nil {
		t.Fatal(err)
	}
	if len(files) < 100 {
		t.Fatalf("read %d files: not the provider's source", len(files))
	}
	fset := token.NewFileSet()
	var found []string
	for _, name := range files {
		if strings.HasSuffix(name, "_test.go") {
			continue
		}
		f, err := parser.ParseFile(fset, name, nil, parser.SkipObjectResolution)
		if err != nil {
			t.Fatal(err)
		}
		alias := importName(f, "github.com/rms-labs/terraform-provider-rms/internal/contactsync")
		if alias == "" {
			continue
		}
		ast.Inspect(f, func(n ast.Node) bool {
			sel, ok := n.(*ast.SelectorExpr)
			if !ok {
				return true
			}
			if x, ok := sel.X.(*ast.Ident); ok && x.Name == alias {
				if why, rule := coreRules[sel.Sel.Name]; rule {
					found = append(found, fset.Position(sel.Pos()).String()+": contactsync."+sel.Sel.Name+" ("+why+")")
				}
			}
			return true
		})
	}
	sort.Strings(found)
	for _, f := range found {
		t.Error(f)
	}
}

// TestListPortDoesIOOnly reads the methods of the provider's ListPort
// (listApplyPort) and fails on a call of a decision: a guardrail verdict,
// a count, or a choice of opt-outs there would be a second decision
// beside the core's.
func TestListPortDoesIOOnly(t *testing.T) {
	fset := token.NewFileSet()
	f, err := parser.ParseFile(fset, "list_contacts_apply_port.go", nil, parser.SkipObjectResolution)
	if err != nil {
		t.Fatal(err)
	}
	methods := 0
	for _, decl := range f.Decls {
		fn, ok := decl.(*ast.FuncDecl)
		if !ok || fn.Recv == nil || len(fn.Recv.List) != 1 {
			continue
		}
		if star, ok := fn.Recv.List[0].Type.(*ast.StarExpr); !ok || star.X.(*ast.Ident).Name != "listApplyPort" {
			continue
		}
		methods++
		ast.Inspect(fn.Body, func(n ast.Node) bool {
			call, ok := n.(*ast.CallExpr)
			if !ok {
				return true
			}
			var name string
			switch fun := call.Fun.(type) {
			case *ast.Ident:
				name = fun.Name
			case *ast.SelectorExpr:
				name = fun.Sel.Name
			}
			if portDecisions[name] {
				t.Errorf("%s: listApplyPort.%s calls %s: the port does I/O only, the core decides", fset.Position(call.Pos()), fn.Name.Name, name)
			}
			return true
		})
	}
	if methods < 8 {
		t.Fatalf("found %d methods of listApplyPort: not the port's source", methods)
	}
}

// importName is the name a file refers to an import path by ("" if it
// does not import it).
func importName(f *ast.File, path string) string {
	for _, imp := range f.Imports {
		if strings.Trim(imp.Path.Value, `"`) != path {
			continue
		}
		if imp.Name != nil {
			return imp.Name.Name
		}
		return filepath.Base(path)
	}
	return ""
}
