package provider

import (
	"go/token"
	"go/types"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"golang.org/x/tools/go/packages"
)

// Inside one package Go draws no lines between files, so the directions the
// design asks for within internal/provider are checked here, from the type
// checker's record of which file declares each name another file uses:
//
//   - an operation (what a resource and an action both run: *_operation.go)
//     never depends on a resource or an action;
//   - a resource and an action never depend on each other: both depend on
//     their operation;
//   - the batch core (batch_*.go, less the rms_batch data source and the
//     ephemeral resource) never depends on a resource, an action or an
//     operation: they all depend on it.
//
// depguard holds the directions between packages (.golangci.yml).

// fileRole classifies a source file of the package by its name.
func fileRole(name string) string {
	switch {
	case strings.HasSuffix(name, "_operation.go"):
		return "operation"
	case strings.HasSuffix(name, "_action.go"):
		return "action"
	case strings.HasSuffix(name, "_query.go"), strings.HasSuffix(name, "_ephemeral_resource.go"):
		return "other" // list and ephemeral resources read what a resource holds
	case strings.HasSuffix(name, "_resource.go"):
		return "resource"
	case strings.HasPrefix(name, "batch_") && !strings.HasSuffix(name, "_data_source.go"):
		return "batch core"
	}
	return "other"
}

// forbiddenUse says why a file of role from may not use a name declared in a
// file of role to, or "" when it may.
func forbiddenUse(from, to string) string {
	switch {
	case from == "operation" && (to == "resource" || to == "action"):
		return "an operation is shared by a resource and an action and depends on neither"
	case from == "action" && to == "resource", from == "resource" && to == "action":
		return "resources and actions depend on their operation, never on each other"
	case from == "batch core" && (to == "resource" || to == "action" || to == "operation"):
		return "the batch core is below every batch resource, action and operation"
	}
	return ""
}

// fileUses maps each file of the package to the files declaring the names
// it uses (itself left out), each with one of those names.
func fileUses(t *testing.T) map[string]map[string]string {
	t.Helper()
	cfg := &packages.Config{Mode: packages.NeedName | packages.NeedFiles | packages.NeedSyntax | packages.NeedTypes | packages.NeedTypesInfo}
	pkgs, err := packages.Load(cfg, ".")
	if err != nil {
		t.Fatalf("loading the package: %v", err)
	}
	if len(pkgs) != 1 || len(pkgs[0].Errors) > 0 {
		t.Fatalf("loading the package: %d packages, errors %v", len(pkgs), pkgs[0].Errors)
	}
	pkg := pkgs[0]
	declaredIn := func(obj types.Object) string {
		if obj == nil || obj.Pkg() != pkg.Types || !obj.Pos().IsValid() {
			return ""
		}
		return filepath.Base(pkg.Fset.Position(obj.Pos()).Filename)
	}
	uses := map[string]map[string]string{}
	for ident, obj := range pkg.TypesInfo.Uses {
		from := filepath.Base(pkg.Fset.Position(ident.Pos()).Filename)
		to := declaredIn(obj)
		if to == "" || to == from || pkg.Fset.Position(ident.Pos()) == (token.Position{}) {
			continue
		}
		if uses[from] == nil {
			uses[from] = map[string]string{}
		}
		if seen, ok := uses[from][to]; !ok || obj.Name() < seen { // one name, the same on every run
			uses[from][to] = obj.Name()
		}
	}
	return uses
}

func TestFileDependencies(t *testing.T) {
	uses := fileUses(t)
	if len(uses) < 20 {
		t.Fatalf("found the uses of only %d files: the package did not load as expected", len(uses))
	}
	var broken []string
	for from, tos := range uses {
		for to, name := range tos {
			if why := forbiddenUse(fileRole(from), fileRole(to)); why != "" {
				broken = append(broken, from+" uses "+name+" of "+to+": "+why)
			}
		}
	}
	slices.Sort(broken)
	for _, b := range broken {
		t.Error(b)
	}
}

// TestFileRoles keeps the roles the rules rely on: a renamed file would
// otherwise drop out of them without a failure.
func TestFileRoles(t *testing.T) {
	for name, want := range map[string]string{
		"list_import_operation.go":               "operation",
		"statistics_export_operation.go":         "operation",
		"transactional_message_operation.go":     "operation",
		"list_import_resource.go":                "resource",
		"statistics_export_resource.go":          "resource",
		"transactional_message_resource.go":      "resource",
		"list_contacts_resource.go":              "resource",
		"run_list_import_action.go":              "action",
		"run_statistics_export_action.go":        "action",
		"send_transactional_message_action.go":   "action",
		"batch_wait.go":                          "batch core",
		"batch_data_source.go":                   "other",
		"batch_result_url_ephemeral_resource.go": "other",
		"contact_query.go":                       "other",
	} {
		if got := fileRole(name); got != want {
			t.Errorf("fileRole(%s) = %s, want %s", name, got, want)
		}
	}
	uses := fileUses(t)
	for _, f := range []string{"list_import_operation.go", "statistics_export_operation.go", "transactional_message_operation.go", "batch_wait.go", "batch_state.go", "batch_schema.go"} {
		if _, ok := uses[f]; !ok {
			t.Errorf("%s uses nothing of the package, or is gone: update the rules", f)
		}
	}
}
