package bench

import (
	"bytes"
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

func TestMedianFloat(t *testing.T) {
	for _, tc := range []struct {
		in   []float64
		want float64
	}{{nil, 0}, {[]float64{1.2}, 1.2}, {[]float64{1.3, 0.9, 1.1}, 1.1}, {[]float64{1.5, 1.0, 1.25, 2.0}, 1.375}} {
		if got := MedianFloat(tc.in); got != tc.want {
			t.Errorf("MedianFloat(%v) = %v, want %v", tc.in, got, tc.want)
		}
	}
}

// TestReportFloor: the report gives each side's median and spread, the
// median of the paired ratios, and says which side of the threshold the
// floor is.
func TestReportFloor(t *testing.T) {
	s := time.Second
	side := func(name string, wall ...time.Duration) FloorSide {
		return FloorSide{Name: name, Wall: wall, CPU: wall, ProvCPU: wall, EmuCPU: wall}
	}
	for _, tc := range []struct {
		name        string
		contact     []time.Duration
		want, avoid []string
	}{
		{"slower by a tenth", []time.Duration{11 * s / 10, 22 * s / 10, 33 * s / 10},
			[]string{"**2.2s** (1.1s–3.3s)", "| wall | **1.100x** | 1.100–1.100 | 1.100, 1.100, 1.100 |", "rms_contact is **10.0 % slower** than the floor", "more than the 5 % allowed"},
			[]string{"within 5"}},
		{"slower by a fiftieth", []time.Duration{102 * s / 100, 204 * s / 100, 306 * s / 100},
			[]string{"| wall | **1.020x** |", "is **within 5 %** of the floor", "+2.0 %"},
			[]string{"slower than"}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			res := FloorResult{N: 3, Contact: side(SideContact, tc.contact...), Floor: side(SideFloor, s, 2*s, 3*s)}
			for i := range tc.contact {
				res.Pairs = append(res.Pairs, FloorPair{FloorFirst: i%2 == 1, Load: "0.5 0.5 0.5",
					Wall: ratioOf(res.Contact.Wall[i], res.Floor.Wall[i]), CPU: ratioOf(res.Contact.CPU[i], res.Floor.CPU[i])})
			}
			var buf bytes.Buffer
			Report{W: &buf}.Floor(res)
			out := buf.String()
			for _, w := range append(tc.want, "| floor (no-I/O rms_contact) | **2s** (1s–3s) |", "0.5 0.5 0.5 (floor first)", "over the 2 pairs rms_contact went first", "over the 1 the floor did", "an odd number of pairs") {
				if !strings.Contains(out, w) {
					t.Errorf("report lacks %q:\n%s", w, out)
				}
			}
			for _, a := range tc.avoid {
				if strings.Contains(out, a) {
					t.Errorf("report has %q:\n%s", a, out)
				}
			}
		})
	}
}

// TestFloorThroughTheCLI runs the floor scenario small, through the real
// terraform CLI with both built providers: the floor's plans are no-change
// plans (exit 0 with -detailed-exitcode, identity and all) and send no
// request, the real provider's refresh reads its list, and every pair has
// its ratios. It builds two providers and runs terraform, so it runs with
// the acceptance tests (TF_ACC).
func TestFloorThroughTheCLI(t *testing.T) {
	if os.Getenv("TF_ACC") == "" {
		t.Skip("runs terraform: set TF_ACC=1 (make test does)")
	}
	ctx := context.Background()
	root, err := filepath.Abs("../..")
	must(t, err)
	dir := t.TempDir()
	tf, err := Setup(ctx, root, dir, os.Getenv("TF_ACC_TERRAFORM_PATH"))
	must(t, err)
	fp, err := SetupFloor(ctx, root, dir)
	must(t, err)
	b := &Bench{TF: tf, Dir: dir, Repeat: 1}
	const n, pairs = 3, 5
	res, err := b.Floor(ctx, fp, n, pairs, nil, nil)
	must(t, err) // a floor plan that is not a no-change plan, or sends a request, is an error
	if len(res.Pairs) != pairs || len(res.Contact.Wall) != pairs || len(res.Floor.CPU) != pairs {
		t.Fatalf("%d pairs, %d contact plans, %d floor plans", len(res.Pairs), len(res.Contact.Wall), len(res.Floor.CPU))
	}
	for i, p := range res.Pairs {
		if p.Wall <= 0 || p.CPU <= 0 || p.FloorFirst != (i%2 == 1) {
			t.Errorf("pair %d: %+v", i, p)
		}
	}
	if got := res.Contact.Requests.Reads(); got < 1 {
		t.Errorf("the real provider's plan read nothing (%s): it is not the real provider", res.Contact.Requests)
	}
	if res.Floor.Requests.Total() != 0 {
		t.Errorf("the floor's plan sent %s", res.Floor.Requests)
	}
}
