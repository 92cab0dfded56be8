package acctest

import (
	"fmt"
	"runtime"
	"testing"

	"github.com/rms-labs/terraform-provider-rms/internal/emulator"
)

// setupRecorder is a testing.TB that records the calls a helper makes on
// it and stops the helper where the real one would (Skip, Fatal), so a
// test can see what a helper did before it skipped. Any call it does not
// override (Setenv, Log, ...) reaches the embedded real test.
type setupRecorder struct {
	testing.TB
	calls   []string
	skipped bool
}

func (r *setupRecorder) Helper() {}

func (r *setupRecorder) record(call string) { r.calls = append(r.calls, call) }

func (r *setupRecorder) TempDir() string {
	r.record("TempDir")
	return r.TB.TempDir()
}

func (r *setupRecorder) Cleanup(f func()) {
	r.record("Cleanup")
	r.TB.Cleanup(f)
}

func (r *setupRecorder) Skip(args ...any) { r.skip() }

func (r *setupRecorder) Skipf(string, ...any) { r.skip() }

func (r *setupRecorder) SkipNow() { r.skip() }

func (r *setupRecorder) skip() {
	r.skipped = true
	runtime.Goexit()
}

func (r *setupRecorder) Fatal(args ...any) { r.fail(fmt.Sprint(args...)) }

func (r *setupRecorder) Fatalf(format string, args ...any) { r.fail(fmt.Sprintf(format, args...)) }

func (r *setupRecorder) FailNow() { r.fail("FailNow") }

func (r *setupRecorder) fail(msg string) {
	r.record("Fatal: " + msg)
	runtime.Goexit()
}

// run calls helper with the recorder on a goroutine of its own, as the
// testing package runs a test, so Skip and Fatal end only the helper. It
// reports whether the helper returned.
func (r *setupRecorder) run(helper func(testing.TB)) (returned bool) {
	done := make(chan bool)
	go func() {
		ok := false
		defer func() { done <- ok }()
		helper(r)
		ok = true
	}()
	return <-done
}

// Without TF_ACC every helper that starts an emulator, builds the provider
// or runs the CLI skips the test before it does anything: no temporary
// folder, no cleanup (which every emulator it starts registers), no build.
// make unit runs without TF_ACC, and an acceptance test that reached its
// set-up there cost seconds of wall time only to skip later.
func TestHelpersSkipWithoutTFAccBeforeSetUp(t *testing.T) {
	t.Setenv("TF_ACC", "")
	for name, helper := range map[string]func(t testing.TB, dir string){
		"NewEnv": func(t testing.TB, _ string) { NewEnv(t, emulator.Options{}) },
		"NewAccountEnvs": func(t testing.TB, _ string) {
			NewAccountEnvs(t, emulator.Options{}, emulator.Options{CustomerID: 2, Username: "b"})
		},
		"NewWorkspace":         func(t testing.TB, _ string) { NewWorkspace(t) },
		"DevOverrides":         func(t testing.TB, dir string) { DevOverrides(t, dir) },
		"FilesystemMirror":     func(t testing.TB, dir string) { FilesystemMirror(t, dir) },
		"MustDetectCLI":        func(t testing.TB, _ string) { MustDetectCLI(t) },
		"RequireCLI":           func(t testing.TB, _ string) { RequireCLI(t, "actions", "1.14.0", "") },
		"SkipUnlessAcceptance": func(t testing.TB, _ string) { SkipUnlessAcceptance(t) },
	} {
		t.Run(name, func(t *testing.T) {
			dir := t.TempDir()
			r := &setupRecorder{TB: t}
			if r.run(func(tb testing.TB) { helper(tb, dir) }) {
				t.Fatalf("%s returned without TF_ACC; calls on the test: %q", name, r.calls)
			}
			if !r.skipped {
				t.Fatalf("%s stopped the test without skipping it; calls on the test: %q", name, r.calls)
			}
			if len(r.calls) > 0 {
				t.Errorf("%s set up %q before it skipped, want nothing", name, r.calls)
			}
		})
	}
}

// With TF_ACC set, the skip lets the test go on: the rule is about
// skipping early, not about skipping always.
func TestSkipUnlessAcceptanceRunsWithTFAcc(t *testing.T) {
	t.Setenv("TF_ACC", "1")
	r := &setupRecorder{TB: t}
	if !r.run(SkipUnlessAcceptance) || r.skipped {
		t.Fatalf("SkipUnlessAcceptance skipped with TF_ACC=1; calls on the test: %q", r.calls)
	}
}
