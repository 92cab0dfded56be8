package main

import (
	"go/build"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
)

// contributorDocs are the contributor guide's pages: CONTRIBUTING.md and
// the pages of contributing/.
func contributorDocs(t *testing.T) []string {
	t.Helper()
	pages, err := filepath.Glob(filepath.Join("contributing", "*.md"))
	if err != nil {
		t.Fatal(err)
	}
	return append([]string{"CONTRIBUTING.md"}, pages...)
}

var (
	fencedBlock = regexp.MustCompile("(?ms)^```.*?^```[ \t]*$")
	codeSpan    = regexp.MustCompile("`([^`\n]+)`")
	mdLink      = regexp.MustCompile(`\]\(([^)\s]+)\)`)
	// fileSuffix marks a code span without a slash as a file of the
	// repository's root (main.go, CHANGELOG.md, .golangci.yml).
	fileSuffix = regexp.MustCompile(`\.(go|md|ya?ml|json|sh|tf|tmpl|hcl|mod|sum)$`)
)

// repositoryPath reports whether a code span names a file or folder of the
// repository, and which: a span with a slash, or one ending like a file,
// that is not a command (spaces, flags), a URL, another module's import
// path (github.com/...) or a package of Go's standard library (net/http).
// A span with a placeholder (examples/resources/<type>/resource.tf,
// internal/provider/*_resource.go) names the folder before it.
func repositoryPath(span string) (string, bool) {
	if strings.ContainsAny(span, " \t") || strings.HasPrefix(span, "-") || strings.Contains(span, "://") {
		return "", false
	}
	if !strings.Contains(span, "/") && !fileSuffix.MatchString(span) {
		return "", false
	}
	first, _, _ := strings.Cut(span, "/")
	if strings.Contains(first, ".") && !strings.HasPrefix(first, ".") && strings.Contains(span, "/") {
		return "", false // github.com/..., golang.org/x/...
	}
	if i := strings.IndexAny(span, "<*{$"); i >= 0 {
		span = span[:strings.LastIndex(span[:i], "/")+1]
		if span == "" {
			return "", false
		}
	}
	if _, err := os.Stat(filepath.Join(build.Default.GOROOT, "src", filepath.FromSlash(span))); err == nil && !fileSuffix.MatchString(span) {
		return "", false // net/http, testing/synctest
	}
	return strings.TrimSuffix(span, "/"), true
}

// TestContributingPathsExist holds the contributor guide to the tree: every
// repository path it names in a code span (from the repository's root) and
// every relative link (from the page) must exist, so that the guide cannot
// point a newcomer at a file that moved or never was.
func TestContributingPathsExist(t *testing.T) {
	checked := 0
	for _, page := range contributorDocs(t) {
		doc := fencedBlock.ReplaceAllString(readDoc(t, page), "")
		for _, m := range codeSpan.FindAllStringSubmatch(doc, -1) {
			p, ok := repositoryPath(m[1])
			if !ok {
				continue
			}
			checked++
			if _, err := os.Stat(filepath.FromSlash(p)); err != nil {
				t.Errorf("%s names `%s`, which is not in the repository", page, m[1])
			}
		}
		for _, m := range mdLink.FindAllStringSubmatch(doc, -1) {
			target, _, _ := strings.Cut(m[1], "#")
			if target == "" || strings.Contains(target, "://") || strings.HasPrefix(target, "mailto:") {
				continue
			}
			checked++
			if _, err := os.Stat(filepath.Join(filepath.Dir(page), filepath.FromSlash(target))); err != nil {
				t.Errorf("%s links to %s, which is not in the repository", page, m[1])
			}
		}
	}
	if checked < 50 {
		t.Errorf("checked only %d paths in the contributor guide; is the guide or this test's reading of it broken?", checked)
	}
}

// TestRepositoryPath pins which code spans count as repository paths.
func TestRepositoryPath(t *testing.T) {
	for span, want := range map[string]string{
		"internal/client/retry.go":                 "internal/client/retry.go",
		"internal/provider":                        "internal/provider",
		"examples/resources/rms_project/":          "examples/resources/rms_project",
		"examples/resources/<type>/resource.tf":    "examples/resources",
		"internal/provider/*_resource.go":          "internal/provider",
		".golangci.yml":                            ".golangci.yml",
		"CHANGELOG.md":                             "CHANGELOG.md",
		".ci/run":                                  ".ci/run",
		"net/http":                                 "",
		"testing/synctest":                         "",
		"github.com/hashicorp/terraform-plugin":    "",
		"make docs":                                "",
		"-data-dir":                                "",
		"rms_project":                              "",
		"client.ErrNotFound":                       "",
		"acctest.Main":                             "",
		"https://registry.terraform.io/rms-labs/x": "",
	} {
		got, ok := repositoryPath(span)
		if got != want || ok != (want != "") {
			t.Errorf("repositoryPath(%q) = %q, %v; want %q", span, got, ok, want)
		}
	}
}
