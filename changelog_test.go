package main

import (
	"fmt"
	"regexp"
	"slices"
	"strings"
	"testing"
)

// changelogHistoryWords are what makes a release entry read as a diary of
// how it came about rather than what it holds: git keeps that history.
var changelogHistoryWords = []struct {
	re  *regexp.Regexp
	why string
}{
	{regexp.MustCompile(`BREAKING`), "no release came first for anything to break"},
	{regexp.MustCompile(`#\d+`), "issue numbers mean nothing to a reader of the release"},
	{regexp.MustCompile(`(?i)\bissues? \d+`), "issue numbers mean nothing to a reader of the release"},
	{regexp.MustCompile(`(?i)\bno longer\b`), "say what the release does, not what it stopped doing"},
	{regexp.MustCompile(`(?i)\bbefore\b`), "say what the release does, not what an earlier build did (write \"ahead of\", \"first\")"},
	{regexp.MustCompile(`(?i)\bnow\b`), "say what the release does, not what changed"},
}

// TestChangelogReadsAsARelease holds CHANGELOG.md to the Registry's
// convention for a first release: a `## x.y.z` heading, sections the
// Registry knows, no words of history, and a "**New <Kind>:** `name`"
// bullet for everything the provider registers.
func TestChangelogReadsAsARelease(t *testing.T) {
	doc := readDoc(t, "CHANGELOG.md")
	problems := changelogProblems(doc, readProviderSurface(t))
	for _, p := range problems {
		t.Error(p)
	}
}

func changelogProblems(doc string, s providerSurface) []string {
	var problems []string
	if !regexp.MustCompile(`(?m)\A## \d+\.\d+\.\d+( \(Unreleased\)| \([A-Z][a-z]+ \d{1,2}, \d{4}\))\n`).MatchString(doc) {
		problems = append(problems, "CHANGELOG.md: the first line is not a release heading such as \"## 0.1.0 (Unreleased)\"")
	}
	for i, line := range strings.Split(doc, "\n") {
		for _, w := range changelogHistoryWords {
			if m := w.re.FindString(line); m != "" {
				problems = append(problems, fmt.Sprintf("CHANGELOG.md:%d: %q: %s", i+1, m, w.why))
			}
		}
		if h, ok := strings.CutSuffix(line, ":"); ok && h == strings.ToUpper(h) && h != "" && !strings.HasPrefix(h, "*") {
			switch h {
			case "NOTES", "FEATURES", "ENHANCEMENTS", "BUG FIXES", "DEPRECATIONS":
			default:
				problems = append(problems, fmt.Sprintf("CHANGELOG.md:%d: section %q is none of NOTES, FEATURES, ENHANCEMENTS, BUG FIXES, DEPRECATIONS", i+1, h))
			}
		}
	}
	kinds := []struct {
		label string
		names []string
	}{
		{"Resource", s.resources},
		{"Data Source", s.dataSources},
		{"Ephemeral Resource", s.ephemeral},
		{"List Resource", s.listResources},
		{"Action", s.actions},
		{"Function", s.functions},
	}
	for _, k := range kinds {
		for _, name := range k.names {
			if !strings.Contains(doc, "* **New "+k.label+":** `"+name+"`") {
				problems = append(problems, fmt.Sprintf("CHANGELOG.md lacks the line \"* **New %s:** `%s`\": the provider registers it", k.label, name))
			}
		}
	}
	return problems
}

func TestChangelogProblems(t *testing.T) {
	surface := providerSurface{resources: []string{"rms_list"}, functions: []string{"batch_time"}}
	good := "## 0.1.0 (Unreleased)\n\nFEATURES:\n\n* **New Resource:** `rms_list`\n* **New Function:** `batch_time`\n"
	tests := []struct {
		name, doc string
		want      string // a part of a problem expected; "" for none
	}{
		{"good", good, ""},
		{"breaking", good + "\nBREAKING CHANGES:\n", "BREAKING"},
		{"issue number", good + "* resource/rms_list: fixed (issue 41).\n", "issue 41"},
		{"hash number", good + "* resource/rms_list: fixed (#41).\n", "#41"},
		{"before", good + "* resource/rms_list: Before, it failed.\n", "Before"},
		{"no longer", good + "* resource/rms_list: no longer fails.\n", "no longer"},
		{"missing kind", strings.Replace(good, "* **New Function:** `batch_time`\n", "", 1), "New Function"},
		{"heading", strings.Replace(good, "## 0.1.0 (Unreleased)", "# Changes", 1), "release heading"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got := changelogProblems(tt.doc, surface)
			switch {
			case tt.want == "" && len(got) != 0:
				t.Errorf("want no problem, got %q", got)
			case tt.want != "" && !slices.ContainsFunc(got, func(p string) bool { return strings.Contains(p, tt.want) }):
				t.Errorf("want a problem naming %q, got %q", tt.want, got)
			}
		})
	}
}
