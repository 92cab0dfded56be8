package main

import (
	"io/fs"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
)

// maxFrontMatterSentences is the longest a page's front-matter
// description may run: the Registry shows it as one block above the page.
// Descriptions templated from a schema ({{ .Description }}) are held by
// internal/provider's TestSchemaDescriptionLength instead.
const maxFrontMatterSentences = 3

var (
	sentenceEnd   = regexp.MustCompile(`[.!?]["')]?(\s|$)`)
	abbreviations = strings.NewReplacer("e.g.", "eg", "i.e.", "ie", "etc.)", "etc)", "...", "…")
)

// sentences counts the sentences of a text: ends of sentences followed by
// a space or the end, leaving out abbreviations and the dots of versions,
// file names and code.
func sentences(text string) int {
	return len(sentenceEnd.FindAllString(abbreviations.Replace(strings.TrimSpace(text)), -1))
}

// frontMatterDescription returns the description: of a page's front
// matter, a `|-` block or a one-line value, and whether it has one.
func frontMatterDescription(page string) (string, bool) {
	rest, ok := strings.CutPrefix(page, "---\n")
	if !ok {
		return "", false
	}
	front, _, ok := strings.Cut(rest, "\n---")
	if !ok {
		return "", false
	}
	lines := strings.Split(front, "\n")
	for i, line := range lines {
		value, ok := strings.CutPrefix(line, "description:")
		if !ok {
			continue
		}
		value = strings.TrimSpace(value)
		if value != "|-" && value != "|" && value != ">-" && value != ">" {
			return strings.Trim(value, `"'`), true
		}
		var block []string
		for _, l := range lines[i+1:] {
			if l != "" && !strings.HasPrefix(l, " ") && !strings.HasPrefix(l, "{{") {
				break
			}
			block = append(block, strings.TrimSpace(l))
		}
		return strings.Join(block, " "), true
	}
	return "", false
}

// TestTemplatesFrontMatterDescriptions holds every front-matter
// description written in templates/ to maxFrontMatterSentences.
func TestTemplatesFrontMatterDescriptions(t *testing.T) {
	checked := 0
	err := filepath.WalkDir("templates", func(path string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() || !strings.Contains(d.Name(), ".md") {
			return err
		}
		desc, ok := frontMatterDescription(readDoc(t, path))
		if !ok || strings.Contains(desc, "{{") {
			return nil
		}
		checked++
		if n := sentences(desc); n > maxFrontMatterSentences {
			t.Errorf("%s: front-matter description of %d sentences (at most %d): say what the page is for, and leave the rest to the page", path, n, maxFrontMatterSentences)
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	if checked == 0 {
		t.Fatal("no front-matter description found under templates/")
	}
}

func TestFrontMatterDescription(t *testing.T) {
	tests := []struct {
		name, page, want string
		sentences        int
	}{
		{"block", "---\npage_title: \"x\"\ndescription: |-\n  One. Two, e.g. this.\n  Three 1.14 `a.csv`.\n---\nbody. more. text.", "One. Two, e.g. this. Three 1.14 `a.csv`.", 3},
		{"line", "---\ndescription: \"Short one.\"\n---\n", "Short one.", 1},
		{"four", "---\ndescription: |-\n  A. B. C. D.\n---\n", "A. B. C. D.", 4},
		{"ellipsis", "---\ndescription: \"Domains (campaigns, ...) and more.\"\n---\n", "Domains (campaigns, ...) and more.", 1},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, ok := frontMatterDescription(tt.page)
			if !ok || got != tt.want {
				t.Fatalf("got %q, %v; want %q", got, ok, tt.want)
			}
			if n := sentences(got); n != tt.sentences {
				t.Errorf("sentences(%q) = %d, want %d", got, n, tt.sentences)
			}
		})
	}
}
