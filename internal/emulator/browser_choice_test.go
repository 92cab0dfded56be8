package emulator

import (
	"errors"
	"fmt"
	"os/exec"
	"strings"
	"testing"
)

// requireBrowserEnv, when set (make test and .ci/run set it), makes a
// missing browser fail the page tests instead of skipping them: the gate
// must check the page, while make unit installs nothing and runs them only
// where a browser already is.
const requireBrowserEnv = "RMS_REQUIRE_BROWSER"

// browserNames are the binaries looked for on PATH, in order, when
// browserEnv names none.
var browserNames = []string{"chromium", "chromium-browser", "google-chrome", "google-chrome-stable"}

// chooseBrowser decides how the page tests get their browser: the binary
// browserEnv names (named; a name that does not resolve is an error), else
// the first of browserNames on PATH. With none, it returns a reason to skip,
// unless required (requireBrowserEnv), where it is an error.
func chooseBrowser(named string, required bool, lookPath func(string) (string, error)) (path, skip string, err error) {
	if named != "" {
		path, err := lookPath(named)
		if err != nil {
			return "", "", fmt.Errorf("%s=%s: %w; unset it to use chromium from PATH (apt-get install -y --no-install-recommends chromium)", browserEnv, named, err)
		}
		return path, "", nil
	}
	for _, name := range browserNames {
		if path, err := lookPath(name); err == nil {
			return path, "", nil
		}
	}
	const how = "install it (Debian/Ubuntu: apt-get install -y --no-install-recommends chromium) " +
		"or point " + browserEnv + " at a Chromium or Chrome binary"
	if required {
		return "", "", errors.New("no Chromium to test the interactive documentation with (" + requireBrowserEnv + " is set): " + how +
			"; scripts/chromium.sh finds or installs one")
	}
	return "", "no Chromium on PATH and " + browserEnv + " unset, so the browser test of the interactive documentation did not run: " +
		how + ", or run make test, which installs one", nil
}

// Where the page tests' browser comes from, and what they do without one:
// make unit skips them and says how to run them, make test fails.
func TestChooseBrowser(t *testing.T) {
	onPath := func(names ...string) func(string) (string, error) {
		return func(name string) (string, error) {
			for _, n := range names {
				if n == name {
					return "/usr/bin/" + name, nil
				}
			}
			return "", exec.ErrNotFound
		}
	}
	for name, tc := range map[string]struct {
		named    string
		required bool
		path     []string
		want     string
		skip     bool
		fails    bool
	}{
		"the first one on PATH":                 {path: []string{"google-chrome", "chromium"}, want: "/usr/bin/chromium"},
		"another name on PATH":                  {path: []string{"google-chrome-stable"}, want: "/usr/bin/google-chrome-stable"},
		"the one named, before PATH":            {named: "google-chrome", path: []string{"chromium", "google-chrome"}, want: "/usr/bin/google-chrome"},
		"none: make unit skips and says so":     {skip: true},
		"none, required: make test fails":       {required: true, fails: true},
		"named but missing fails, even in unit": {named: "/opt/chrome", path: []string{"chromium"}, fails: true},
		"required and present runs as anywhere": {required: true, path: []string{"chromium"}, want: "/usr/bin/chromium"},
		"named but missing fails when required": {named: "nope", required: true, fails: true},
	} {
		t.Run(name, func(t *testing.T) {
			t.Parallel()
			path, skip, err := chooseBrowser(tc.named, tc.required, onPath(tc.path...))
			if (err != nil) != tc.fails {
				t.Fatalf("err = %v, want failure %v", err, tc.fails)
			}
			if (skip != "") != tc.skip {
				t.Fatalf("skip = %q, want a skip %v", skip, tc.skip)
			}
			if path != tc.want {
				t.Errorf("path = %q, want %q", path, tc.want)
			}
			// Whoever reads a skip or a failure learns how to run the test.
			for _, msg := range []string{skip, fmt.Sprint(err)} {
				if msg != "" && msg != "<nil>" && !containsAll(msg, browserEnv, "chromium") {
					t.Errorf("message %q does not say how to run the test", msg)
				}
			}
			if tc.skip && !containsAll(skip, "make test") {
				t.Errorf("skip %q does not name make test", skip)
			}
		})
	}
}

func containsAll(s string, parts ...string) bool {
	for _, p := range parts {
		if !strings.Contains(s, p) {
			return false
		}
	}
	return true
}
