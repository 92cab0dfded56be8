// Command rms-bench is the driver of `make bench`: it builds the provider
// once, serves an rms emulator in-process on 127.0.0.1 and runs the real
// terraform CLI against it, printing the figures of BENCHMARKS.md as
// Markdown on standard output (progress goes to standard error).
//
// Settings come from flags or, for `make bench`, from the environment:
//
//	-n        BENCH_N          resource counts, default "100 1000"
//	-repeat   BENCH_REPEAT     timed runs per wall-time figure (median), default 1
//	-only     BENCH_SCENARIOS  scenarios to run: requests,timing,largefiles,batches,floor
//	-rows     BENCH_ROWS       CSV rows of the large-file scenario, default "100000 1000000"
//	-list-rows BENCH_LIST_ROWS file rows of the largelists scenario, default "1000 10000 50000 100000"
//	-list-map BENCH_LIST_MAP   map sizes of the largelists scenario, default "1000 2000 5000 10000" ("none": no map)
//	-list-latency BENCH_LIST_LATENCY  largelists latency leg: every answer this much later (e.g. 50ms)
//	-list-cap BENCH_LIST_CAP   the latency leg's capped plan: max_requests_per_second (default 25)
//	-list-compare BENCH_LIST_COMPARE  map size planned against as many rms_contact, default 5000 (0: none)
//	-emu-contacts BENCH_EMU_CONTACTS  list sizes of the emulator scenario, default "100000 1000000"
//	-list-cpu-profile BENCH_LIST_CPU_PROFILE  prefix of provider CPU profiles of the largelists commands
//	-floor-n  BENCH_FLOOR_N    contacts of the floor scenario, default 1000
//	-floor-pairs BENCH_FLOOR_PAIRS  pairs of no-change plans of the floor scenario, default 6 (at least 5; even, so each side goes first as often)
//	-floor-cpu-profile BENCH_FLOOR_CPU_PROFILE  prefix of provider CPU profiles of the floor scenario's plans
//	-out      BENCH_OUT        also write the Markdown to this file
//	-terraform BENCH_TERRAFORM the terraform binary, default the one on PATH
package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"os/signal"
	"strconv"
	"strings"
	"time"

	"github.com/rms-labs/terraform-provider-rms/internal/bench"
)

func main() {
	if err := run(); err != nil {
		fmt.Fprintln(os.Stderr, "rms-bench:", err)
		os.Exit(1)
	}
}

func env(key, def string) string {
	if v := strings.TrimSpace(os.Getenv(key)); v != "" {
		return v
	}
	return def
}

func run() error {
	var (
		ns       = flag.String("n", env("BENCH_N", "100 1000"), "resource counts, separated by spaces or commas")
		repeat   = flag.Int("repeat", atoiOr(env("BENCH_REPEAT", "1"), 1), "timed runs per wall-time figure; the median is reported")
		only     = flag.String("only", env("BENCH_SCENARIOS", "requests,timing,largefiles,batches,floor"), "scenarios to run (also: largelists and emulator, not in the default set)")
		rows     = flag.String("rows", env("BENCH_ROWS", "100000 1000000"), "CSV rows of the large-file scenario")
		listRows = flag.String("list-rows", env("BENCH_LIST_ROWS", "1000 10000 50000 100000"), "file rows of the largelists scenario")
		listMap  = flag.String("list-map", env("BENCH_LIST_MAP", "1000 2000 5000 10000"), "map sizes of the largelists scenario")
		listCmp  = flag.Int("list-compare", atoiOr(env("BENCH_LIST_COMPARE", "5000"), 5000), "map size planned against as many rms_contact in the largelists scenario (0: none)")
		listLat  = flag.Duration("list-latency", durationOr(env("BENCH_LIST_LATENCY", "")), "largelists: also plan each file list with every answer this much later (e.g. 50ms), with the default settings and with -list-cap requests per second")
		listCap  = flag.Int("list-cap", atoiOr(env("BENCH_LIST_CAP", "25"), 25), "largelists latency leg: max_requests_per_second of the capped plan (0: none)")
		listProf = flag.String("list-cpu-profile", env("BENCH_LIST_CPU_PROFILE", ""), "file prefix: the provider processes of the largelists scenario write CPU profiles (RMS_CPU_PROFILE) there")
		emuSizes = flag.String("emu-contacts", env("BENCH_EMU_CONTACTS", "100000 1000000"), "list sizes of the emulator scenario (rms-emulator -data-dir with one list of N contacts)")
		floorN   = flag.Int("floor-n", atoiOr(env("BENCH_FLOOR_N", "1000"), 1000), "rms_contact planned against as many no-I/O contacts in the floor scenario")
		floorP   = flag.Int("floor-pairs", atoiOr(env("BENCH_FLOOR_PAIRS", "6"), 6), "pairs of no-change plans of the floor scenario (at least 5; an even number lets each side go first as often)")
		floorPrf = flag.String("floor-cpu-profile", env("BENCH_FLOOR_CPU_PROFILE", ""), "file prefix: the provider processes of the floor scenario's plans write CPU profiles there (<prefix>-contact.<pid>, <prefix>-floor.<pid>)")
		paces    = flag.String("batch-paces", env("BENCH_BATCH_PACES", "5s"), "batch durations the batches scenario waits for through the CLI (e.g. \"5s 5m\"); 5s and 5m are also computed")
		out      = flag.String("out", env("BENCH_OUT", ""), "also write the Markdown report to this file")
		root     = flag.String("root", ".", "the provider module to build")
		tfBin    = flag.String("terraform", env("BENCH_TERRAFORM", ""), "the terraform binary (default: the one on PATH)")
		keep     = flag.Bool("keep", false, "keep the scratch directory (workspaces, state, CLI config)")
	)
	flag.Parse()
	counts, err := ints(*ns)
	if err != nil {
		return fmt.Errorf("-n / BENCH_N: %w", err)
	}
	rowCounts, err := ints(*rows)
	if err != nil {
		return fmt.Errorf("-rows / BENCH_ROWS: %w", err)
	}
	listRowCounts, err := ints(*listRows)
	if err != nil {
		return fmt.Errorf("-list-rows / BENCH_LIST_ROWS: %w", err)
	}
	var listMapSizes []int
	if *listMap != "none" {
		if listMapSizes, err = ints(*listMap); err != nil {
			return fmt.Errorf("-list-map / BENCH_LIST_MAP (or none): %w", err)
		}
	}
	emuContacts, err := ints(*emuSizes)
	if err != nil {
		return fmt.Errorf("-emu-contacts / BENCH_EMU_CONTACTS: %w", err)
	}
	measuredPaces, err := durations(*paces)
	if err != nil {
		return fmt.Errorf("-batch-paces / BENCH_BATCH_PACES: %w", err)
	}
	if *floorN < 1 || *floorP < 5 {
		return errors.New("-floor-n / BENCH_FLOOR_N must be at least 1 and -floor-pairs / BENCH_FLOOR_PAIRS at least 5")
	}
	if *repeat < 1 {
		return errors.New("-repeat / BENCH_REPEAT must be at least 1")
	}
	scenarios := map[string]bool{}
	for _, s := range strings.FieldsFunc(*only, func(r rune) bool { return r == ',' || r == ' ' }) {
		scenarios[s] = true
	}

	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt)
	defer stop()
	dir, err := os.MkdirTemp("", "rms-bench-")
	if err != nil {
		return err
	}
	if *keep {
		fmt.Fprintln(os.Stderr, "rms-bench: scratch directory", dir)
	} else {
		defer func() {
			if err := os.RemoveAll(dir); err != nil {
				fmt.Fprintln(os.Stderr, "rms-bench: removing the scratch directory:", err)
			}
		}()
	}

	started := time.Now()
	fmt.Fprintln(os.Stderr, "rms-bench: building the provider")
	tf, err := bench.Setup(ctx, *root, dir, *tfBin)
	if err != nil {
		return err
	}
	var w io.Writer = os.Stdout
	if *out != "" {
		f, err := os.Create(*out)
		if err != nil {
			return err
		}
		defer func() {
			if cerr := f.Close(); cerr != nil {
				fmt.Fprintln(os.Stderr, "rms-bench: writing the report:", cerr)
			}
		}()
		w = io.MultiWriter(os.Stdout, f)
	}
	rep := bench.Report{W: w}
	var listEnv []string
	if *listProf != "" {
		listEnv = []string{"RMS_CPU_PROFILE=" + *listProf}
	}
	b := &bench.Bench{TF: tf, Dir: dir, Log: os.Stderr, Repeat: *repeat, PlanVariants: planVariants, ListEnv: listEnv, ListLatency: *listLat, ListCap: *listCap}
	rep.Machine(bench.DescribeMachine(ctx, tf), commandLine(), started)

	if scenarios["requests"] {
		var all []bench.RequestRow
		for _, n := range counts {
			rows, err := b.Requests(ctx, n)
			if err != nil {
				return err
			}
			all = append(all, rows...)
		}
		rep.Requests(all)
	}
	if scenarios["timing"] {
		var results []bench.TimingResult
		for _, n := range counts {
			res, err := b.Timing(ctx, n)
			if err != nil {
				return err
			}
			results = append(results, res)
		}
		rep.Timing(results, *repeat)
	}
	if scenarios["largefiles"] {
		rows, err := b.LargeFiles(ctx, rowCounts)
		switch {
		case errors.Is(err, bench.ErrPending):
			rep.Pending(fmt.Sprintf("Peak provider memory: import and export of %v rows", rowCounts), err)
		case err != nil:
			return err
		default:
			rep.Files(rows)
		}
	}
	if scenarios["batches"] {
		rows, err := b.BatchWaits(ctx, measuredPaces, computedPaces)
		switch {
		case errors.Is(err, bench.ErrPending):
			rep.Pending("Batch waits", err)
		case err != nil:
			return err
		default:
			rep.BatchWaits(rows)
		}
	}
	if scenarios["floor"] {
		fp, err := bench.SetupFloor(ctx, *root, dir)
		if err != nil {
			return err
		}
		var contactEnv, floorEnv []string
		if *floorPrf != "" {
			contactEnv = []string{"RMS_CPU_PROFILE=" + *floorPrf + "-contact"}
			floorEnv = []string{"RMS_CPU_PROFILE=" + *floorPrf + "-floor"}
		}
		res, err := b.Floor(ctx, fp, *floorN, *floorP, contactEnv, floorEnv)
		if err != nil {
			return err
		}
		rep.Floor(res)
	}
	// Not in the default set: at its default sizes it takes about fifteen
	// minutes (BENCHMARKS.md, "largelists"), most of it creating rms_contact.
	if scenarios["largelists"] {
		res, err := b.LargeLists(ctx, listRowCounts, listMapSizes, *listCmp)
		switch {
		case errors.Is(err, bench.ErrPending):
			rep.Pending("Large lists", err)
		case err != nil:
			return err
		default:
			rep.LargeLists(res, *repeat)
		}
	}
	// Not in the default set: at a million contacts it holds gigabytes
	// before issue-sized fixes, and it measures the emulator, not the provider.
	if scenarios["emulator"] {
		runs, err := b.EmulatorScale(ctx, *root, emuContacts)
		if err != nil {
			return err
		}
		rep.EmulatorScale(runs)
	}
	_, err = fmt.Fprintf(w, "Finished in %s; load average at the end (1, 5, 15 min): %s.\n", time.Since(started).Round(time.Second), bench.LoadAvg())
	return err
}

// planVariants are the further no-change plans the timing scenario runs on
// the rms_contact workspace, each with one optimisation switched off, so
// that its effect is measured in the same run.
var planVariants = []bench.PlanVariant{
	{Name: "shared listing off", Env: []string{"RMS_CONTACT_LISTING=false"}},
	// Terraform does not read these, so it still drops the logs; the
	// provider produces them as it did before it switched unread logs off.
	{Name: "plugin logs on", Env: []string{"TF_LOG_SDK=TRACE", "TF_LOG_SDK_PROTO=TRACE", "TF_LOG_SDK_FRAMEWORK=TRACE"}},
	// No refresh: what Terraform, gRPC and the plugin framework cost for N
	// resources of this provider before any of its own reads.
	{Name: "-refresh=false", Args: []string{"-refresh=false"}},
	// A service across a network: every answer 25 ms late.
	{Name: "25 ms per request", Latency: 25 * time.Millisecond},
	{Name: "25 ms per request, shared listing off", Env: []string{"RMS_CONTACT_LISTING=false"}, Latency: 25 * time.Millisecond},
}

// computedPaces are the batch paces computed from the poll schedule; those waited for through
// the CLI are BENCH_BATCH_PACES (5s by default: a five-minute batch waited
// for twice makes make bench ten minutes longer, so it is opt-in).
var computedPaces = []time.Duration{5 * time.Second, 5 * time.Minute}

// commandLine is how to reproduce this run.
func commandLine() string {
	var parts []string
	for _, k := range []string{"BENCH_N", "BENCH_REPEAT", "BENCH_SCENARIOS", "BENCH_ROWS", "BENCH_LIST_ROWS", "BENCH_LIST_MAP", "BENCH_LIST_COMPARE", "BENCH_EMU_CONTACTS", "BENCH_FLOOR_N", "BENCH_FLOOR_PAIRS", "BENCH_FLOOR_CPU_PROFILE", "BENCH_BATCH_PACES", "BENCH_TERRAFORM"} {
		if v := os.Getenv(k); v != "" {
			parts = append(parts, k+"="+strconv.Quote(v))
		}
	}
	cmd := "go run ./cmd/rms-bench"
	if len(os.Args) > 1 {
		cmd += " " + strings.Join(os.Args[1:], " ")
	}
	return strings.TrimSpace(strings.Join(parts, " ") + " " + cmd)
}

func durations(s string) ([]time.Duration, error) {
	var out []time.Duration
	for _, f := range strings.FieldsFunc(s, func(r rune) bool { return r == ',' || r == ' ' }) {
		d, err := time.ParseDuration(f)
		if err != nil || d <= 0 {
			return nil, fmt.Errorf("%q is not a positive duration such as 5s or 5m", f)
		}
		out = append(out, d)
	}
	return out, nil
}

func ints(s string) ([]int, error) {
	var out []int
	for _, f := range strings.FieldsFunc(s, func(r rune) bool { return r == ',' || r == ' ' }) {
		n, err := strconv.Atoi(f)
		if err != nil || n < 1 {
			return nil, fmt.Errorf("%q is not a positive whole number", f)
		}
		out = append(out, n)
	}
	if len(out) == 0 {
		return nil, errors.New("no numbers given")
	}
	return out, nil
}

// durationOr is s as a duration, zero when it is empty or not one.
func durationOr(s string) time.Duration {
	d, _ := time.ParseDuration(s)
	return d
}

func atoiOr(s string, def int) int {
	n, err := strconv.Atoi(s)
	if err != nil {
		return def
	}
	return n
}
