package provider_test

import (
	"context"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/rms-labs/terraform-provider-rms/internal/acctest"
	"github.com/rms-labs/terraform-provider-rms/internal/emulator"
)

// How many credentials checks each command sends, with the provider run as
// users run it (a binary under dev_overrides, a process per command):
// one per ConfigureProvider call. `terraform validate` configures nothing;
// a plan and an import configure once; an apply twice (its plan, then its
// apply); a plan -destroy twice (it refreshes with a normal plan first,
// then plans the destroy), so a destroy three times. The
// configuration manages no project, so the requests on "projects" are the
// checks.
func TestAccCredentialsCheck_perCommand(t *testing.T) {
	acctest.SkipUnlessAcceptance(t)
	cli := acctest.MustDetectCLI(t)
	t.Parallel()
	env := acctest.NewEnv(t, emulator.Options{})
	work := t.TempDir()
	cliConfig, _ := acctest.DevOverrides(t, work)
	run := func(args ...string) string {
		t.Helper()
		out, err := runCLI(cli, work, cliConfig, args...)
		if err != nil {
			t.Fatalf("%s %v: %v\n%s", cli.Name, args, err, out)
		}
		return out
	}
	writeFile(t, filepath.Join(work, "main.tf"), requireRMS+env.ProviderBlock()+createOnlyList+"\n"+`resource "rms_list" "imported" { name = "Made elsewhere" }`+"\n")
	var made map[string]any
	env.MustDo(t, "POST", "lists", map[string]any{"name": "Made elsewhere"}, &made)

	checks := func() int64 { return env.Emulator.Requests().ByCollection["projects"] }
	for _, step := range []struct {
		args []string
		want int64
	}{
		{[]string{"validate", "-no-color"}, 0},
		{[]string{"plan", "-input=false", "-no-color"}, 1},
		{[]string{"import", "-input=false", "-no-color", "rms_list.imported", fmt.Sprint(made["id"])}, 1},
		{[]string{"apply", "-auto-approve", "-input=false", "-no-color"}, 2},
		{[]string{"plan", "-destroy", "-input=false", "-no-color"}, 2},
		{[]string{"destroy", "-auto-approve", "-input=false", "-no-color"}, 3},
	} {
		before := checks()
		out := run(step.args...)
		got := checks() - before
		// OpenTofu may configure the provider on its own schedule; the
		// figures asserted exactly are Terraform's.
		if got != step.want && (cli.Name != "OpenTofu" || step.want == 0 || got == 0) {
			t.Errorf("%s %v sent %d credentials checks, want %d\n%s", cli, step.args, got, step.want, out)
		}
	}
	if st := env.Emulator.Requests(); st.ByStatus[401]+st.ByStatus[403] != 0 {
		t.Errorf("refused requests: %v", st.ByStatus)
	}
}

// requireRMS is the terraform block of a configuration the CLI runs on a
// provider under dev_overrides.
const requireRMS = "terraform {\n  required_providers {\n    rms = { source = \"rms-labs/rms\" }\n  }\n}\n"

// runCLI runs the CLI in dir with the CLI configuration of DevOverrides.
func runCLI(cli acctest.CLI, dir, cliConfig string, args ...string) (string, error) {
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Minute)
	defer cancel()
	cmd := exec.CommandContext(ctx, cli.Path, args...)
	cmd.Dir = dir
	cmd.Env = append(os.Environ(), "TF_CLI_CONFIG_FILE="+cliConfig, "CHECKPOINT_DISABLE=1", "TF_IN_AUTOMATION=1")
	out, err := cmd.CombinedOutput()
	return string(out), err
}

// A check that gets no answer about the credentials (the service fails
// after the retries, or cannot be reached) warns and lets the plan go on:
// it proves nothing either way, and `plan -refresh=false` must work while
// the service is away. Warnings are the CLI's output, so the CLI runs here.
func TestAccCredentialsCheck_noAnswerWarns(t *testing.T) {
	acctest.SkipUnlessAcceptance(t)
	cli := acctest.MustDetectCLI(t)
	t.Parallel()
	cliConfig, _ := acctest.DevOverrides(t, t.TempDir())
	failing := acctest.NewEnv(t, emulator.Options{Faults: emulator.FaultOptions{Rate: 1, Kinds: []string{emulator.FaultUnavailable}, RetryAfter: time.Millisecond}})
	for name, tc := range map[string]struct {
		provider string
		want     []string
	}{
		"service failing": {
			provider: providerWith(failing, map[string]string{"max_retries": "1"}),
			want:     []string{"Warning: Unable to check the credentials", "503", "retry later", "got no answer about them"},
		},
		"service unreachable": {
			provider: providerWith(failing, map[string]string{"base_url": `"http://127.0.0.1:9"`, "max_retries": "0"}),
			want:     []string{"Warning: Unable to check the credentials", "connection refused", "check that base_url (or RMS_BASE_URL) names the account's server", "got no answer about them"},
		},
		"token endpoint unreachable": {
			provider: providerWith(failing, map[string]string{"max_retries": "0", "username": "", "password": "",
				"oauth2": `{ token_url = "http://127.0.0.1:9/token", client_id = "ci", client_secret = "s3cret" }`}),
			want: []string{"Warning: Unable to check the credentials", "connection refused", "The token endpoint could not be reached: check that oauth2.token_url (or RMS_OAUTH2_TOKEN_URL) names it", "got no answer about them"},
		},
	} {
		t.Run(name, func(t *testing.T) {
			work := t.TempDir()
			writeFile(t, filepath.Join(work, "main.tf"), requireRMS+tc.provider+createOnlyList+"\n")
			out, err := runCLI(cli, work, cliConfig, "plan", "-input=false", "-no-color")
			if err != nil {
				t.Fatalf("the plan failed: %v\n%s", err, out)
			}
			if !acctest.ExpectErrorParts(tc.want...).MatchString(out) {
				t.Errorf("the plan's output lacks %q:\n%s", tc.want, out)
			}
			if !strings.Contains(out, "Plan: 1 to add") {
				t.Errorf("the plan did not go on:\n%s", out)
			}
		})
	}
}

// Each provider configuration checks its own credentials: with one aliased
// block per account (the fleet guide's shape), a plan sends one check to
// each account, so N aliases cost N checks each time Terraform configures
// them; a block no resource uses is not configured and checks nothing.
func TestAccCredentialsCheck_perAlias(t *testing.T) {
	acctest.SkipUnlessAcceptance(t)
	cli := acctest.MustDetectCLI(t)
	t.Parallel()
	envs := acctest.NewAccountEnvs(t,
		emulator.Options{CustomerID: 4001, Username: "a-api", Password: "a-password"},
		emulator.Options{CustomerID: 4002, Username: "b-api", Password: "b-password"},
		emulator.Options{CustomerID: 4003, Username: "c-api", Password: "c-password"},
		emulator.Options{CustomerID: 4004, Username: "unused-api", Password: "unused-password"})
	work := t.TempDir()
	cliConfig, _ := acctest.DevOverrides(t, work)
	var cfg strings.Builder
	cfg.WriteString(requireRMS)
	for i, env := range envs {
		fmt.Fprintf(&cfg, `
provider "rms" {
  alias       = "a%[1]d"
  base_url    = %[2]q
  customer_id = %[3]d
  username    = %[4]q
  password    = %[5]q
}
`, i, env.URL, env.CustomerID, env.Username, env.Password)
		if i < 3 {
			fmt.Fprintf(&cfg, "resource \"rms_list\" \"l%[1]d\" {\n  provider = rms.a%[1]d\n  name     = \"L\"\n}\n", i)
		}
	}
	writeFile(t, filepath.Join(work, "main.tf"), cfg.String())
	if out, err := runCLI(cli, work, cliConfig, "plan", "-input=false", "-no-color"); err != nil {
		t.Fatalf("plan: %v\n%s", err, out)
	}
	for i, env := range envs {
		want := int64(1)
		if i == 3 {
			if cli.Name == "OpenTofu" {
				continue // OpenTofu may configure a block no resource uses
			}
			want = 0
		}
		if err := onlyChecks(env, want); err != nil {
			t.Errorf("account %d: %v", env.CustomerID, err)
		}
	}
}
