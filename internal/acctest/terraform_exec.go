package acctest

import (
	"os"
	"strings"
	"testing"

	"github.com/hashicorp/terraform-exec/tfexec"
)

// SetTerraformExecEnv gives tf this process's environment, less what
// terraform-exec refuses to pass on, with the CLI configuration cliConfig
// (from DevOverrides or FilesystemMirror) and no version-check calls: the
// one set-up of every test that drives the CLI through terraform-exec.
func SetTerraformExecEnv(t testing.TB, tf *tfexec.Terraform, cliConfig string) {
	t.Helper()
	env := map[string]string{}
	for _, kv := range os.Environ() {
		k, v, _ := strings.Cut(kv, "=")
		env[k] = v
	}
	for _, k := range tfexec.ProhibitedEnv(env) {
		delete(env, k)
	}
	env["TF_CLI_CONFIG_FILE"] = cliConfig
	env["CHECKPOINT_DISABLE"] = "1"
	if err := tf.SetEnv(env); err != nil {
		t.Fatalf("setting terraform's environment: %v", err)
	}
}
