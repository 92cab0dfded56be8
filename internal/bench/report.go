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

// printf writes to the report. Its callers write many short lines; a
// failing writer (a full disk) shows as a short report, which the caller's
// Close of the file reports, so the error of each line is not kept.
func (r Report) printf(format string, args ...any) { _, _ = fmt.Fprintf(r.W, format, args...) }

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
	r.printf("an update apply and a destroy refresh first, so their floor is 1 read + 1 write; a contact's destroy forgets it (`on_destroy = \"forget\"`, the default) and writes nothing. ")
	r.printf("Each command also checks the provider's credentials once per time Terraform configures it, whatever N (`%s`: a plan 1, an apply 2, a destroy 3); the floor counts them, and a contact's create lists the account's attributes as often, to check new property keys at plan (`%s`).\n\n", CheckRoute, AttributeRoute)
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

// Files writes the large-file table.
func (r Report) Files(rows []FileRow) {
	r.printf("## Peak provider memory: large imports and exports\n\n")
	r.printf("Each row is one `terraform apply` against a fresh emulator, batches polled every second: ")
	r.printf("an `rms_list_import` of a generated CSV (`originalId,email,firstname,lastname`) into a list made out of band, ")
	r.printf("or an `rms_statistics_export` of as many rows streamed to `output_path`; the baseline applies one `rms_list`. ")
	r.printf("Peak RSS is the largest VmHWM of a provider process during the apply, which includes the plan's hash of the import file.\n\n")
	r.printf("| scenario | rows | file | apply wall | provider peak RSS | provider CPU | requests by route |\n")
	r.printf("|---|---:|---:|---:|---:|---:|---|\n")
	for _, row := range rows {
		size := ""
		if row.Bytes > 0 {
			size = fmt.Sprintf("%.1f MB", float64(row.Bytes)/1e6)
		}
		r.printf("| %s | %d | %s | %s | **%s** | %s | %s |\n", row.Scenario, row.Rows, size, round(row.Wall), mib(row.PeakRSS), round(row.CPU), row.Counts)
	}
	if len(rows) > 0 {
		r.printf("\nCommand: `%s` in each scenario's working directory.\n\n", rows[0].Command)
	}
}

// BatchWaits writes the batch-wait table.
func (r Report) BatchWaits(rows []BatchWaitRow) {
	r.printf("## Batch waits\n\n")
	r.printf("An `rms_list_import` of 10 rows whose batch the emulator keeps running for the pace given (`BatchMinDuration`), ")
	r.printf("with the provider's default `batch_poll_interval` (30s) and with `1s`. Measured rows count the `GET batches/{id}` of the apply and time them ")
	r.printf("against the batch's own `startTime` and `endTime`; computed rows come from the client's `PollSchedule` (first look at once, ")
	r.printf("then 1 s, doubling up to the interval), as a five-minute batch is too long to wait for in `make bench`.\n\n")
	r.printf("| batch pace | batch_poll_interval | how | polls | looks at (s after the batch started) | last look after the batch finished | apply returned after the batch finished |\n")
	r.printf("|---:|---:|---|---:|---|---:|---:|\n")
	for _, row := range rows {
		how, applyLate := "computed", "n/a"
		if row.Measured {
			how, applyLate = "measured", fmt.Sprintf("%.2fs", row.ApplyLate.Seconds())
		}
		r.printf("| %s | %s | %s | %d | %s | %.2fs | %s |\n", row.Pace, row.Interval, how, row.Polls, looks(row.LooksAt), row.LastLookLate.Seconds(), applyLate)
	}
	for _, row := range rows {
		if row.Measured {
			r.printf("\nCommand: `%s`.\n", row.Command)
			break
		}
	}
	r.printf("\n")
}

// looks lists times in seconds, eliding the middle of long lists.
func looks(ds []time.Duration) string {
	parts := make([]string, len(ds))
	for i, d := range ds {
		parts[i] = fmt.Sprintf("%.1f", d.Seconds())
	}
	if len(parts) > 12 {
		parts = append(append(parts[:6:6], "..."), parts[len(parts)-3:]...)
	}
	return strings.Join(parts, ", ")
}

// roundPerRow rounds a time per 1,000 rows, a few milliseconds, where
// round's 10 ms would show nothing.
func roundPerRow(d time.Duration) time.Duration { return d.Round(100 * time.Microsecond) }
