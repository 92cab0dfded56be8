package main

import (
	"flag"
	"strings"
	"time"

	"github.com/rms-labs/terraform-provider-rms/internal/emulator"
)

// faultFlags are the command-line form of emulator.FaultOptions, so users
// can run their own CI against a service that misbehaves now and then.
type faultFlags struct {
	rate        *float64
	kinds       *string
	retryAfter  *time.Duration
	latency     *time.Duration
	seed        *uint64
	methods     *string
	pathPrefix  *string
	actThenDrop *float64
}

func registerFaultFlags(fs *flag.FlagSet) *faultFlags {
	return &faultFlags{
		rate:        fs.Float64("fault-rate", 0, "fraction (0..1) of API requests answered with an injected fault"),
		kinds:       fs.String("fault-kinds", "", "comma-separated faults to inject: "+strings.Join(emulator.AllFaults, ",")+" (default all)"),
		retryAfter:  fs.Duration("fault-retry-after", time.Second, "Retry-After sent with injected 429 and 503"),
		latency:     fs.Duration("fault-latency", 0, "latency added to every API request"),
		seed:        fs.Uint64("fault-seed", 1, "seed of the fault sequence, for reproducible runs"),
		methods:     fs.String("fault-methods", "", "comma-separated methods to fault (default all)"),
		pathPrefix:  fs.String("fault-path", "", "fault only paths below /rest/{customerid}/ starting with this prefix"),
		actThenDrop: fs.Float64("fault-act-then-drop", 0, "fraction (0..1) of POSTs carried out and then answered by dropping the connection"),
	}
}

func (f *faultFlags) options() (emulator.FaultOptions, error) {
	o := emulator.FaultOptions{
		Rate:            *f.rate,
		Kinds:           splitList(*f.kinds),
		RetryAfter:      *f.retryAfter,
		Latency:         *f.latency,
		Seed:            *f.seed,
		Methods:         splitList(strings.ToUpper(*f.methods)),
		PathPrefix:      *f.pathPrefix,
		ActThenDropRate: *f.actThenDrop,
	}
	return o, o.Validate()
}

func splitList(s string) []string {
	var out []string
	for _, p := range strings.Split(s, ",") {
		if p = strings.TrimSpace(p); p != "" {
			out = append(out, p)
		}
	}
	return out
}
