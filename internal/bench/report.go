package bench

import (
	"fmt"
	"io"
	"strings"
	"time"
)

// Report writes the figures as Markdown, ready for BENCHMARKS.md.
type Report struct {
	W io.Writer
}

func (r Report) printf(format string, args ...any) { fmt.Fprintf(r.W, format, args...) }

// Machine writes the machine section.
func (r Report) Machine(m Machine, command string, started time.Time) {
	r.printf("## Machine\n\n")
	r.printf("- command: `%s`\n", command)
	r.printf("- started: %s\n", started.UTC().Format(time.RFC3339))
	r.printf("- CPUs (`nproc`): %d; CPU model: %s; kernel: %s\n", m.CPUs, m.CPUModel, m.Kernel)
	r.printf("- %s; Terraform %s\n", m.Go, m.Terraform)
	r.printf("- load average at start (1, 5, 15 min): %s\n", m.LoadAvg)
	r.printf("- memory (`free -h`):\n\n```\n%s\n```\n\n", m.Memory)
}

// Requests writes the requests table.
func (r Report) Requests(rows []RequestRow) {
	r.printf("## HTTP requests per resource\n\n")
	r.printf("Counted by the emulator, by route, for each terraform command on N resources of one type. ")
	r.printf("Floor: one GET per managed object per refresh, one write per create, update or delete; ")
	r.printf("an update apply and a destroy refresh first, so their floor is 1 read + 1 write.\n\n")
	r.printf("| resource | N | operation | requests | reads / resource | writes / resource | floor / resource | ratio to floor | requests by route | wall | provider peak RSS |\n")
	r.printf("|---|---:|---|---:|---:|---:|---:|---:|---|---:|---:|\n")
	for _, row := range rows {
		n := float64(row.N)
		r.printf("| %s | %d | %s | %d | %s | %s | %s | **%.3f** | %s | %s | %s |\n",
			row.Resource, row.N, row.Op, row.Counts.Total(),
			perResource(row.Counts.Reads(), n), perResource(row.Counts.Writes(), n),
			perResource(row.FloorReads+row.FloorWrites, n), row.Ratio(), row.Counts, round(row.Wall), mib(row.PeakRSS))
	}
	r.printf("\nCommands, in each resource's own working directory and emulator: ")
	seen := map[string]bool{}
	var cmds []string
	for _, row := range rows {
		if c := row.Op + ": `" + row.Command + "`"; !seen[c] {
			seen[c] = true
			cmds = append(cmds, c)
		}
	}
	r.printf("%s.\n", strings.Join(cmds, "; "))
	r.printf("\nWhat each resource's configuration does: ")
	seen = map[string]bool{}
	var notes []string
	for _, row := range rows {
		if !seen[row.Resource] {
			seen[row.Resource] = true
			notes = append(notes, fmt.Sprintf("%s: %s", row.Resource, row.Note))
		}
	}
	r.printf("%s.\n\n", strings.Join(notes, "; "))
}

func perResource(count int64, n float64) string {
	v := float64(count) / n
	if v == float64(int64(v)) {
		return fmt.Sprintf("%.0f", v)
	}
	return fmt.Sprintf("%.3f", v)
}

// Timing writes the wall-time table.
func (r Report) Timing(results []TimingResult, repeat int) {
	r.printf("## Wall time: N rms_contact against N terraform_data\n\n")
	r.printf("Median of %d runs each, interleaved. `apply` creates N from nothing (contacts in one list, made out of band); ", repeat)
	r.printf("`plan` is a no-change `terraform plan` of the same N. terraform_data is Terraform's own cost for N resources (the floor). ")
	r.printf("Peak RSS is the largest VmHWM of a provider process during these runs.\n\n")
	r.printf("| N | subject | apply | apply / terraform_data | no-change plan | plan / terraform_data | requests of one plan | provider peak RSS |\n")
	r.printf("|---:|---|---:|---:|---:|---:|---|---:|\n")
	for _, res := range results {
		data := res.Subject(SubjectData)
		for _, s := range res.Subjects {
			apply, plan := "", ""
			applyRatio, planRatio := "", ""
			if len(s.Apply) > 0 {
				apply = round(Median(s.Apply)).String()
				applyRatio = ratio(Median(s.Apply), Median(data.Apply))
			}
			if len(s.Plan) > 0 {
				plan = round(Median(s.Plan)).String()
				planRatio = ratio(Median(s.Plan), Median(data.Plan))
			}
			reqs, rss := "", ""
			if s.Name != SubjectData {
				reqs = s.PlanRequests.String()
				rss = mib(s.PeakRSS)
			} else {
				reqs, rss = "none (no provider)", "n/a"
			}
			r.printf("| %d | %s | %s | %s | %s | %s | %s | %s |\n", res.N, s.Name, apply, applyRatio, plan, planRatio, reqs, rss)
		}
	}
	r.printf("\nCPU time of one no-change plan (median), which a busy machine disturbs less than wall time: ")
	r.printf("terraform with the provider processes it ran (from wait4), the provider processes alone (sampled from /proc), and the emulator answering them (this process).\n\n")
	r.printf("| N | subject | terraform + provider CPU | CPU / terraform_data | provider CPU | emulator CPU |\n")
	r.printf("|---:|---|---:|---:|---:|---:|\n")
	for _, res := range results {
		data := res.Subject(SubjectData)
		for _, s := range res.Subjects {
			if len(s.PlanTerraformCPU) == 0 {
				continue
			}
			r.printf("| %d | %s | %s | %s | %s | %s |\n", res.N, s.Name,
				round(Median(s.PlanTerraformCPU)), ratio(Median(s.PlanTerraformCPU), Median(data.PlanTerraformCPU)),
				round(Median(s.PlanProviderCPU)), round(Median(s.PlanEmulatorCPU)))
		}
	}
	r.printf("\nEvery run (seconds):\n\n")
	for _, res := range results {
		for _, s := range res.Subjects {
			if len(s.Apply) > 0 {
				r.printf("- N=%d %s `%s`: %s\n", res.N, s.Name, s.ApplyCmd, seconds(s.Apply))
			}
			if len(s.Plan) > 0 {
				r.printf("- N=%d %s `%s`: %s\n", res.N, s.Name, s.PlanCmd, seconds(s.Plan))
			}
		}
	}
	r.printf("\n")
}

// Pending writes a section for a scenario that could not run.
func (r Report) Pending(title string, err error) {
	r.printf("## %s\n\n**Pending**: %s.\n\n", title, strings.TrimPrefix(err.Error(), ErrPending.Error()+": "))
}

func ratio(a, b time.Duration) string {
	if b <= 0 {
		return ""
	}
	return fmt.Sprintf("**%.2fx**", float64(a)/float64(b))
}

func round(d time.Duration) time.Duration { return d.Round(10 * time.Millisecond) }

func seconds(ds []time.Duration) string {
	parts := make([]string, len(ds))
	for i, d := range ds {
		parts[i] = fmt.Sprintf("%.2f", d.Seconds())
	}
	return strings.Join(parts, ", ")
}

func mib(b int64) string {
	if b <= 0 {
		return "not seen"
	}
	return fmt.Sprintf("%.1f MiB", float64(b)/(1<<20))
}
