package main

import (
	"bytes"
	"cmp"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"testing"
)

// The figures of CONTRIBUTING.md that the code decides: the arrows between
// the module's packages (a block between these markers) and the size of
// internal/provider. They drift whenever a file or an import moves, so they
// are written by this test rather than by hand, and the test fails when
// what is committed is not what the code says.
const (
	arrowsBegin = "<!-- BEGIN arrows: written by `make contributing` from go list; do not edit -->"
	arrowsEnd   = "<!-- END arrows -->"
	updateHint  = "run `make contributing` (RMS_UPDATE_GOLDEN=1 go test -count=1 -run TestContributingFigures .), check the diff and commit it"
)

// providerFiles is the sentence of "When the provider package splits" that
// carries internal/provider's file counts.
var providerFiles = regexp.MustCompile(`\d+ non-test files \(\d+ with their tests\)`)

// listedPackage is what the figures need of one `go list -json` record.
type listedPackage struct {
	ImportPath string
	Imports    []string
}

// modulePackages lists the module's packages and, for each, the packages
// of the module it imports outside its tests, by path relative to the
// module's root ("" for the root itself).
func modulePackages(t *testing.T) map[string][]string {
	t.Helper()
	module := strings.TrimSpace(goOutput(t, "go", "list", "-m"))
	out := goOutput(t, "go", "list", "-json=ImportPath,Imports", "./...")
	graph := map[string][]string{}
	dec := json.NewDecoder(strings.NewReader(out))
	for {
		var p listedPackage
		err := dec.Decode(&p)
		if errors.Is(err, io.EOF) {
			break
		}
		if err != nil {
			t.Fatalf("reading go list's output: %v", err)
		}
		name := relativeToModule(module, p.ImportPath)
		graph[name] = []string{}
		for _, imp := range p.Imports {
			if imp == module || strings.HasPrefix(imp, module+"/") {
				graph[name] = append(graph[name], relativeToModule(module, imp))
			}
		}
		slices.Sort(graph[name])
	}
	return graph
}

func relativeToModule(module, importPath string) string {
	return strings.TrimPrefix(strings.TrimPrefix(importPath, module), "/")
}

func goOutput(t *testing.T, name string, args ...string) string {
	t.Helper()
	var stderr bytes.Buffer
	cmd := exec.CommandContext(t.Context(), name, args...)
	cmd.Stderr = &stderr
	out, err := cmd.Output()
	if err != nil {
		t.Fatalf("%s %s: %v\n%s", name, strings.Join(args, " "), err, stderr.String())
	}
	return string(out)
}

// partName is how the guide names a package: the root package by its file.
func partName(pkg string) string {
	if pkg == "" {
		return "main.go"
	}
	return pkg
}

// arrowsBlock draws the graph one package a line, each followed by what it
// imports, from the top down: a package comes before every package it
// imports (ordered by the longest chain of imports below it, then by name),
// so the block reads as layers.
func arrowsBlock(graph map[string][]string) string {
	height := map[string]int{}
	var heightOf func(string) int
	heightOf = func(pkg string) int {
		if h, ok := height[pkg]; ok {
			return h
		}
		height[pkg] = 0 // a cycle cannot recurse forever; go build refuses cycles anyway
		h := 0
		for _, imp := range graph[pkg] {
			h = max(h, heightOf(imp)+1)
		}
		height[pkg] = h
		return h
	}
	pkgs := make([]string, 0, len(graph))
	arrows, width := 0, 0
	for pkg, imports := range graph {
		pkgs = append(pkgs, pkg)
		arrows += len(imports)
		width = max(width, len(partName(pkg)))
	}
	slices.SortFunc(pkgs, func(a, b string) int {
		return cmp.Or(cmp.Compare(heightOf(b), heightOf(a)), cmp.Compare(partName(a), partName(b)))
	})
	var b strings.Builder
	fmt.Fprintf(&b, "%s\n%d packages, %d arrows (imports outside tests; `go list` draws them):\n\n```\n", arrowsBegin, len(pkgs), arrows)
	for _, pkg := range pkgs {
		names := make([]string, len(graph[pkg]))
		for i, imp := range graph[pkg] {
			names[i] = partName(imp)
		}
		target := "(nothing of this module)"
		if len(names) > 0 {
			target = "─> " + strings.Join(names, ", ")
		}
		fmt.Fprintf(&b, "%-*s %s\n", width, partName(pkg), target)
	}
	b.WriteString("```\n" + arrowsEnd)
	return b.String()
}

// providerFileCounts counts internal/provider's Go files, without and with
// its tests.
func providerFileCounts(t *testing.T) (nonTest, all int) {
	t.Helper()
	files, err := filepath.Glob(filepath.Join("internal", "provider", "*.go"))
	if err != nil {
		t.Fatal(err)
	}
	for _, f := range files {
		if !strings.HasSuffix(f, "_test.go") {
			nonTest++
		}
	}
	return nonTest, len(files)
}

// TestContributingFigures holds CONTRIBUTING.md's dependency diagram and
// internal/provider's file counts to the code: with RMS_UPDATE_GOLDEN=1 it
// writes them, otherwise it fails when the committed guide differs.
func TestContributingFigures(t *testing.T) {
	doc := readDoc(t, "CONTRIBUTING.md")
	begin, end := strings.Index(doc, arrowsBegin), strings.Index(doc, arrowsEnd)
	if begin < 0 || end < begin {
		t.Fatalf("CONTRIBUTING.md has no block between %q and %q", arrowsBegin, arrowsEnd)
	}
	if len(providerFiles.FindAllString(doc, -1)) != 1 {
		t.Fatalf("CONTRIBUTING.md must say once how many files internal/provider has, as %q", providerFiles)
	}
	nonTest, all := providerFileCounts(t)
	want := doc[:begin] + arrowsBlock(modulePackages(t)) + doc[end+len(arrowsEnd):]
	want = providerFiles.ReplaceAllLiteralString(want,
		strconv.Itoa(nonTest)+" non-test files ("+strconv.Itoa(all)+" with their tests)")
	if want == doc {
		return
	}
	if os.Getenv("RMS_UPDATE_GOLDEN") == "1" {
		if err := os.WriteFile("CONTRIBUTING.md", []byte(want), 0o644); err != nil {
			t.Fatal(err)
		}
		t.Log("CONTRIBUTING.md rewritten")
		return
	}
	t.Errorf("CONTRIBUTING.md's figures differ from the code: %s", updateHint)
	for _, line := range strings.Split(want, "\n") {
		if !strings.Contains(doc, line) {
			t.Logf("now: %s", line)
		}
	}
}
