package bench

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
)

func TestRoute(t *testing.T) {
	for path, want := range map[string]string{
		"/rest/1000/projects":                                  "projects",
		"/rest/1000/projects/42":                               "projects/{id}",
		"/rest/1000/lists/5/contacts":                          "lists/{id}/contacts",
		"/rest/1000/lists/5/contacts/c-1":                      "lists/{id}/contacts/{originalId}",
		"/rest/1000/lists/5/contacts/42":                       "lists/{id}/contacts/{originalId}",
		"/rest/1000/lists/5/contacts/c%201/subscriptionstatus": "lists/{id}/contacts/{originalId}/subscriptionstatus",
		"/rest/1000/properties":                                "properties",
		"/rest/1000":                                           "",
		"/rest/1000/batches/12":                                "batches/{id}",
		"/rest/1000/lists/5/recipients/7":                      "lists/{id}/recipients/{id}",
		"/objectstore/abc123":                                  "objectstore/{token}",
		"/mail/swagger":                                        "/mail/swagger",
	} {
		if got := Route(path); got != want {
			t.Errorf("Route(%q) = %q, want %q", path, got, want)
		}
	}
}

func TestCounts(t *testing.T) {
	before := Counts{"GET projects/{id}": 2, "POST projects": 1}
	after := Counts{"GET projects/{id}": 5, "POST projects": 1, "PUT projects/{id}": 4, "DELETE projects/{id}": 1, "GET properties": 1}
	d := after.Sub(before)
	if diff := cmp.Diff(Counts{"GET projects/{id}": 3, "PUT projects/{id}": 4, "DELETE projects/{id}": 1, "GET properties": 1}, d); diff != "" {
		t.Errorf("Sub (-want +got):\n%s", diff)
	}
	if d.Total() != 9 || d.Reads() != 4 || d.Writes() != 5 {
		t.Errorf("total %d, reads %d, writes %d", d.Total(), d.Reads(), d.Writes())
	}
	if got, want := d.String(), "4 PUT projects/{id}, 3 GET projects/{id}, 1 DELETE projects/{id}, 1 GET properties"; got != want {
		t.Errorf("String = %q, want %q", got, want)
	}
	if got := (Counts{}).String(); got != "none" {
		t.Errorf("empty String = %q", got)
	}
	row := RequestRow{Counts: d, FloorReads: 3, FloorWrites: 3}
	if row.Ratio() != 1.5 {
		t.Errorf("ratio %v", row.Ratio())
	}
}

func TestMedian(t *testing.T) {
	s := time.Second
	for _, tc := range []struct {
		in   []time.Duration
		want time.Duration
	}{{nil, 0}, {[]time.Duration{3 * s}, 3 * s}, {[]time.Duration{5 * s, 1 * s, 3 * s}, 3 * s}, {[]time.Duration{4 * s, 1 * s, 2 * s, 8 * s}, 3 * s}} {
		if got := Median(tc.in); got != tc.want {
			t.Errorf("Median(%v) = %v, want %v", tc.in, got, tc.want)
		}
	}
}

func TestParseStat(t *testing.T) {
	// The name may hold spaces and parentheses.
	raw := "4242 (terraform-provi) ) S 100 4242 100 0 -1 4194560 1234 0 0 0 250 37 0 0 20 0 9 0 1 2 3\n"
	got, ok := parseStat([]byte(raw))
	if !ok || got != (procStat{ppid: 100, comm: "terraform-provi) ", cpuTicks: 287}) {
		t.Errorf("parseStat = %+v, %v", got, ok)
	}
	if _, ok := parseStat([]byte("4242 no name here")); ok {
		t.Error("parsed a line without a name")
	}
}

// The sampler finds the provider children of terraform in a /proc tree and
// keeps the highest VmHWM and the CPU time of each.
func TestProcSampler(t *testing.T) {
	proc := t.TempDir()
	write := func(pid, ppid, name string, hwmKB, ticks string) {
		dir := filepath.Join(proc, pid)
		must(t, os.MkdirAll(dir, 0o755))
		must(t, os.WriteFile(filepath.Join(dir, "stat"), []byte(pid+" ("+name+") S "+ppid+" 1 1 0 -1 0 0 0 0 0 "+ticks+" 0 0 0 20 0 1 0"), 0o644))
		must(t, os.WriteFile(filepath.Join(dir, "status"), []byte("Name:\t"+name+"\nVmPeak:\t 99999 kB\nVmHWM:\t "+hwmKB+" kB\n"), 0o644))
	}
	write("100", "1", "terraform", "50000", "5")
	write("201", "100", "terraform-provi", "30000", "120")
	write("202", "100", "terraform-provi", "45000", "80")
	write("203", "100", "git", "90000", "1")             // another child
	write("301", "999", "terraform-provi", "70000", "1") // another terraform's
	must(t, os.MkdirAll(filepath.Join(proc, "100", "task", "100"), 0o755))
	must(t, os.WriteFile(filepath.Join(proc, "100", "task", "100", "children"), []byte("201 202 203 "), 0o644))

	s := newProcSampler(100, "terraform-provider-rms")
	s.proc = proc
	s.sample()
	write("201", "100", "terraform-provi", "31000", "130") // grew
	s.sample()
	peak, cpu, n := s.result()
	if peak != 45000*1024 || cpu != 210*clockTick || n != 2 {
		t.Errorf("peak %d, cpu %v, processes %d", peak, cpu, n)
	}

	// Without children files, every process is looked at.
	must(t, os.RemoveAll(filepath.Join(proc, "100", "task")))
	s = newProcSampler(100, "terraform-provider-rms")
	s.proc = proc
	s.sample()
	if _, _, n := s.result(); n != 2 {
		t.Errorf("full scan found %d processes, want 2", n)
	}
}

func must(t *testing.T, err error) {
	t.Helper()
	if err != nil {
		t.Fatal(err)
	}
}

// The request targets (BENCHMARKS.md) through the real terraform CLI and the
// built provider: every write at one call per resource, and no refresh
// above one GET per resource, besides the command's credentials checks
// (one per time Terraform configures the provider, whatever N). It builds the provider and runs terraform, so
// it runs with the acceptance tests (TF_ACC).
func TestRequestsAtTheFloor(t *testing.T) {
	if os.Getenv("TF_ACC") == "" {
		t.Skip("runs terraform: set TF_ACC=1 (make test does)")
	}
	ctx := context.Background()
	root, err := filepath.Abs("../..")
	must(t, err)
	dir := t.TempDir()
	// The same terraform as the acceptance tests (make test-latest sets it).
	tf, err := Setup(ctx, root, dir, os.Getenv("TF_ACC_TERRAFORM_PATH"))
	must(t, err)
	b := &Bench{TF: tf, Dir: dir, Repeat: 1}
	const n = 3
	rows, err := b.Requests(ctx, n)
	must(t, err)
	if len(rows) != len(requestKinds)*len(operations) {
		t.Fatalf("%d rows", len(rows))
	}
	for _, r := range rows {
		if r.Counts.Writes() != r.FloorWrites || r.Counts.Reads() > r.FloorReads || r.Counts.Total() != r.Counts.Reads()+r.Counts.Writes() {
			t.Errorf("%s %s: %s; floor %d reads, %d writes", r.Resource, r.Op, r.Counts, r.FloorReads, r.FloorWrites)
		}
		if got := r.Counts[CheckRoute]; got != r.Checks {
			t.Errorf("%s %s: %d credentials checks (%s), want %d: one each time Terraform configures the provider", r.Resource, r.Op, got, CheckRoute, r.Checks)
		}
		if got := r.Counts[AttributeRoute]; got != r.AttributeReads {
			t.Errorf("%s %s: %d listings of the attributes (%s), want %d: one each time Terraform configures the provider, on a plan that adds property keys", r.Resource, r.Op, got, AttributeRoute, r.AttributeReads)
		}
		if strings.HasPrefix(r.Resource, "rms_contact") && r.FloorReads == n+r.Checks+r.AttributeReads && r.Counts.Reads() != 2+r.Checks+r.AttributeReads {
			t.Errorf("%s %s: %d reads, want %d (a GET, then the shared listing, the credentials checks and the attribute listings)", r.Resource, r.Op, r.Counts.Reads(), 2+r.Checks+r.AttributeReads)
		}
	}
}

func TestWriteCSV(t *testing.T) {
	var b strings.Builder
	must(t, WriteCSV(&b, 3))
	want := CSVHeader + "\n" +
		"customer-0,c0@example.com,Ada,Lovelace-0\n" +
		"customer-1,c1@example.com,Ada,Lovelace-1\n" +
		"customer-2,c2@example.com,Ada,Lovelace-2\n"
	if diff := cmp.Diff(want, b.String()); diff != "" {
		t.Errorf("CSV (-want +got):\n%s", diff)
	}
	size, err := WriteCSVFile(filepath.Join(t.TempDir(), "rows.csv"), 100_000)
	must(t, err)
	// About 60 bytes a row, as the 60 MB for 1,000,000 rows.
	if size < 4_500_000 || size > 6_500_000 {
		t.Errorf("100,000 rows are %d bytes", size)
	}
}

// The computed batch waits follow the client's schedule: one look at once,
// then 1 s doubling up to the interval.
func TestScheduledLooks(t *testing.T) {
	s := time.Second
	tests := []struct {
		pace, interval time.Duration
		want           []time.Duration
	}{
		{5 * s, 30 * s, []time.Duration{0, 1 * s, 3 * s, 7 * s}},
		{5 * s, s, []time.Duration{0, s, 2 * s, 3 * s, 4 * s, 5 * s}},
		{0, 30 * s, []time.Duration{0}},
	}
	for _, tc := range tests {
		if diff := cmp.Diff(tc.want, ScheduledLooks(tc.pace, tc.interval)); diff != "" {
			t.Errorf("ScheduledLooks(%s, %s) (-want +got):\n%s", tc.pace, tc.interval, diff)
		}
	}
	long := ScheduledLooks(5*time.Minute, 30*s)
	if len(long) != 15 || long[len(long)-1] != 301*s {
		t.Errorf("a 5-minute batch: %d looks, the last at %s", len(long), long[len(long)-1])
	}
}
