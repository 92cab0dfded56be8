package acctest

import (
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"testing"

	"github.com/rms-labs/terraform-provider-rms/internal/logging"
)

// Main prepares the environment for acceptance tests and runs them. Use it
// from TestMain. It points terraform-plugin-testing at the terraform binary
// on PATH (it must never download one), disables Terraform's version check,
// and gives Terraform a CLI configuration of its own, because the machine's
// TF_CLI_CONFIG_FILE may name a file that does not exist.
func Main(m *testing.M) {
	if err := setUp(); err != nil {
		fmt.Fprintln(os.Stderr, "acctest:", err)
		os.Exit(2)
	}
	os.Exit(m.Run())
}

func setUp() error {
	if os.Getenv("TF_ACC") == "" {
		return nil
	}
	if os.Getenv("TF_ACC_TERRAFORM_PATH") == "" {
		tf, err := exec.LookPath("terraform")
		if err != nil {
			return fmt.Errorf("terraform is not on PATH: install Terraform 1.11.4 or newer, or set TF_ACC_TERRAFORM_PATH to a terraform binary (the tests never download one)")
		}
		if err := os.Setenv("TF_ACC_TERRAFORM_PATH", tf); err != nil {
			return err
		}
	}
	if os.Getenv("TF_ACC_TERRAFORM_VERSION") != "" {
		return fmt.Errorf("TF_ACC_TERRAFORM_VERSION is set, which makes terraform-plugin-testing download Terraform; unset it and use TF_ACC_TERRAFORM_PATH")
	}
	_ = os.Setenv("CHECKPOINT_DISABLE", "1")
	// Every terraform the tests start inherits this environment. A suite
	// runs several of them at once on a few cores, and each Go runtime
	// spreading its start-up and GC over every core costs more than it
	// gains: one P per terraform took 17% less CPU over the same steps
	// (BENCHMARKS.md, "Acceptance suite"). The test binary read its own
	// GOMAXPROCS at start, so it keeps every core. A GOMAXPROCS the caller
	// set is left alone.
	if os.Getenv("GOMAXPROCS") == "" {
		_ = os.Setenv("GOMAXPROCS", "1")
	}
	// The provider runs in this process, not through main, so it would
	// format every plugin SDK TRACE line that nobody reads: the same rule
	// as main's (internal/logging) switches them off when neither TF_LOG nor
	// TF_LOG_PROVIDER asks for provider logs; 6 to 10% less wall time over
	// the same steps. A test that reads the logs sets the levels itself.
	if err := logging.QuietUnreadLogs(false); err != nil {
		return err
	}
	if cfg := os.Getenv("TF_CLI_CONFIG_FILE"); cfg == "" || !fileExists(cfg) {
		dir, err := os.MkdirTemp("", "rms-acctest-cli")
		if err != nil {
			return err
		}
		path := filepath.Join(dir, "terraformrc")
		if err := os.WriteFile(path, []byte("# written by internal/acctest\n"), 0o600); err != nil {
			return err
		}
		_ = os.Setenv("TF_CLI_CONFIG_FILE", path)
	}
	return nil
}

func fileExists(p string) bool {
	_, err := os.Stat(p)
	return err == nil
}
