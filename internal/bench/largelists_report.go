package bench

import (
	"fmt"
	"time"
)

// Crossing is the size at which a time passes a limit, estimated from
// measured (size, time) points.
type Crossing struct {
	N   float64
	How string // how N was found, for the report
	OK  bool   // false when fewer than two points allow no estimate
}

// CrossingOf estimates where times (measured at sizes ns, in increasing
// order) pass limit: by linear interpolation between the two sizes around
// it, or, when no measured time reaches it, by extrapolating the last two
// points (said so in How, as the estimate is then weaker). Below the
// smallest size it interpolates from the origin, as zero contacts cost
// about nothing more than Terraform's start.
func CrossingOf(ns []int, times []time.Duration, limit time.Duration) Crossing {
	if len(ns) != len(times) || len(ns) == 0 {
		return Crossing{}
	}
	line := func(i, j int) float64 { // the size at limit on the line through points i and j
		n0, n1 := float64(ns[i]), float64(ns[j])
		t0, t1 := times[i].Seconds(), times[j].Seconds()
		if t1 == t0 {
			return n1
		}
		return n0 + (limit.Seconds()-t0)*(n1-n0)/(t1-t0)
	}
	for i, t := range times {
		if t < limit {
			continue
		}
		if i == 0 {
			return Crossing{N: float64(ns[0]) * limit.Seconds() / t.Seconds(), How: fmt.Sprintf("at or below the smallest size measured (%d), proportionally", ns[0]), OK: true}
		}
		return Crossing{N: line(i-1, i), How: fmt.Sprintf("interpolated between %d and %d", ns[i-1], ns[i]), OK: true}
	}
	if len(ns) < 2 {
		return Crossing{}
	}
	k := len(ns) - 1
	if times[k] <= times[k-1] {
		return Crossing{}
	}
	return Crossing{N: line(k-1, k), How: fmt.Sprintf("extrapolated from %d and %d (not reached by the sizes measured)", ns[k-1], ns[k]), OK: true}
}

// perThousand is a time per 1,000 contacts.
func perThousand(d time.Duration, n int) time.Duration {
	return time.Duration(float64(d) * 1000 / float64(n))
}

// LargeLists writes the largelists tables.
func (r Report) LargeLists(res LargeListsResult, repeat int) {
	r.printf("## Large lists: rms_list_contacts\n\n")
	r.printf("Each list is preloaded through the emulator's Go API with the contacts the configuration names, so the first apply adopts it (nothing to write); ")
	r.printf("times are medians of %d runs. Provider peak RSS is the largest VmHWM of a provider process during the no-change plans, and during every command of that row (first apply and changes included); provider CPU is that of one no-change plan.\n\n", repeat)
	if len(res.Files) > 0 {
		r.printf("### File input (`source_file`)\n\n")
		r.printf("A CSV of `originalId,email,firstname,lastname`; the 1 %% change rewrites the firstname of every %dth row (the file alternates between two versions, so each apply changes as many contacts).\n\n", ChangedEvery)
		r.printf("| rows | file | first apply | no-change plan | plan per 1,000 rows | provider CPU of the plan | requests of one plan | apply of a 1 %% change | requests of that apply | provider peak RSS: plan | provider peak RSS: any command |\n")
		r.printf("|---:|---:|---:|---:|---:|---:|---|---:|---|---:|---:|\n")
		for _, f := range res.Files {
			plan := Median(f.Plan)
			r.printf("| %d | %s | %s | **%s** | %s | %s | %s | **%s** | %s | **%s** | %s |\n", f.N, fileSize(f.Bytes), round(f.Adopt), round(plan),
				roundPerRow(perThousand(plan, f.N)), round(Median(f.PlanCPU)), f.PlanRequests, round(Median(f.Change)), f.ChangeRequests, mib(f.PlanRSS), mib(f.PeakRSS))
		}
		r.printf("\n")
		r.largeListsLatency(res.Files)
	}
	if len(res.Compare) == 2 {
		m, c := res.Compare[0], res.Compare[1]
		r.printf("### Map input against rms_contact, same run\n\n")
		r.printf("%d contacts as one `rms_list_contacts` map and as %d `rms_contact` (count) of another list, in one emulator, no-change plans interleaved.\n\n", m.N, c.N)
		r.printf("| N | subject | first apply | no-change plan | plan / map plan | median of the paired ratios | provider CPU of the plan | requests of one plan | provider peak RSS |\n")
		r.printf("|---:|---|---:|---:|---:|---:|---:|---|---:|\n")
		for _, s := range res.Compare {
			r.printf("| %d | %s | %s | **%s** | %s | **%.2fx** | %s | %s | %s |\n", s.N, s.Subject, round(s.Adopt), round(Median(s.Plan)),
				ratio(Median(s.Plan), Median(m.Plan)), PairedRatio(s.Plan, m.Plan), round(Median(s.PlanCPU)), s.PlanRequests, mib(s.PeakRSS))
		}
		r.printf("\n")
	}
	if len(res.Maps) > 0 {
		r.printf("### Map input (`contacts`) by size\n\n")
		r.printf("| contacts | first apply | no-change plan | plan per 1,000 contacts | provider CPU of the plan | provider peak RSS |\n")
		r.printf("|---:|---:|---:|---:|---:|---:|\n")
		ns := make([]int, len(res.Maps))
		plans := make([]time.Duration, len(res.Maps))
		for i, m := range res.Maps {
			ns[i], plans[i] = m.N, Median(m.Plan)
			r.printf("| %d | %s | **%s** | %s | %s | %s |\n", m.N, round(m.Adopt), round(plans[i]), roundPerRow(perThousand(plans[i], m.N)), round(Median(m.PlanCPU)), mib(m.PeakRSS))
		}
		r.printf("\n")
		for _, limit := range []time.Duration{5 * time.Second, 30 * time.Second} {
			if c := CrossingOf(ns, plans, limit); c.OK {
				r.printf("- a no-change plan of a map passes %s at about **%.0f contacts** (%s)\n", limit, c.N, c.How)
			}
		}
		r.printf("\n")
	}
	r.mapAgainstData(res)
	r.printf("Every run (seconds):\n\n")
	all := append(append(append(append([]*ListRun{}, res.Files...), res.Compare...), res.Maps...), res.Data...)
	seen := map[*ListRun]bool{}
	for _, s := range all {
		if seen[s] {
			continue
		}
		seen[s] = true
		r.printf("- %s N=%d: first apply %s; no-change plans `%s`: %s", s.Subject, s.N, seconds([]time.Duration{s.Adopt}), s.PlanCmd, seconds(s.Plan))
		if len(s.Change) > 0 {
			r.printf("; applies of a 1 %% change `%s`: %s", s.ApplyCmd, seconds(s.Change))
		}
		r.printf("\n")
	}
	r.printf("\n")
}

// mapAgainstData writes the map against one terraform_data holding the
// same map, and the two targets of that comparison: the cost per 1,000
// contacts flat in the size, and the map within 1.5x of terraform_data.
func (r Report) mapAgainstData(res LargeListsResult) {
	data := map[int]*ListRun{}
	for _, d := range res.Data {
		data[d.N] = d
	}
	var rows []*ListRun
	for _, m := range res.Maps {
		if data[m.N] != nil {
			rows = append(rows, m)
		}
	}
	if len(rows) == 0 {
		return
	}
	r.printf("### The map against terraform_data holding the same map\n\n")
	r.printf("One `terraform_data` whose `input` is the very map of the row (Terraform core's own cost of holding it, no provider), its no-change plans interleaved with the map's in the same run. ")
	r.printf("CPU is that of terraform and the provider it started (wait4).\n\n")
	r.printf("| contacts | map: no-change plan | terraform_data: no-change plan | map / terraform_data (median of the paired ratios) | map: plan per 1,000 contacts | per 1,000 / that at %d | map: terraform + provider CPU | terraform_data: terraform CPU | CPU ratio |\n", rows[0].N)
	r.printf("|---:|---:|---:|---:|---:|---:|---:|---:|---:|\n")
	base := perThousand(Median(rows[0].Plan), rows[0].N)
	worst, worstN := 0.0, 0
	for _, m := range rows {
		d := data[m.N]
		paired := PairedRatio(m.Plan, d.Plan)
		if paired > worst {
			worst, worstN = paired, m.N
		}
		per := perThousand(Median(m.Plan), m.N)
		r.printf("| %d | %s | %s | **%.2fx** | %s | %s | %s | %s | %s |\n", m.N, round(Median(m.Plan)), round(Median(d.Plan)), paired,
			round(per), ratio(per, base), round(Median(m.PlanTotalCPU)), round(Median(d.PlanTotalCPU)), ratio(Median(m.PlanTotalCPU), Median(d.PlanTotalCPU)))
	}
	last := rows[len(rows)-1]
	r.printf("\n- plan per 1,000 contacts at %d against that at %d: %s (target: within 1.15x)\n", last.N, rows[0].N, ratio(perThousand(Median(last.Plan), last.N), base))
	r.printf("- the map against terraform_data, worst size: **%.2fx** at %d (target: at most 1.5x at every size)\n\n", worst, worstN)
}

// fileSize is a size in kB or MB.
func fileSize(b int64) string {
	if b < 1e6 {
		return fmt.Sprintf("%.0f kB", float64(b)/1e3)
	}
	return fmt.Sprintf("%.1f MB", float64(b)/1e6)
}

// PairedRatio is the median of a[i]/b[i]: the two were timed one after the
// other in each repeat, so each pair saw about the same machine, which a
// ratio of medians taken from different repeats does not.
func PairedRatio(a, b []time.Duration) float64 {
	n := min(len(a), len(b))
	rs := make([]time.Duration, 0, n) // ratios scaled by 1e6, to reuse Median
	for i := 0; i < n; i++ {
		if b[i] > 0 {
			rs = append(rs, time.Duration(float64(a[i])/float64(b[i])*1e6))
		}
	}
	return float64(Median(rs)) / 1e6
}

// largeListsLatency writes the latency leg of the file lists, if it ran.
func (r Report) largeListsLatency(files []*ListRun) {
	if len(files) == 0 || files[0].Latency == 0 {
		return
	}
	r.printf("#### File input against a slow service\n\n")
	r.printf("The same lists, every answer of the emulator %s later (as a service across a network); no-change plans with the default settings, then one with `max_requests_per_second = %d`, whose peak rate is the most requests the emulator answered in any one second.\n\n", files[0].Latency, files[0].Cap)
	r.printf("| rows | no-change plan | provider peak RSS | no-change plan, capped | peak requests in one second, capped |\n")
	r.printf("|---:|---:|---:|---:|---:|\n")
	for _, f := range files {
		r.printf("| %d | **%s** | %s | %s | %d |\n", f.N, round(Median(f.LatencyPlan)), mib(f.LatencyRSS), round(f.CappedPlan), f.CappedPeakRate)
	}
	r.printf("\n")
}
