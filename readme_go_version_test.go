package main

import (
	"os"
	"regexp"
	"testing"
)

// TestDocsGoVersionMatchesGoMod keeps the Go version README.md and the
// getting-started guide ask for equal to go.mod's go line, which is what
// the toolchain enforces.
func TestDocsGoVersionMatchesGoMod(t *testing.T) {
	mod, err := os.ReadFile("go.mod")
	if err != nil {
		t.Fatal(err)
	}
	m := regexp.MustCompile(`(?m)^go (\S+)$`).FindSubmatch(mod)
	if m == nil {
		t.Fatal("go.mod has no go line")
	}
	want := string(m[1])
	asked := regexp.MustCompile(`Go \(?(\d+\.\d+(?:\.\d+)?) or newer`)
	for _, name := range []string{"README.md", "templates/guides/getting-started.md.tmpl"} {
		raw, err := os.ReadFile(name)
		if err != nil {
			t.Fatal(err)
		}
		found := asked.FindAllSubmatch(raw, -1)
		if len(found) == 0 {
			t.Errorf("%s names no Go version (\"Go X.Y.Z or newer\")", name)
		}
		for _, f := range found {
			if string(f[1]) != want {
				t.Errorf("%s asks for Go %s or newer; go.mod says %s", name, f[1], want)
			}
		}
	}
}
