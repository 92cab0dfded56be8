package bench

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"time"
)

// Terraform runs the terraform CLI with the provider built from this
// repository, found through dev_overrides in a CLI configuration of its own
// (the user's ~/.terraformrc is never read).
type Terraform struct {
	Bin         string // the terraform binary
	Version     string // e.g. "1.11.4"
	ProviderDir string // holds terraform-provider-rms
	env         []string
}

// ProviderBinaryName is the file name dev_overrides finds the provider by.
const ProviderBinaryName = "terraform-provider-rms"

// Setup builds the provider from the module at root into dir/bin (once) and
// writes dir/terraformrc pointing Terraform at it. terraformBin is the
// terraform binary to run; empty means the one on PATH.
func Setup(ctx context.Context, root, dir, terraformBin string) (*Terraform, error) {
	bin := terraformBin
	if bin == "" {
		var err error
		if bin, err = exec.LookPath("terraform"); err != nil {
			return nil, errors.New("terraform is not on PATH: install Terraform 1.11.4 or newer, or name a binary with -terraform / BENCH_TERRAFORM")
		}
	}
	tf := &Terraform{Bin: bin, ProviderDir: filepath.Join(dir, "bin")}
	out, err := exec.CommandContext(ctx, bin, "version", "-json").Output()
	if err != nil {
		return nil, fmt.Errorf("terraform version: %w", err)
	}
	var v struct {
		Version string `json:"terraform_version"`
	}
	if err := json.Unmarshal(out, &v); err != nil {
		return nil, fmt.Errorf("terraform version -json: %w", err)
	}
	tf.Version = v.Version

	build := exec.CommandContext(ctx, "go", "build", "-trimpath", "-o", filepath.Join(tf.ProviderDir, ProviderBinaryName), ".")
	build.Dir = root
	if out, err := build.CombinedOutput(); err != nil {
		return nil, fmt.Errorf("building the provider: %w\n%s", err, out)
	}
	rc := filepath.Join(dir, "terraformrc")
	cfg := fmt.Sprintf("provider_installation {\n  dev_overrides {\n    %q = %q\n  }\n  direct {}\n}\n",
		"registry.terraform.io/rms-labs/rms", tf.ProviderDir)
	if err := os.WriteFile(rc, []byte(cfg), 0o600); err != nil {
		return nil, err
	}
	for _, kv := range os.Environ() {
		k, _, _ := strings.Cut(kv, "=")
		// Settings of the caller's environment that would change what is
		// measured (logging, another CLI config, provider credentials).
		if k == "TF_CLI_CONFIG_FILE" || strings.HasPrefix(k, "TF_LOG") || strings.HasPrefix(k, "RMS_") ||
			k == "TF_CLI_ARGS" || strings.HasPrefix(k, "TF_CLI_ARGS_") || k == "TF_PLUGIN_CACHE_DIR" {
			continue
		}
		tf.env = append(tf.env, kv)
	}
	tf.env = append(tf.env, "TF_CLI_CONFIG_FILE="+rc, "CHECKPOINT_DISABLE=1", "TF_IN_AUTOMATION=1", "TF_INPUT=0")
	return tf, nil
}

// Workspace is a directory holding one configuration and its state.
type Workspace struct {
	Dir string
	tf  *Terraform
	env []string
}

// Workspace creates an empty working directory below parent; extra
// environment variables (KEY=value) apply to every command run there.
func (tf *Terraform) Workspace(parent, name string, extra ...string) (*Workspace, error) {
	dir := filepath.Join(parent, name)
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return nil, err
	}
	return &Workspace{Dir: dir, tf: tf, env: append(append([]string{}, tf.env...), extra...)}, nil
}

// WriteConfig replaces the workspace's configuration with main.tf.
func (w *Workspace) WriteConfig(hcl string) error {
	return os.WriteFile(filepath.Join(w.Dir, "main.tf"), []byte(hcl), 0o644)
}

// Run is the outcome of one terraform command.
type Run struct {
	Args     []string
	Wall     time.Duration
	ExitCode int
	// ProviderPeakRSS is the largest VmHWM (bytes) of any provider process
	// Terraform started during the command; ProviderProcesses counts them
	// and ProviderCPU is their CPU time (user + system), as last sampled.
	ProviderPeakRSS   int64
	ProviderProcesses int
	ProviderCPU       time.Duration
	// TerraformCPU is the CPU time of terraform and of the children it
	// waited for (the provider processes), from wait4.
	TerraformCPU time.Duration
	// HarnessCPU is this process's CPU time during the command: mostly the
	// emulator answering the provider.
	HarnessCPU time.Duration
	Output     string // combined output, kept only on failure
}

// Command is the command line as a user would type it.
func (r Run) Command() string { return "terraform " + strings.Join(r.Args, " ") }

// Run runs terraform with args in the workspace, timing it and sampling the
// memory of the provider processes it starts. A non-zero exit code is not an
// error here (plan -detailed-exitcode uses 2); the caller judges it.
func (w *Workspace) Run(ctx context.Context, args ...string) (Run, error) {
	return w.run(ctx, nil, args)
}

func (w *Workspace) run(ctx context.Context, env, args []string) (Run, error) {
	cmd := exec.CommandContext(ctx, w.tf.Bin, args...)
	cmd.Dir = w.Dir
	cmd.Env = append(append([]string{}, w.env...), env...)
	var out bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &out
	r := Run{Args: args}
	selfBefore := selfCPU()
	start := time.Now()
	if err := cmd.Start(); err != nil {
		return r, fmt.Errorf("starting terraform %s: %w", strings.Join(args, " "), err)
	}
	sampler := newProcSampler(cmd.Process.Pid, ProviderBinaryName)
	stop := sampler.run(20 * time.Millisecond)
	err := cmd.Wait()
	r.Wall = time.Since(start)
	stop()
	r.HarnessCPU = selfCPU() - selfBefore
	r.ProviderPeakRSS, r.ProviderCPU, r.ProviderProcesses = sampler.result()
	if cmd.ProcessState != nil {
		r.TerraformCPU = cmd.ProcessState.UserTime() + cmd.ProcessState.SystemTime()
	}
	var exit *exec.ExitError
	switch {
	case errors.As(err, &exit):
		r.ExitCode = exit.ExitCode()
	case err != nil:
		return r, fmt.Errorf("terraform %s: %w", strings.Join(args, " "), err)
	}
	if r.ExitCode != 0 {
		r.Output = out.String()
	}
	return r, nil
}

// MustSucceed runs a command that must exit with want.
func (w *Workspace) MustSucceed(ctx context.Context, want int, args ...string) (Run, error) {
	return w.RunEnv(ctx, nil, want, args...)
}

// RunEnv is MustSucceed with extra environment variables (KEY=value).
func (w *Workspace) RunEnv(ctx context.Context, env []string, want int, args ...string) (Run, error) {
	r, err := w.run(ctx, env, args)
	if err != nil {
		return r, err
	}
	if r.ExitCode != want {
		return r, fmt.Errorf("%s in %s exited %d, want %d:\n%s", r.Command(), w.Dir, r.ExitCode, want, tail(r.Output, 4000))
	}
	return r, nil
}

func tail(s string, n int) string {
	if len(s) <= n {
		return s
	}
	return "..." + s[len(s)-n:]
}
