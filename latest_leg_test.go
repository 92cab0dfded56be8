package main

import (
	"go/ast"
	"os"
	"regexp"
	"sort"
	"strconv"
	"strings"
	"testing"

	goversion "github.com/hashicorp/go-version"
)

// makeRegexp reads the regular expression a GNUmakefile line such as
// `LATEST_RUN = -run '^(...)$$'` gives go test, with make's `$$` undone.
func makeRegexp(t *testing.T, makefile, variable string) *regexp.Regexp {
	t.Helper()
	line := regexp.MustCompile(`(?m)^` + variable + ` = -(?:run|skip) '([^']+)'$`).FindStringSubmatch(makefile)
	if line == nil {
		t.Fatalf("GNUmakefile has no line %s = -run '...' (or -skip)", variable)
	}
	re, err := regexp.Compile(strings.ReplaceAll(line[1], "$$", "$"))
	if err != nil {
		t.Fatalf("%s: %v", variable, err)
	}
	return re
}

// Every acceptance test the minimum Terraform skips, because it needs a
// feature of a later CLI, runs in make test-latest: its name matches
// LATEST_RUN and not LATEST_SKIP. Otherwise nothing in .ci/run would run it
// (two action tests that inject faults were once skipped by both legs). A
// test skips on the minimum when it, or a function or variable of its
// package it uses, asks for a CLI newer than the minimum through
// acctest.RequireCLI, acctest.SkipWithout or tfversion.SkipBelow.
func TestLatestLegRunsWhatTheMinimumSkips(t *testing.T) {
	raw, err := os.ReadFile("GNUmakefile")
	if err != nil {
		t.Fatal(err)
	}
	makefile := string(raw)
	run := makeRegexp(t, makefile, "LATEST_RUN")
	skip := makeRegexp(t, makefile, "LATEST_SKIP")
	minimum := minimumTerraform(t)
	// acctest's own version checks (SkipWithoutActions, ...) are used
	// from other packages as acctest.SkipWithoutActions.
	fromAcctest := parseDir(t, "internal/acctest").namesNeedingNewerCLI(minimum, nil)

	var missing []string
	gated := 0
	for _, dir := range dirsUsingAcctest(t) {
		p := parseDir(t, dir)
		for name := range p.namesNeedingNewerCLI(minimum, fromAcctest) {
			if !strings.HasPrefix(name, "Test") {
				continue
			}
			gated++
			if !run.MatchString(name) || skip.MatchString(name) {
				missing = append(missing, dir+": "+name)
			}
		}
	}
	sort.Strings(missing)
	if len(missing) > 0 {
		t.Errorf("%d tests need a CLI newer than the minimum (%s) but are not in make test-latest; add their names to LATEST_RUN of GNUmakefile:\n%s",
			len(missing), minimum, strings.Join(missing, "\n"))
	}
	// The test holds something only while it finds the gated tests.
	if gated < 20 {
		t.Errorf("found %d tests that need a newer CLI, want the dozens of identity, query and action tests: is the search broken?", gated)
	}
}

// minimumTerraform is the version the minimum leg runs (TF_MIN_VERSION of
// scripts/terraform.sh).
func minimumTerraform(t *testing.T) *goversion.Version {
	t.Helper()
	raw, err := os.ReadFile("scripts/terraform.sh")
	if err != nil {
		t.Fatal(err)
	}
	m := regexp.MustCompile(`(?m)^TF_MIN_VERSION="([0-9.]+)"$`).FindSubmatch(raw)
	if m == nil {
		t.Fatal(`scripts/terraform.sh has no line TF_MIN_VERSION="..."`)
	}
	return goversion.Must(goversion.NewVersion(string(m[1])))
}

// namesNeedingNewerCLI names the top-level functions and variables of the
// directory that ask for a Terraform newer than minimum, directly, through
// other functions and variables of the directory, or through the names of
// fromAcctest (acctest.Name).
func (p parsedDir) namesNeedingNewerCLI(minimum *goversion.Version, fromAcctest map[string]bool) map[string]bool {
	uses := map[string][]string{}
	needs := map[string]bool{}
	note := func(name string, body ast.Node) {
		ast.Inspect(body, func(n ast.Node) bool {
			switch n := n.(type) {
			case *ast.Ident:
				uses[name] = append(uses[name], n.Name)
			case *ast.SelectorExpr:
				if x, ok := n.X.(*ast.Ident); ok && x.Name == "acctest" && fromAcctest[n.Sel.Name] {
					needs[name] = true
				}
			case *ast.CallExpr:
				if v := gateVersion(n); v != "" && goversion.Must(goversion.NewVersion(v)).GreaterThan(minimum) {
					needs[name] = true
				}
			}
			return true
		})
	}
	for _, f := range p.files {
		for _, d := range f.Decls {
			switch d := d.(type) {
			case *ast.FuncDecl:
				if d.Recv == nil && d.Body != nil {
					note(d.Name.Name, d.Body)
				}
			case *ast.GenDecl:
				for _, s := range d.Specs {
					if vs, ok := s.(*ast.ValueSpec); ok {
						for _, n := range vs.Names {
							note(n.Name, vs)
						}
					}
				}
			}
		}
	}
	for changed := true; changed; {
		changed = false
		for name, used := range uses {
			for _, u := range used {
				if u != name && needs[u] && !needs[name] {
					needs[name], changed = true, true
				}
			}
		}
	}
	return needs
}

// gateVersion is the Terraform version a call that skips on older CLIs
// asks for: acctest.RequireCLI(t, feature, terraform, opentofu),
// acctest.SkipWithout(feature, terraform, opentofu) (without acctest. in
// acctest itself) or tfversion.SkipBelow(tfversion.Version1_12_0); "" for
// any other call.
func gateVersion(call *ast.CallExpr) string {
	var pkg, fun string
	switch f := call.Fun.(type) {
	case *ast.Ident:
		pkg, fun = "acctest", f.Name
	case *ast.SelectorExpr:
		x, ok := f.X.(*ast.Ident)
		if !ok {
			return ""
		}
		pkg, fun = x.Name, f.Sel.Name
	default:
		return ""
	}
	literal := func(i int) string {
		if len(call.Args) <= i {
			return ""
		}
		lit, ok := call.Args[i].(*ast.BasicLit)
		if !ok {
			return ""
		}
		s, err := strconv.Unquote(lit.Value)
		if err != nil {
			return ""
		}
		return s
	}
	switch {
	case pkg == "acctest" && fun == "RequireCLI":
		return literal(2)
	case pkg == "acctest" && fun == "SkipWithout":
		return literal(1)
	case pkg == "tfversion" && fun == "SkipBelow" && len(call.Args) == 1:
		arg, ok := call.Args[0].(*ast.SelectorExpr)
		if !ok || !strings.HasPrefix(arg.Sel.Name, "Version") {
			return ""
		}
		return strings.ReplaceAll(strings.TrimPrefix(arg.Sel.Name, "Version"), "_", ".")
	}
	return ""
}
