package main

import (
	"fmt"
	"os"
	"regexp"
	"slices"
	"strings"
	"testing"
)

// changelogMaxWords is the length of one change's line. The Registry's
// convention is one short line per change, which a reviewer scans; the
// detail belongs in the docs page the line names.
const changelogMaxWords = 30

// changelogHistoryWords are what makes a release entry read as a diary of
// how it came about rather than what it holds: git keeps that history.
var changelogHistoryWords = []struct {
	re  *regexp.Regexp
	why string
}{
	{regexp.MustCompile(`#\d+`), "issue numbers mean nothing to a reader of the release"},
	{regexp.MustCompile(`(?i)\bissues? \d+`), "issue numbers mean nothing to a reader of the release"},
	{regexp.MustCompile(`(?i)\bno longer\b`), "say what the release does, not what it stopped doing"},
	{regexp.MustCompile(`(?i)\bbefore\b`), "say what the release does, not what an earlier build did (write \"ahead of\", \"first\")"},
	{regexp.MustCompile(`(?i)\bnow\b`), "say what the release does, not what changed"},
}

// The sections the Registry's convention knows. A first release has
// nothing to fix, deprecate or break, so it holds only notes and features.
var (
	changelogFirstReleaseSections = []string{"NOTES", "FEATURES"}
	changelogLaterReleaseSections = []string{"BREAKING CHANGES", "NOTES", "FEATURES", "ENHANCEMENTS", "BUG FIXES", "DEPRECATIONS"}
)

var (
	changelogReleaseHeading = regexp.MustCompile(`^## \d+\.\d+\.\d+( \(Unreleased\)| \([A-Z][a-z]+ \d{1,2}, \d{4}\))$`)
	changelogSectionHeading = regexp.MustCompile(`^([A-Z][A-Z ]*[A-Z]):$`)
	changelogLinkTarget     = regexp.MustCompile(`\]\(([^)\s]+)\)`)
)

// TestChangelogReadsAsARelease holds CHANGELOG.md to the Registry's
// convention: `## x.y.z` release headings, each with at most a one-line
// summary and sections the Registry knows (only NOTES and FEATURES in the
// first release), each change one bullet line of at most 30 words, no
// words of history, a "**New <Kind>:** `name`" bullet for everything the
// provider registers, and links only to files the repository has.
func TestChangelogReadsAsARelease(t *testing.T) {
	doc := readDoc(t, "CHANGELOG.md")
	exists := func(path string) bool {
		_, err := os.Stat(path)
		return err == nil
	}
	for _, p := range changelogProblems(doc, readProviderSurface(t), exists) {
		t.Error(p)
	}
}

func changelogProblems(doc string, s providerSurface, exists func(path string) bool) []string {
	var problems []string
	if !regexp.MustCompile(`\A## \d+\.\d+\.\d+ `).MatchString(doc) {
		problems = append(problems, "CHANGELOG.md: the first line is not a release heading such as \"## 0.1.0 (Unreleased)\"")
	}
	lines := strings.Split(strings.TrimSuffix(doc, "\n"), "\n")
	for i, line := range lines {
		for _, w := range changelogHistoryWords {
			if m := w.re.FindString(line); m != "" {
				problems = append(problems, fmt.Sprintf("CHANGELOG.md:%d: %q: %s", i+1, m, w.why))
			}
		}
		for _, m := range changelogLinkTarget.FindAllStringSubmatch(line, -1) {
			target, _, _ := strings.Cut(m[1], "#")
			if target == "" || strings.Contains(target, "://") {
				continue
			}
			if !exists(target) {
				problems = append(problems, fmt.Sprintf("CHANGELOG.md:%d: links to %s, which the repository does not have", i+1, target))
			}
		}
	}
	problems = append(problems, changelogFormProblems(lines)...)
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

// changelogFormProblems walks the releases, newest first as the file holds
// them, so the last release heading is the first release.
func changelogFormProblems(lines []string) []string {
	var problems []string
	add := func(i int, format string, args ...any) {
		problems = append(problems, fmt.Sprintf("CHANGELOG.md:%d: ", i+1)+fmt.Sprintf(format, args...))
	}
	lastRelease := -1
	for i, line := range lines {
		if strings.HasPrefix(line, "## ") {
			lastRelease = i
		}
	}
	var (
		first       bool            // in the first release
		section     string          // the section being read; "" before the first
		sectionLine int             // where it began
		bullets     int             // how many bullets it has so far
		seen        map[string]bool // the release's sections so far
		summary     = -1            // the line of the release's summary, if any
	)
	endSection := func() {
		if section != "" && bullets == 0 {
			add(sectionLine, "section %s holds no bullet", section)
		}
	}
	for i, line := range lines {
		words := strings.Fields(line)
		switch {
		case strings.HasPrefix(line, "## "):
			endSection()
			if !changelogReleaseHeading.MatchString(line) {
				add(i, "heading %q is not a release heading such as \"## 0.1.0 (Unreleased)\" or \"## 0.2.0 (March 3, 2027)\"", line)
			}
			first, section, bullets, seen, summary = i == lastRelease, "", 0, map[string]bool{}, -1
		case strings.HasPrefix(line, "#"):
			add(i, "heading %q: a release holds sections such as \"FEATURES:\" and bullets, no headings of its own", line)
		case seen == nil:
			if line != "" {
				add(i, "text ahead of the first release heading")
			}
		case line == "":
		case changelogSectionHeading.MatchString(line):
			endSection()
			name := changelogSectionHeading.FindStringSubmatch(line)[1]
			allowed := changelogLaterReleaseSections
			if first {
				allowed = changelogFirstReleaseSections
			}
			switch {
			case !slices.Contains(allowed, name) && first:
				add(i, "section %q in the first release, which holds only %s", name, strings.Join(allowed, " and "))
			case !slices.Contains(allowed, name):
				add(i, "section %q is none of %s", name, strings.Join(allowed, ", "))
			case seen[name]:
				add(i, "section %s twice in one release", name)
			}
			seen[name], section, sectionLine, bullets = true, name, i, 0
		case strings.HasPrefix(line, "* ") && section == "":
			add(i, "a bullet ahead of the release's first section (NOTES:, FEATURES:, ...)")
		case strings.HasPrefix(line, "* "):
			bullets++
			if n := len(words) - 1; n > changelogMaxWords {
				add(i, "bullet of %d words, more than %d: keep one short line and leave the detail to the docs page it names: %q", n, changelogMaxWords, changelogStart(line))
			}
		case section != "" && i > 0 && lines[i-1] != "":
			add(i, "continues the bullet or paragraph above over several lines: each change is one bullet on one line: %q", changelogStart(line))
		case section != "":
			add(i, "a paragraph that is not a bullet under %s: each change is one bullet line (\"* ...\"): %q", section, changelogStart(line))
		case summary >= 0:
			add(i, "a second line of summary under the release heading (line %d is the first): keep it one line, or make it a bullet of NOTES", summary+1)
		default:
			summary = i
			if len(words) > changelogMaxWords {
				add(i, "release summary of %d words, more than %d: one sentence, the detail in the bullets: %q", len(words), changelogMaxWords, changelogStart(line))
			}
		}
	}
	endSection()
	return problems
}

// changelogStart is the beginning of a line, enough for a failure message
// to name which one it is.
func changelogStart(line string) string {
	if r := []rune(line); len(r) > 70 {
		return string(r[:70]) + "..."
	}
	return line
}

func TestChangelogProblems(t *testing.T) {
	surface := providerSurface{resources: []string{"rms_list"}, functions: []string{"batch_time"}}
	good := "## 0.1.0 (Unreleased)\n\nFirst release.\n\nNOTES:\n\n* Needs Terraform 1.11.\n\nFEATURES:\n\n* **New Resource:** `rms_list`\n* **New Function:** `batch_time`\n* resource/rms_list: a list ([docs](docs/resources/list.md)).\n"
	later := "## 0.2.0 (Unreleased)\n\nENHANCEMENTS:\n\n* resource/rms_list: `labels`.\n\nBUG FIXES:\n\n* resource/rms_list: a fix.\n\n"
	long := "* resource/rms_list: " + strings.Repeat("word ", 29) + "end.\n"
	exists := func(path string) bool { return path == "docs/resources/list.md" }
	tests := []struct {
		name, doc string
		want      string // a part of a problem expected; "" for none
	}{
		{"good", good, ""},
		{"later release", later + good, ""},
		{"later release with a breaking change", "## 0.2.0 (March 3, 2027)\n\nBREAKING CHANGES:\n\n* resource/rms_list: `labels` is a set.\n\n" + good, ""},
		{"no summary", strings.Replace(good, "First release.\n\n", "", 1), ""},
		{"breaking in the first release", good + "\nBREAKING CHANGES:\n\n* resource/rms_list: gone.\n", `section "BREAKING CHANGES" in the first release`},
		{"bug fixes in the first release", good + "\nBUG FIXES:\n\n* resource/rms_list: fixed.\n", `section "BUG FIXES" in the first release`},
		{"enhancements in the first release", later + good + "\nENHANCEMENTS:\n\n* resource/rms_list: more.\n", `section "ENHANCEMENTS" in the first release`},
		{"unknown section in a later release", strings.Replace(later, "BUG FIXES:", "IMPROVEMENTS:", 1) + good, `section "IMPROVEMENTS" is none of`},
		{"section twice", good + "\nNOTES:\n\n* More notes.\n", "NOTES twice"},
		{"empty section", strings.Replace(good, "* Needs Terraform 1.11.\n", "", 1), "section NOTES holds no bullet"},
		{"30 words", good + strings.Replace(long, "end.", "", 1), ""},
		{"31 words", good + long, "CHANGELOG.md:14: bullet of 31 words, more than 30"},
		{"bullet over two lines", good + "* resource/rms_list: a list\n  that wraps.\n", "CHANGELOG.md:15: continues the bullet"},
		{"lazy continuation", good + "* resource/rms_list: a list\nthat wraps.\n", "CHANGELOG.md:15: continues the bullet"},
		{"sub-bullet", good + "* resource/rms_list: a list\n  * with a detail\n", "CHANGELOG.md:15: continues the bullet"},
		{"paragraph", good + "\nSome more detail.\n", "CHANGELOG.md:15: a paragraph that is not a bullet under FEATURES"},
		{"group label", strings.Replace(good, "FEATURES:\n\n", "FEATURES:\n\nResources:\n\n", 1), "a paragraph that is not a bullet under FEATURES"},
		{"two-line summary", strings.Replace(good, "First release.\n", "First release,\nin two lines.\n", 1), "a second line of summary"},
		{"second summary", strings.Replace(good, "First release.\n", "First release.\n\nMore.\n", 1), "a second line of summary"},
		{"long summary", strings.Replace(good, "First release.", strings.Repeat("word ", 31), 1), "release summary of 31 words"},
		{"bullet ahead of a section", strings.Replace(good, "First release.", "* A bullet.", 1), "ahead of the release's first section"},
		{"sub-heading", strings.Replace(good, "FEATURES:", "### Features", 1), `heading "### Features"`},
		{"bad release heading", later + strings.Replace(good, "## 0.1.0 (Unreleased)", "## 0.1.0 (2026-12-02)", 1), `heading "## 0.1.0 (2026-12-02)"`},
		{"missing link target", good + "* resource/rms_list: more ([docs](docs/resources/lists.md)).\n", "links to docs/resources/lists.md"},
		{"link with an anchor", good + "* resource/rms_list: more ([docs](docs/resources/list.md#import)).\n", ""},
		{"issue number", good + "* resource/rms_list: fixed (issue 41).\n", "issue 41"},
		{"hash number", good + "* resource/rms_list: fixed (#41).\n", "#41"},
		{"before", good + "* resource/rms_list: Before, it failed.\n", "Before"},
		{"no longer", good + "* resource/rms_list: no longer fails.\n", "no longer"},
		{"missing kind", strings.Replace(good, "* **New Function:** `batch_time`\n", "", 1), "New Function"},
		{"heading", strings.Replace(good, "## 0.1.0 (Unreleased)", "# Changes", 1), "release heading"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got := changelogProblems(tt.doc, surface, exists)
			switch {
			case tt.want == "" && len(got) != 0:
				t.Errorf("want no problem, got %q", got)
			case tt.want != "" && !slices.ContainsFunc(got, func(p string) bool { return strings.Contains(p, tt.want) }):
				t.Errorf("want a problem naming %q, got %q", tt.want, got)
			}
		})
	}
}
