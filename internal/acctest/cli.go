package acctest

import (
	"context"
	"fmt"
	"os"
	"os/exec"
	"regexp"
	"testing"

	goversion "github.com/hashicorp/go-version"
	"github.com/hashicorp/terraform-plugin-testing/tfversion"
)

// CLI is the Terraform-compatible command line the acceptance tests drive:
// TF_ACC_TERRAFORM_PATH (Main sets it from PATH when unset).
type CLI struct {
	Path string
	// Name is "Terraform" or "OpenTofu".
	Name    string
	Version *goversion.Version
}

func (c CLI) String() string { return c.Name + " " + c.Version.String() }

// cliVersionLine finds the version line anywhere in the output ((?m)):
// OpenTofu 1.12 prints CLI configuration warnings on stdout before it.
var cliVersionLine = regexp.MustCompile(`(?m)^(Terraform|OpenTofu) v(\S+)`)

// DetectCLI runs `<TF_ACC_TERRAFORM_PATH> version` and reads which CLI it is.
func DetectCLI(ctx context.Context) (CLI, error) {
	p := os.Getenv("TF_ACC_TERRAFORM_PATH")
	if p == "" {
		lp, err := exec.LookPath("terraform")
		if err != nil {
			return CLI{}, fmt.Errorf("neither TF_ACC_TERRAFORM_PATH nor a terraform on PATH: %w", err)
		}
		p = lp
	}
	out, err := exec.CommandContext(ctx, p, "version").Output()
	if err != nil {
		return CLI{}, fmt.Errorf("running %s version: %w", p, err)
	}
	c, err := parseCLIVersion(out)
	if err != nil {
		return CLI{}, fmt.Errorf("%s version: %w", p, err)
	}
	c.Path = p
	return c, nil
}

// parseCLIVersion reads the name and version out of what `version` printed.
func parseCLIVersion(out []byte) (CLI, error) {
	m := cliVersionLine.FindSubmatch(out)
	if m == nil {
		return CLI{}, fmt.Errorf("printed %q, not Terraform or OpenTofu", out)
	}
	v, err := goversion.NewVersion(string(m[2]))
	if err != nil {
		return CLI{}, err
	}
	return CLI{Name: string(m[1]), Version: v}, nil
}

// MustDetectCLI is DetectCLI that fails the test on error. Without TF_ACC
// it skips the test, as terraform-plugin-testing skips acceptance tests.
func MustDetectCLI(t testing.TB) CLI {
	t.Helper()
	SkipUnlessAcceptance(t)
	c, err := DetectCLI(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	return c
}

// Has reports whether c has a feature that came in Terraform terraform and
// OpenTofu opentofu ("" when no OpenTofu release has it yet).
func (c CLI) Has(terraform, opentofu string) bool {
	first := terraform
	if c.Name == "OpenTofu" {
		first = opentofu
	}
	if first == "" {
		return false
	}
	return !c.Version.Core().LessThan(goversion.Must(goversion.NewVersion(first)))
}

// SkipWithout is a version check (for TestCase.TerraformVersionChecks) that
// skips the test where the CLI lacks feature: Terraform older than
// terraform, OpenTofu older than opentofu ("" when no OpenTofu has it).
// tfversion.SkipBelow cannot tell the two apart: OpenTofu 1.10 reports
// 1.10 but lacks features Terraform 1.10 and 1.11 have.
func SkipWithout(feature, terraform, opentofu string) tfversion.TerraformVersionCheck {
	return skipWithout{feature: feature, terraform: terraform, opentofu: opentofu}
}

type skipWithout struct{ feature, terraform, opentofu string }

func (s skipWithout) CheckTerraformVersion(ctx context.Context, _ tfversion.CheckTerraformVersionRequest, resp *tfversion.CheckTerraformVersionResponse) {
	c, err := DetectCLI(ctx)
	if err != nil {
		resp.Error = err
		return
	}
	if !c.Has(s.terraform, s.opentofu) {
		resp.Skip = fmt.Sprintf("%s lacks %s (%s)", c, s.feature, firstVersions(s.terraform, s.opentofu))
	}
}

// firstVersions says which CLIs have a feature, for skip messages.
func firstVersions(terraform, opentofu string) string {
	if opentofu == "" {
		return "Terraform " + terraform + "+, no OpenTofu yet"
	}
	return "Terraform " + terraform + "+, OpenTofu " + opentofu + "+"
}

// Features of the CLI some tests need, with the first Terraform and
// OpenTofu versions that have them.
var (
	// SkipWithoutEphemeral: ephemeral resources, variables and outputs.
	SkipWithoutEphemeral = SkipWithout("ephemeral resources and variables", "1.10.0", "1.11.0")
	// SkipWithoutWriteOnly: write-only attributes.
	SkipWithoutWriteOnly = SkipWithout("write-only attributes", "1.11.0", "1.11.0")
	// SkipWithoutActions: actions and action_trigger.
	SkipWithoutActions = SkipWithout("actions", "1.14.0", "")
	// SkipWithoutDestroyActions: the before_destroy and after_destroy
	// events of action_trigger, and its on_failure.
	SkipWithoutDestroyActions = SkipWithout("before_destroy, after_destroy and on_failure of action_trigger", "1.16.0", "")
	// SkipWithoutCrossTypeMoved: a moved block whose from and to are of
	// different resource types, which the provider converts
	// (MoveResourceState): Terraform 1.8, OpenTofu 1.10 (opentofu#2370).
	SkipWithoutCrossTypeMoved = SkipWithout("moved blocks between resource types", "1.8.0", "1.10.0")
)
