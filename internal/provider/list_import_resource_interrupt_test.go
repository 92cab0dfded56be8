package provider_test

import (
	"bytes"
	"encoding/json"
	"errors"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/rms-labs/terraform-provider-rms/internal/acctest"
	"github.com/rms-labs/terraform-provider-rms/internal/emulator"
)

// An apply interrupted (SIGINT to terraform, which cancels the provider's
// context) while it waits for an import's batch keeps the batch in the
// state; the next apply resumes waiting on the same batch, which finishes
// meanwhile, without uploading again, and the plan after it is empty. The real
// provider binary is driven through the terraform CLI, as a user runs it.
func TestAccListImportResource_interruptedApplyResumes(t *testing.T) {
	acctest.SkipUnlessAcceptance(t)
	tfPath := acctest.MustDetectCLI(t).Path
	t.Parallel()
	clock := &pollClock{base: time.Now().UTC()}
	env := acctest.NewEnv(t, emulator.Options{Now: clock.Now, BatchPendingFor: time.Hour})
	clock.env = env
	list := importList(t, env)
	work := t.TempDir()
	cliConfig, _ := acctest.DevOverrides(t, work)
	writeFile(t, filepath.Join(work, "main.tf"), "terraform {\n  required_providers {\n    rms = { source = \"registry.terraform.io/rms-labs/rms\" }\n  }\n}\n"+
		env.ProviderBlock()+strings.Replace(importConfig(list, "ADD", heredocContent("originalId,firstname", "x,Xavier", "y,Yves")), `"test"`, `"interrupted"`, 1))
	command := func(args ...string) *exec.Cmd {
		cmd := exec.Command(tfPath, args...)
		cmd.Dir = work
		cmd.Env = append(os.Environ(), "TF_CLI_CONFIG_FILE="+cliConfig, "CHECKPOINT_DISABLE=1", "TF_IN_AUTOMATION=1", "TF_INPUT=0")
		return cmd
	}
	run := func(args ...string) (string, int) {
		t.Helper()
		cmd := command(args...)
		var out bytes.Buffer
		cmd.Stdout, cmd.Stderr = &out, &out
		done := make(chan error, 1)
		if err := cmd.Start(); err != nil {
			t.Fatal(err)
		}
		go func() { done <- cmd.Wait() }()
		select {
		case err := <-done:
			var exit *exec.ExitError
			if errors.As(err, &exit) {
				return out.String(), exit.ExitCode()
			}
			if err != nil {
				t.Fatalf("terraform %v: %v", args, err)
			}
			return out.String(), 0
		case <-time.After(3 * time.Minute):
			_ = cmd.Process.Kill()
			t.Fatalf("terraform %v did not end:\n%s", args, out.String())
			return "", -1
		}
	}

	// The first apply: interrupted once the provider waits for the batch,
	// that is once the file reached the emulator and the batch was looked
	// at and the answer read: the wait's second look has arrived (looks
	// follow one another, and an interrupt during the first could come
	// before its answer is read, leaving no status to keep). The clock holds
	// the batch PENDING.
	batchLooks := env.Emulator.Requests().ByRoute[routeGetBatch]
	apply := command("apply", "-auto-approve", "-no-color")
	var out bytes.Buffer
	apply.Stdout, apply.Stderr = &out, &out
	if err := apply.Start(); err != nil {
		t.Fatal(err)
	}
	done := make(chan error, 1)
	go func() { done <- apply.Wait() }()
	waiting := false
	for deadline := time.Now().Add(3 * time.Minute); !waiting && time.Now().Before(deadline); {
		select {
		case err := <-done:
			t.Fatalf("terraform apply ended (%v) before it could be interrupted:\n%s", err, out.String())
		case <-time.After(100 * time.Millisecond):
		}
		imps := recordedImports(t, env, list)
		waiting = len(imps) == 1 && imps[0].BatchID != nil && env.Emulator.Requests().ByRoute[routeGetBatch] > batchLooks+1
	}
	if !waiting {
		_ = apply.Process.Kill()
		t.Fatalf("the provider never started waiting for the batch:\n%s", out.String())
	}
	if err := apply.Process.Signal(os.Interrupt); err != nil {
		t.Fatal(err)
	}
	select {
	case err := <-done:
		t.Logf("the interrupted apply ended: %v", err) // the state and the output below say how
	case <-time.After(2 * time.Minute):
		_ = apply.Process.Kill()
		t.Fatalf("terraform apply did not stop after the interrupt:\n%s", out.String())
	}
	first := importState(t, work)
	if first["status"] != "PENDING" || first["batch_id"] == nil {
		t.Fatalf("after the interrupt the state holds %v, want the batch PENDING:\n%s", first, out.String())
	}
	if !strings.Contains(out.String(), "has not finished") {
		t.Errorf("the interrupted apply does not say the import has not finished:\n%s", out.String())
	}
	wantUploads(t, env, 1)

	// The next apply's refresh still sees the batch PENDING, so it plans to
	// resume; the batch finishes during the resumed wait (its third look).
	clock.arm(3)
	if o, code := run("apply", "-auto-approve", "-no-color"); code != 0 {
		t.Fatalf("the second apply exited %d:\n%s", code, o)
	} else if !strings.Contains(o, "1 changed") {
		t.Errorf("the second apply did not resume in place:\n%s", o)
	}
	second := importState(t, work)
	if second["status"] != "FINISHED" || second["batch_id"] != first["batch_id"] || second["import_id"] != first["import_id"] {
		t.Errorf("after the second apply the state holds %v, want import %v batch %v FINISHED", second, first["import_id"], first["batch_id"])
	}
	if o, code := run("plan", "-detailed-exitcode", "-no-color"); code != 0 {
		t.Errorf("the plan after the resumed apply is not empty (exit %d):\n%s", code, o)
	}
	wantUploads(t, env, 1)
	if imps := recordedImports(t, env, list); len(imps) != 1 {
		t.Errorf("the list has %d imports, want 1", len(imps))
	}
	if got := listContacts(t, env, list); len(got) != 2 {
		t.Errorf("the list holds %v, want the 2 imported contacts", got)
	}
}

// importState reads the rms_list_import's attributes from the workspace's
// state file.
func importState(t *testing.T, work string) map[string]any {
	t.Helper()
	raw, err := os.ReadFile(filepath.Join(work, "terraform.tfstate"))
	if err != nil {
		t.Fatalf("reading the state: %v", err)
	}
	var st struct {
		Resources []struct {
			Type      string `json:"type"`
			Instances []struct {
				Attributes map[string]any `json:"attributes"`
			} `json:"instances"`
		} `json:"resources"`
	}
	if err := json.Unmarshal(raw, &st); err != nil {
		t.Fatalf("decoding the state: %v", err)
	}
	for _, r := range st.Resources {
		if r.Type == "rms_list_import" && len(r.Instances) == 1 {
			return r.Instances[0].Attributes
		}
	}
	t.Fatalf("no rms_list_import in the state:\n%s", raw)
	return nil
}
