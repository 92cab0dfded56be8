package bench

import (
	"bytes"
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
			for _, w := range append(tc.want, "| floor (no-I/O rms_contact) | **2s** (1s–3s) |", "0.5 0.5 0.5 (floor first)") {
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
