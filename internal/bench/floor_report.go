package bench

import (
	"fmt"
	"slices"
	"strings"
	"time"
)

// FloorThreshold is how much faster than rms_contact the floor may be
// (median of the paired wall ratios) before the difference is worth
// finding: 5 %.
const FloorThreshold = 1.05

// Floor writes the floor scenario's tables.
func (r Report) Floor(res FloorResult) {
	r.printf("## rms_contact against a no-I/O resource of the same schema\n\n")
	r.printf("N=%d `rms_contact` (properties and both statuses, one list) with the provider against the emulator, ", res.N)
	r.printf("and as many with the floor provider (`internal/bench/floorprovider`): the same binary's every schema, taken from `internal/provider`, ")
	r.printf("served the same way, but an `rms_contact` whose Read returns the prior state as it is, with no ModifyPlan, and a Configure that checks nothing. ")
	r.printf("Both run the same Terraform on the same configuration. %d pairs of no-change plans, the two of a pair back to back and who goes first alternating, ", len(res.Pairs))
	r.printf("after one untimed plan of each. CPU is terraform with the provider processes it ran (wait4); provider CPU is sampled from /proc; the emulator's is this process's (for the floor, which sends no request, that is the harness's own sampling).\n\n")
	r.printf("| side | plan wall: median (min–max) | terraform + provider CPU: median (min–max) | provider CPU (median) | emulator CPU (median) | requests of one plan | provider peak RSS |\n")
	r.printf("|---|---:|---:|---:|---:|---|---:|\n")
	for _, s := range []FloorSide{res.Contact, res.Floor} {
		r.printf("| %s | %s | %s | %s | %s | %s | %s |\n", s.Name, spread(s.Wall), spread(s.CPU),
			round(Median(s.ProvCPU)), round(Median(s.EmuCPU)), s.Requests, mib(s.PeakRSS))
	}
	wall, cpu := res.WallRatios(), res.CPURatios()
	r.printf("\n| rms_contact / floor, paired | median | min–max | every pair |\n|---|---:|---:|---|\n")
	for _, row := range []struct {
		name string
		xs   []float64
	}{{"wall", wall}, {"terraform + provider CPU", cpu}} {
		r.printf("| %s | **%.3fx** | %s | %s |\n", row.name, MedianFloat(row.xs), ratioSpread(row.xs), ratioList(row.xs))
	}
	byOrder := map[bool][]float64{}
	for _, p := range res.Pairs {
		byOrder[p.FloorFirst] = append(byOrder[p.FloorFirst], p.Wall)
	}
	r.printf("\nWho goes first matters on a shared machine: median wall ratio %.3fx over the %d pairs rms_contact went first, %.3fx over the %d the floor did", MedianFloat(byOrder[false]), len(byOrder[false]), MedianFloat(byOrder[true]), len(byOrder[true]))
	if len(byOrder[false]) != len(byOrder[true]) {
		r.printf(" (an odd number of pairs leans towards the side that went first more often)")
	}
	r.printf(".\n")
	if m := MedianFloat(wall); m > FloorThreshold {
		r.printf("\nrms_contact is **%.1f %% slower** than the floor (median of the paired wall ratios): more than the %.0f %% allowed.\n\n", (m-1)*100, (FloorThreshold-1)*100)
	} else {
		r.printf("\nrms_contact is **within %.0f %%** of the floor (median of the paired wall ratios: %+.1f %%).\n\n", (FloorThreshold-1)*100, (m-1)*100)
	}
	r.printf("Commands, in each side's own working directory: `%s` once, then `%s`. ", res.ApplyCmd, res.PlanCmd)
	loads := make([]string, len(res.Pairs))
	for i, p := range res.Pairs {
		first := "rms_contact first"
		if p.FloorFirst {
			first = "floor first"
		}
		loads[i] = fmt.Sprintf("%s (%s)", p.Load, first)
	}
	r.printf("Load average (1, 5, 15 min) before each pair: %s; at the end: %s.\n\n", strings.Join(loads, "; "), res.LoadEnd)
	r.printf("Every plan (seconds, wall): rms_contact %s; floor %s.\n\n", seconds(res.Contact.Wall), seconds(res.Floor.Wall))
	r.printf("The configuration of both (the provider block, the same for both, left out):\n\n```hcl%s```\n\n", res.Config)
}

// spread is "median (min–max)" of ds.
func spread(ds []time.Duration) string {
	if len(ds) == 0 {
		return ""
	}
	return fmt.Sprintf("**%s** (%s–%s)", round(Median(ds)), round(slices.Min(ds)), round(slices.Max(ds)))
}

func ratioSpread(xs []float64) string {
	if len(xs) == 0 {
		return ""
	}
	return fmt.Sprintf("%.3f–%.3f", slices.Min(xs), slices.Max(xs))
}

func ratioList(xs []float64) string {
	parts := make([]string, len(xs))
	for i, x := range xs {
		parts[i] = fmt.Sprintf("%.3f", x)
	}
	return strings.Join(parts, ", ")
}
