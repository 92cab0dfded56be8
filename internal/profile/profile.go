package profile

import (
	"fmt"
	"os"
	"runtime/pprof"
)

// profileVariable names a file prefix for a CPU profile of the provider
// process, for contributors measuring the provider (BENCHMARKS.md). Unset,
// nothing is profiled. Terraform starts several provider processes per
// command, so each writes its own file: the prefix, a dot, the process id.
const profileVariable = "RMS_CPU_PROFILE"

// StartCPU starts the CPU profile RMS_CPU_PROFILE asks for and
// returns the function that writes it out; it is called when the plugin
// server has stopped (Terraform ends a plugin by asking it to stop, so
// Serve returns).
func StartCPU(lookup func(string) (string, bool)) (stop func(), err error) {
	prefix, ok := lookup(profileVariable)
	if !ok || prefix == "" {
		return func() {}, nil
	}
	name := fmt.Sprintf("%s.%d", prefix, os.Getpid())
	f, err := os.Create(name)
	if err != nil {
		return nil, fmt.Errorf("%s: %w", profileVariable, err)
	}
	if err := pprof.StartCPUProfile(f); err != nil {
		_ = f.Close()
		return nil, fmt.Errorf("%s: %w", profileVariable, err)
	}
	return func() {
		pprof.StopCPUProfile()
		_ = f.Close()
	}, nil
}
