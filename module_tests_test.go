package main

import (
	"context"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
	"time"

	"github.com/rms-labs/terraform-provider-rms/internal/acctest"
	"github.com/rms-labs/terraform-provider-rms/internal/emulator"
)

// moduleTestsDir is the module whose .tftest.hcl files the guide "Testing
// your configuration" shows.
const moduleTestsDir = "examples/modules/account-baseline"

// TestAccModuleTerraformTest runs `terraform test` on the test files the
// account-baseline module ships, the way the guide tells users to: the
// provider built from this tree through dev_overrides (no `terraform
// init`), the emulator's address and credentials in RMS_* variables for
// the file that applies for real, and no RMS_* variable at all for the one
// with a mock provider. Each file must pass with every one of its runs.
func TestAccModuleTerraformTest(t *testing.T) {
	if os.Getenv("TF_ACC") == "" {
		t.Skip("set TF_ACC=1 to run terraform test on the module's test files (make test does)")
	}
	cases := []struct {
		name, file string
		runs       int
		emulator   bool
	}{
		{name: "emulator", file: "tests/emulator.tftest.hcl", runs: 2, emulator: true},
		{name: "mock", file: "tests/mock.tftest.hcl", runs: 4},
	}
	// One build of the provider serves every case.
	cliConfig, _ := acctest.DevOverrides(t, t.TempDir())
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			tf := acctest.MustDetectCLI(t)
			if !tc.emulator {
				tf = acctest.RequireCLI(t, "mock providers in tests", "1.7.0", "1.8.0")
			}
			dir := filepath.Join(t.TempDir(), "account-baseline")
			if err := os.CopyFS(dir, os.DirFS(moduleTestsDir)); err != nil {
				t.Fatal(err)
			}

			env := environWithout("RMS_")
			var emu *acctest.Env
			if tc.emulator {
				emu = acctest.NewEnv(t, emulator.Options{})
				env = append(env,
					"RMS_BASE_URL="+emu.URL,
					fmt.Sprintf("RMS_CUSTOMER_ID=%d", emu.CustomerID),
					"RMS_USERNAME="+emu.Username,
					"RMS_PASSWORD="+emu.Password,
				)
			}
			env = append(env, "TF_CLI_CONFIG_FILE="+cliConfig, "CHECKPOINT_DISABLE=1", "TF_IN_AUTOMATION=1")

			ctx, cancel := context.WithTimeout(context.Background(), 5*time.Minute)
			defer cancel()
			cmd := exec.CommandContext(ctx, tf.Path, "test", "-no-color", "-filter="+tc.file)
			cmd.Dir, cmd.Env = dir, env
			out, err := cmd.CombinedOutput()
			if err != nil {
				t.Fatalf("%s test -filter=%s failed: %v\n%s", tf, tc.file, err, out)
			}
			if n := len(passedRun.FindAll(out, -1)); n != tc.runs {
				t.Errorf("%d runs passed, want %d:\n%s", n, tc.runs, out)
			}
			if want := fmt.Sprintf("Success! %d passed, 0 failed.", tc.runs); !strings.Contains(string(out), want) {
				t.Errorf("no %q in the output:\n%s", want, out)
			}

			if emu != nil {
				requireAppliedAndCleaned(t, emu)
			}
		})
	}
}

// passedRun is the line terraform test prints for each run that passed.
var passedRun = regexp.MustCompile(`(?m)^\s+run "[^"]+"\.\.\. pass$`)

// requireAppliedAndCleaned checks that the test really wrote to the
// emulator and that its teardown destroyed everything again.
func requireAppliedAndCleaned(t *testing.T, emu *acctest.Env) {
	t.Helper()
	if posts := emu.Emulator.Requests().ByMethod["POST"]; posts == 0 {
		t.Errorf("the emulator answered no POST: the test applied nothing")
	}
	for _, collection := range []string{"lists", "projects", "webhooks", "triggers"} {
		var left []map[string]any
		emu.MustDo(t, "GET", collection, nil, &left)
		if len(left) > 0 {
			t.Errorf("terraform test left %d %s in the emulator: %v", len(left), collection, left)
		}
	}
}

// environWithout is this process's environment less the variables whose
// names start with prefix.
func environWithout(prefix string) []string {
	var env []string
	for _, kv := range os.Environ() {
		if !strings.HasPrefix(kv, prefix) {
			env = append(env, kv)
		}
	}
	return env
}
