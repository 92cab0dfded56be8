package main

import (
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
)

// issueNumber is a reference to one of this project's issues: the word
// issue and a number, or a number after a bare hash. A number means nothing to whoever reads the
// code without the tracker, and the tracker may move; the explanation
// belongs in the comment itself. Another project's issue names its
// repository (opentofu#2370, golang/go#1234) and is not matched.
var issueNumber = regexp.MustCompile(`(?i)\bissues? #?\d+|(?:^|[\s(\[,;])#\d+\b`)

// issueNumberExempt are files whose issue numbers are test data: the
// CHANGELOG check's examples of what it refuses.
var issueNumberExempt = map[string]bool{"changelog_test.go": true}

// TestNoIssueNumbers holds code, tests, scripts and the repository's prose
// to explanations rather than references: no Go file, script, makefile or
// Markdown page (README, CONTRIBUTING, BENCHMARKS, the guides, the docs'
// templates and the examples) cites an issue of this project by number.
// CHANGELOG.md is checked by its own test.
func TestNoIssueNumbers(t *testing.T) {
	var files []string
	for _, dir := range goPackageDirs(t) {
		matches, err := filepath.Glob(filepath.Join(dir, "*.go"))
		if err != nil {
			t.Fatal(err)
		}
		files = append(files, matches...)
	}
	scripts, err := filepath.Glob(filepath.Join("scripts", "*.sh"))
	if err != nil {
		t.Fatal(err)
	}
	files = append(append(files, scripts...), "GNUmakefile", ".golangci.yml")
	for _, pattern := range []string{"*.md", "contributing/*.md", "templates/*/*.tmpl", "templates/*/*.md", "templates/*.tmpl", "examples/*/*.tf", "examples/*/*/*.tf", "examples/*/*/*.md", "examples/*/*.md"} {
		matches, err := filepath.Glob(pattern)
		if err != nil {
			t.Fatal(err)
		}
		for _, m := range matches {
			if m != "CHANGELOG.md" {
				files = append(files, m)
			}
		}
	}
	for _, path := range files {
		if issueNumberExempt[filepath.ToSlash(path)] {
			continue
		}
		b, err := os.ReadFile(path)
		if err != nil {
			t.Fatal(err)
		}
		for i, line := range strings.Split(string(b), "\n") {
			if m := issueNumber.FindString(line); m != "" {
				t.Errorf("%s:%d cites an issue by number (%q): say what the issue asked for instead", path, i+1, strings.TrimSpace(m))
			}
		}
	}
}
