package acctest

import (
	"bytes"
	"encoding/json"
	"errors"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"
)

// Workspace is a Terraform working directory driven through the real CLI
// and the provider binary, as a user's pipeline runs them: the paths that
// terraform-plugin-testing cannot take (a signal to terraform in the
// middle of an apply, a saved plan applied after its input changed, a
// refused apply followed by another) are tested through it.
type Workspace struct {
	t         testing.TB
	Dir       string
	tfPath    string
	cliConfig string
	// Env holds further environment variables (NAME=value) of every
	// command, such as TF_VAR_ values a test keeps off the command line.
	Env []string
}

// commandLimit bounds every terraform command a Workspace runs: a command
// that hangs fails the test instead of the whole suite's timeout.
const commandLimit = 3 * time.Minute

// NewWorkspace builds the provider binary (DevOverrides) and returns an
// empty working directory for it. Without TF_ACC it skips the test before
// building anything.
func NewWorkspace(t testing.TB) *Workspace {
	t.Helper()
	tfPath := MustDetectCLI(t).Path
	dir := t.TempDir()
	cliConfig, _ := DevOverrides(t, dir)
	return &Workspace{t: t, Dir: dir, tfPath: tfPath, cliConfig: cliConfig}
}

// Write writes a file of the working directory (a configuration, a CSV).
func (w *Workspace) Write(name, content string) {
	w.t.Helper()
	if err := os.WriteFile(filepath.Join(w.Dir, name), []byte(content), 0o600); err != nil {
		w.t.Fatal(err)
	}
}

// Path is the absolute path of a file of the working directory.
func (w *Workspace) Path(name string) string { return filepath.Join(w.Dir, name) }

// Configure writes main.tf: the provider requirement (dev overrides need
// no init), the provider block of env, and hcl.
func (w *Workspace) Configure(env *Env, hcl string) {
	w.t.Helper()
	w.ConfigureWith(env.ProviderBlock(), hcl)
}

// ConfigureWith is Configure with a provider block of the test's own (more
// retries, other limits).
func (w *Workspace) ConfigureWith(providerBlock, hcl string) {
	w.t.Helper()
	w.Write("main.tf", "terraform {\n  required_providers {\n    rms = { source = \"registry.terraform.io/rms-labs/rms\" }\n  }\n}\n"+providerBlock+hcl)
}

// Running is a terraform command started and not yet waited for.
type Running struct {
	w    *Workspace
	args []string
	cmd  *exec.Cmd
	out  *syncBuffer
	done chan error
}

// Start starts terraform with args (-no-color and, for apply and destroy,
// nothing else is added: give -auto-approve yourself).
func (w *Workspace) Start(args ...string) *Running {
	w.t.Helper()
	cmd := exec.Command(w.tfPath, args...)
	cmd.Dir = w.Dir
	cmd.Env = append(os.Environ(), "TF_CLI_CONFIG_FILE="+w.cliConfig, "CHECKPOINT_DISABLE=1", "TF_IN_AUTOMATION=1", "TF_INPUT=0")
	cmd.Env = append(cmd.Env, w.Env...)
	ownGroup(cmd)
	out := &syncBuffer{}
	cmd.Stdout, cmd.Stderr = out, out
	if err := cmd.Start(); err != nil {
		w.t.Fatal(err)
	}
	r := &Running{w: w, args: args, cmd: cmd, out: out, done: make(chan error, 1)}
	go func() { r.done <- cmd.Wait() }()
	w.t.Cleanup(func() { _ = cmd.Process.Kill() })
	return r
}

// Run runs terraform with args to its end and returns its output and exit
// code.
func (w *Workspace) Run(args ...string) (string, int) {
	w.t.Helper()
	return w.Start(args...).Wait()
}

// Output is what the command printed so far.
func (r *Running) Output() string { return r.out.String() }

// Until polls cond every 50 ms until it holds, and fails the test when the
// command ends first or it does not hold within commandLimit: a signal is
// sent once the provider reached the point the test interrupts.
func (r *Running) Until(what string, cond func() bool) {
	r.w.t.Helper()
	for deadline := time.Now().Add(commandLimit); time.Now().Before(deadline); {
		if cond() {
			return
		}
		select {
		case err := <-r.done:
			r.done <- err
			r.w.t.Fatalf("terraform %v ended (%v) before %s:\n%s", r.args, err, what, r.Output())
		case <-time.After(50 * time.Millisecond):
		}
	}
	_ = r.cmd.Process.Kill()
	r.w.t.Fatalf("terraform %v: %s never happened:\n%s", r.args, what, r.Output())
}

// Signal sends sig to terraform (os.Interrupt as Ctrl-C does; os.Kill
// ends it and leaves its provider to die with it).
func (r *Running) Signal(sig os.Signal) {
	r.w.t.Helper()
	if err := r.cmd.Process.Signal(sig); err != nil {
		r.w.t.Fatal(err)
	}
}

// Kill ends terraform and the provider it started at once (SIGKILL to
// their process group): nothing is returned to Terraform, and the state
// stays as the last command left it.
func (r *Running) Kill() {
	r.w.t.Helper()
	if err := killGroup(r.cmd); err != nil {
		r.w.t.Fatal(err)
	}
}

// Wait waits for the command's end and returns its output and exit code.
func (r *Running) Wait() (string, int) {
	r.w.t.Helper()
	select {
	case err := <-r.done:
		r.done <- err
		var exit *exec.ExitError
		if errors.As(err, &exit) {
			if exit.ExitCode() < 0 { // killed by a signal
				return r.Output(), -1
			}
			return r.Output(), exit.ExitCode()
		}
		if err != nil {
			r.w.t.Fatalf("terraform %v: %v", r.args, err)
		}
		return r.Output(), 0
	case <-time.After(commandLimit):
		_ = r.cmd.Process.Kill()
		r.w.t.Fatalf("terraform %v did not end:\n%s", r.args, r.Output())
		return "", -1
	}
}

// StateInstance is one resource instance of a state file.
type StateInstance struct {
	Attributes map[string]any `json:"attributes"`
	// Private is the provider's private state (base64 of JSON in the
	// state file), decoded.
	Private       []byte `json:"private"`
	Status        string `json:"status"` // "tainted" or ""
	IndexKey      any    `json:"index_key"`
	SchemaVersion int    `json:"schema_version"`
}

// Instance returns the instance of resource typ.name in terraform.tfstate,
// and false when the state has none.
func (w *Workspace) Instance(typ, name string) (StateInstance, bool) {
	w.t.Helper()
	raw, err := os.ReadFile(filepath.Join(w.Dir, "terraform.tfstate"))
	if errors.Is(err, os.ErrNotExist) {
		return StateInstance{}, false
	}
	if err != nil {
		w.t.Fatalf("reading the state: %v", err)
	}
	var st struct {
		Resources []struct {
			Mode      string          `json:"mode"`
			Type      string          `json:"type"`
			Name      string          `json:"name"`
			Instances []StateInstance `json:"instances"`
		} `json:"resources"`
	}
	if err := json.Unmarshal(raw, &st); err != nil {
		w.t.Fatalf("decoding the state: %v", err)
	}
	for _, r := range st.Resources {
		if r.Mode == "managed" && r.Type == typ && r.Name == name && len(r.Instances) == 1 {
			return r.Instances[0], true
		}
	}
	return StateInstance{}, false
}

// PrivateKey decodes one key of an instance's private state into out, and reports whether the key is there.
func (s StateInstance) PrivateKey(t testing.TB, key string, out any) bool {
	t.Helper()
	if len(s.Private) == 0 {
		return false
	}
	// The framework writes map[string][]byte: each value is base64 of JSON.
	var keys map[string][]byte
	if err := json.Unmarshal(s.Private, &keys); err != nil {
		t.Fatalf("decoding private state %q: %v", s.Private, err)
	}
	raw, ok := keys[key]
	if !ok {
		return false
	}
	if err := json.Unmarshal(raw, out); err != nil {
		t.Fatalf("decoding private key %s %s: %v", key, raw, err)
	}
	return true
}

// Contains reports whether out holds every part, for messages that
// Terraform wraps at any column.
func Contains(out string, parts ...string) bool {
	flat := strings.Join(strings.Fields(out), " ")
	for _, p := range parts {
		if !strings.Contains(flat, strings.Join(strings.Fields(p), " ")) {
			return false
		}
	}
	return true
}

// syncBuffer is a bytes.Buffer that a command writes while the test reads.
type syncBuffer struct {
	mu sync.Mutex
	b  bytes.Buffer
}

func (s *syncBuffer) Write(p []byte) (int, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.b.Write(p)
}

func (s *syncBuffer) String() string {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.b.String()
}
