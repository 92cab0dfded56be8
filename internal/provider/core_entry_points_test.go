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
