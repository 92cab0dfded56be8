package acctest

import (
	"context"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"strconv"
	"testing"
	"time"
)

// ProviderModule is the provider's module path, which `go build` builds.
const ProviderModule = "github.com/rms-labs/terraform-provider-rms"

// DevOverrides builds the provider as users run it (a binary, not the
// in-process server of ProviderFactories) into a fresh folder and writes,
// in dir, a CLI configuration whose dev_overrides point Terraform and
// OpenTofu at it. It returns the configuration's path, for
// TF_CLI_CONFIG_FILE, and the provider binary's path. Tests that must run
// the CLI by hand (terraform query -generate-config-out, apply -invoke,
// a signal to terraform) use it. Without TF_ACC it skips the test before
// building anything.
func DevOverrides(t testing.TB, dir string) (cliConfig, provider string) {
	t.Helper()
	SkipUnlessAcceptance(t)
	bin := t.TempDir()
	provider = filepath.Join(bin, "terraform-provider-rms")
	if runtime.GOOS == "windows" {
		provider += ".exe"
	}
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Minute)
	defer cancel()
	if out, err := exec.CommandContext(ctx, "go", "build", "-o", provider, ProviderModule).CombinedOutput(); err != nil {
		t.Fatalf("building the provider: %v\n%s", err, out)
	}
	// OpenTofu resolves "rms-labs/rms" on its own registry.
	rc := "provider_installation {\n  dev_overrides {\n" +
		"    \"registry.terraform.io/rms-labs/rms\" = " + strconv.Quote(bin) + "\n" +
		"    \"registry.opentofu.org/rms-labs/rms\" = " + strconv.Quote(bin) + "\n" +
		"  }\n  direct {}\n}\n"
	cliConfig = filepath.Join(dir, "terraformrc")
	if err := os.WriteFile(cliConfig, []byte(rc), 0o600); err != nil {
		t.Fatal(err)
	}
	return cliConfig, provider
}

// RequireCLI is MustDetectCLI that also skips the test where the CLI lacks
// feature (first Terraform and OpenTofu versions as for SkipWithout).
func RequireCLI(t testing.TB, feature, terraform, opentofu string) CLI {
	t.Helper()
	c := MustDetectCLI(t)
	if !c.Has(terraform, opentofu) {
		t.Skipf("%s lacks %s (%s); make test-latest runs this test", c, feature, firstVersions(terraform, opentofu))
	}
	return c
}

// FilesystemMirror builds the provider as DevOverrides does, lays it out as
// a filesystem mirror (the unpacked layout) under version 0.0.1, and writes
// in dir a CLI configuration that installs rms-labs/rms from that mirror
// only, for Terraform and OpenTofu alike. It returns the configuration's
// path, for TF_CLI_CONFIG_FILE. Unlike dev_overrides, a mirror survives
// `terraform init`, which a configuration calling modules needs: use it
// where a test runs the CLI on such a configuration, or needs the CLI to
// start the provider as its own process per provider block (aliased blocks
// configured apart), which the in-process ProviderFactories cannot do.
func FilesystemMirror(t testing.TB, dir string) (cliConfig string) {
	t.Helper()
	SkipUnlessAcceptance(t)
	_, built := DevOverrides(t, t.TempDir())
	mirror := t.TempDir()
	const version = "0.0.1"
	name := "terraform-provider-rms_v" + version
	if runtime.GOOS == "windows" {
		name += ".exe"
	}
	b, err := os.ReadFile(built)
	if err != nil {
		t.Fatal(err)
	}
	for _, host := range []string{"registry.terraform.io", "registry.opentofu.org"} {
		d := filepath.Join(mirror, host, "rms-labs", "rms", version, runtime.GOOS+"_"+runtime.GOARCH)
		if err := os.MkdirAll(d, 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(filepath.Join(d, name), b, 0o755); err != nil { //nolint:gosec // a plugin must be executable
			t.Fatal(err)
		}
	}
	rc := "provider_installation {\n  filesystem_mirror {\n    path    = " + strconv.Quote(mirror) + "\n" +
		"    include = [\"registry.terraform.io/rms-labs/rms\", \"registry.opentofu.org/rms-labs/rms\"]\n  }\n" +
		"  direct {\n    exclude = [\"registry.terraform.io/rms-labs/rms\", \"registry.opentofu.org/rms-labs/rms\"]\n  }\n}\n"
	cliConfig = filepath.Join(dir, "terraformrc-mirror")
	if err := os.WriteFile(cliConfig, []byte(rc), 0o600); err != nil {
		t.Fatal(err)
	}
	return cliConfig
}
