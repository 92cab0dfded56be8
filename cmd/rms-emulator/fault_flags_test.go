package main

import (
	"flag"
	"io"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"

	"github.com/rms-labs/terraform-provider-rms/internal/emulator"
)

func TestFaultFlags(t *testing.T) {
	fs := flag.NewFlagSet("t", flag.ContinueOnError)
	fs.SetOutput(io.Discard)
	ff := registerFaultFlags(fs)
	err := fs.Parse([]string{
		"-fault-rate", "0.2", "-fault-kinds", "429, drop", "-fault-retry-after", "2s",
		"-fault-latency", "5ms", "-fault-seed", "9", "-fault-methods", "post,put",
		"-fault-path", "lists", "-fault-act-then-drop", "0.1",
	})
	if err != nil {
		t.Fatal(err)
	}
	got, err := ff.options()
	if err != nil {
		t.Fatal(err)
	}
	want := emulator.FaultOptions{
		Rate: 0.2, Kinds: []string{"429", "drop"}, RetryAfter: 2 * time.Second, Latency: 5 * time.Millisecond,
		Seed: 9, Methods: []string{"POST", "PUT"}, PathPrefix: "lists", ActThenDropRate: 0.1,
	}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("options (-want +got):\n%s", diff)
	}
}
