package main

import (
	"bytes"
	"io/fs"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"testing"

	"github.com/rms-labs/terraform-provider-rms/internal/acctest"
)

// newerCLIOnly names example files and folders that use features newer
// than the supported minimums (Terraform 1.11, OpenTofu 1.10), with the
// first version of each CLI that has them ("": none yet). Where the CLI
// running the test lacks the feature they are left out of validation;
// everything else must validate on every supported CLI.
//
// A folder named opentofu holds an example of a feature only OpenTofu has
// (provider for_each, say): under Terraform it is reported as not
// applicable (a skip naming the feature), under OpenTofu it is validated
// like any other. Its Terraform counterpart sits beside it, in a folder
// named terraform, and runs everywhere.
var newerCLIOnly = []struct {
	match               func(rel string) bool
	terraform, opentofu string // "": no release of that CLI has it (yet)
	why                 string
}{
	{isOpenTofuOnly, "", "1.9.0", "provider for_each (OpenTofu only)"},
	{func(rel string) bool { return filepath.Base(rel) == "import-by-identity.tf" }, "1.12.0", "", "import blocks by identity"},
	{func(rel string) bool { return strings.HasPrefix(filepath.ToSlash(rel), "actions/") }, "1.14.0", "", "actions"},
	// OpenTofu 1.10 has neither ephemeral blocks nor write-only attributes;
	// 1.11 is assumed to have them.
	{func(rel string) bool { return strings.HasPrefix(filepath.ToSlash(rel), "ephemeral-resources/") }, "1.10.0", "1.11.0", "ephemeral resources"},
	{func(rel string) bool { return filepath.Base(rel) == "resource-write-only.tf" }, "1.11.0", "1.11.0", "write-only attributes"},
	{func(rel string) bool { return strings.HasPrefix(filepath.ToSlash(rel), "provider-oauth2/") }, "1.10.0", "1.11.0", "ephemeral variables"},
}

// TestExamplesValidate runs `terraform validate` on every folder under
// examples/ that holds .tf files, against the provider built from this
// tree, so that no example on the Registry fails for a user who copies it.
// Each folder is copied to a temporary directory first; a folder without a
// required_providers block (the per-resource examples) gets one in the copy
// only. It runs with the acceptance tests (TF_ACC=1, as `make test` sets).
func TestExamplesValidate(t *testing.T) {
	if os.Getenv("TF_ACC") == "" {
		t.Skip("set TF_ACC=1 to validate the examples with terraform (make test does)")
	}
	tfCLI := acctest.MustDetectCLI(t)
	tf := tfCLI.Path

	work := t.TempDir()
	cliConfig, _ := acctest.DevOverrides(t, work)

	folders := exampleFolders(t, "examples")
	if len(folders) < 10 {
		t.Fatalf("found only %d example folders: %v", len(folders), folders)
	}
	for _, rel := range folders {
		// The import-*.tf files of a resource are alternative ways to import
		// the same resource (by string id, by identity): validate the folder
		// once with each, never with two at once.
		imports, err := filepath.Glob(filepath.Join("examples", rel, "import-*.tf"))
		if err != nil {
			t.Fatal(err)
		}
		variants := map[string]string{"": ""} // subtest suffix -> the import file kept
		if len(imports) > 0 {
			variants = map[string]string{}
			for _, f := range imports {
				variants["/"+strings.TrimSuffix(filepath.Base(f), ".tf")] = filepath.Base(f)
			}
		}
		for suffix, keep := range variants {
			t.Run(filepath.ToSlash(rel)+suffix, func(t *testing.T) {
				t.Parallel()
				// The copy keeps the example's place below examples/, so
				// that relative module sources lead to the modules copied
				// beside it.
				dir := filepath.Join(t.TempDir(), "examples", rel)
				include := func(name string) bool { return !strings.HasPrefix(name, "import-") || name == keep }
				if isOpenTofuOnly(filepath.Join(rel, "main.tf")) && tfCLI.Name != "OpenTofu" {
					t.Skipf("not applicable to %s: examples/%s shows a feature only OpenTofu has", tfCLI, rel)
				}
				copied := copyExample(t, filepath.Join("examples", rel), dir, rel, tfCLI, include)
				if copied == 0 {
					t.Skipf("every file of examples/%s needs a newer CLI than %s", rel, tfCLI)
				}
				copyLocalModules(t, filepath.Join("examples", rel), dir, rel)
				// validate needs the example's local modules installed;
				// `get` installs modules only (init would also look up
				// providers, which the dev overrides serve without a
				// registry), so it runs offline.
				if usesModules(t, dir) {
					run(t, dir, cliConfig, tf, "get", "-no-color")
				}
				if out, err := cliCommand(dir, cliConfig, tf, "validate", "-no-color").CombinedOutput(); err != nil { //nolint:misspell // terraform's flag
					t.Errorf("terraform validate rejects examples/%s (with %s):\n%s", rel, orAll(keep), withoutOverridesWarning(string(out)))
				}
			})
		}
	}
}

// isOpenTofuOnly reports whether rel (a file below examples/) is in a
// folder named opentofu: see newerCLIOnly.
func isOpenTofuOnly(rel string) bool {
	return filepath.Base(filepath.Dir(rel)) == "opentofu"
}

// cliCommand is the CLI run in dir with the dev overrides' configuration.
func cliCommand(dir, cliConfig, tf string, args ...string) *exec.Cmd {
	cmd := exec.Command(tf, args...)
	cmd.Dir = dir
	cmd.Env = append(os.Environ(), "TF_CLI_CONFIG_FILE="+cliConfig, "CHECKPOINT_DISABLE=1", "TF_IN_AUTOMATION=1")
	return cmd
}

// run runs the CLI in dir and fails the test when it fails.
func run(t *testing.T, dir, cliConfig, tf string, args ...string) {
	t.Helper()
	if out, err := cliCommand(dir, cliConfig, tf, args...).CombinedOutput(); err != nil {
		t.Fatalf("%s %s in %s: %v\n%s", filepath.Base(tf), strings.Join(args, " "), dir, err, withoutOverridesWarning(string(out)))
	}
}

// usesModules reports whether the .tf files in dir call a module.
func usesModules(t *testing.T, dir string) bool {
	t.Helper()
	files, err := filepath.Glob(filepath.Join(dir, "*.tf"))
	if err != nil {
		t.Fatal(err)
	}
	for _, f := range files {
		b, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		if moduleBlock.Match(b) {
			return true
		}
	}
	return false
}

var (
	moduleBlock = regexp.MustCompile(`(?m)^\s*module\s+"`)
	// localSource is a module source that is a relative path, which
	// Terraform and OpenTofu resolve against the calling folder.
	localSource = regexp.MustCompile(`(?m)^\s*source\s*=\s*"(\.\.?/[^"]*)"`)
)

// copyLocalModules copies, for each relative module source in the .tf
// files of src (the folder examples/rel), the module's folder to where the
// same relative path leads from dst, the copy of src at the same place
// below a temporary examples/, so that the copy finds its modules. Modules
// calling modules are followed. A source leading out of examples/ fails
// the test: an example must be whole in examples/ to be copied by users.
func copyLocalModules(t *testing.T, src, dst, rel string) {
	t.Helper()
	files, err := filepath.Glob(filepath.Join(src, "*.tf"))
	if err != nil {
		t.Fatal(err)
	}
	for _, f := range files {
		b, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		for _, m := range localSource.FindAllSubmatch(b, -1) {
			modRel := filepath.Join(rel, filepath.FromSlash(string(m[1])))
			if modRel == ".." || strings.HasPrefix(modRel, ".."+string(filepath.Separator)) {
				t.Fatalf("examples/%s calls module %s, outside examples/", rel, m[1])
			}
			modDst := filepath.Join(dst, filepath.FromSlash(string(m[1])))
			if _, err := os.Stat(modDst); err == nil {
				continue // copied for an earlier call
			}
			modSrc := filepath.Join(src, filepath.FromSlash(string(m[1])))
			if err := os.CopyFS(modDst, os.DirFS(modSrc)); err != nil {
				t.Fatal(err)
			}
			copyLocalModules(t, modSrc, modDst, modRel)
		}
	}
}

func orAll(keep string) string {
	if keep == "" {
		return "all its files"
	}
	return keep
}

// exampleFolders lists the folders under root that hold .tf files,
// relative to root.
func exampleFolders(t *testing.T, root string) []string {
	t.Helper()
	seen := map[string]bool{}
	err := filepath.WalkDir(root, func(path string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if d.IsDir() && (d.Name() == ".terraform") {
			return filepath.SkipDir
		}
		if !d.IsDir() && strings.HasSuffix(path, ".tf") {
			rel, err := filepath.Rel(root, filepath.Dir(path))
			if err != nil {
				return err
			}
			seen[rel] = true
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	var out []string
	for rel := range seen {
		out = append(out, rel)
	}
	slices.Sort(out)
	return out
}

// copyExample copies the .tf files of src that include accepts into dst,
// leaving out those that need a newer CLI than have, and adds a
// required_providers block when none of them has one. It returns the number
// of .tf files copied.
func copyExample(t *testing.T, src, dst, rel string, have acctest.CLI, include func(name string) bool) int {
	t.Helper()
	if err := os.MkdirAll(dst, 0o755); err != nil {
		t.Fatal(err)
	}
	entries, err := os.ReadDir(src)
	if err != nil {
		t.Fatal(err)
	}
	copied, hasRequired := 0, false
	for _, e := range entries {
		if e.IsDir() || !strings.HasSuffix(e.Name(), ".tf") || !include(e.Name()) {
			continue
		}
		if newer, why := needsNewer(filepath.Join(rel, e.Name()), have); newer {
			t.Logf("leaving out %s: %s need a newer CLI than %s", e.Name(), why, have)
			continue
		}
		b, err := os.ReadFile(filepath.Join(src, e.Name()))
		if err != nil {
			t.Fatal(err)
		}
		hasRequired = hasRequired || bytes.Contains(b, []byte("required_providers"))
		if err := os.WriteFile(filepath.Join(dst, e.Name()), b, 0o644); err != nil {
			t.Fatal(err)
		}
		copied++
	}
	if copied > 0 && !hasRequired {
		block := "terraform {\n  required_providers {\n    rms = {\n      source = \"rms-labs/rms\"\n    }\n  }\n}\n"
		if err := os.WriteFile(filepath.Join(dst, "zz_required_providers.tf"), []byte(block), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	return copied
}

func needsNewer(rel string, have acctest.CLI) (bool, string) {
	for _, n := range newerCLIOnly {
		if n.match(rel) && !have.Has(n.terraform, n.opentofu) {
			return true, n.why
		}
	}
	return false, ""
}

// withoutOverridesWarning drops the dev_overrides warning from terraform's
// output, which every run prints and which would bury the real message.
func withoutOverridesWarning(out string) string {
	start := strings.Index(out, "Warning: Provider development overrides are in effect")
	if start < 0 {
		return out
	}
	end := strings.Index(out[start:], "releases.")
	if end < 0 {
		return out
	}
	return strings.TrimSpace(out[:start] + out[start+end+len("releases."):])
}
