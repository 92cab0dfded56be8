package bench

import (
	"bytes"
	"encoding/csv"
	"math"
	"strings"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"

	"github.com/rms-labs/terraform-provider-rms/internal/emulator"
)

// The preloaded list must hold what the file says, or the first apply
// would write every contact and the plans would not be no-change plans.
func TestCSVContactMatchesTheFile(t *testing.T) {
	for version := range 2 {
		var buf bytes.Buffer
		must(t, WriteCSVVersion(&buf, 201, version))
		recs, err := csv.NewReader(&buf).ReadAll()
		must(t, err)
		if got := strings.Join(recs[0], ","); got != CSVHeader {
			t.Fatalf("header %q", got)
		}
		changed := 0
		for i, rec := range recs[1:] {
			c := CSVContact(i, version)
			got := emulator.Contact{OriginalID: rec[0], Properties: map[string]string{"email": rec[1], "firstname": rec[2], "lastname": rec[3]}}
			if diff := cmp.Diff(c, got); diff != "" {
				t.Fatalf("version %d row %d (-CSVContact +file):\n%s", version, i, diff)
			}
			if c.Properties["firstname"] != CSVContact(i, 0).Properties["firstname"] {
				changed++
			}
		}
		if want := map[int]int{0: 0, 1: 3}[version]; changed != want { // rows 0, 100, 200
			t.Errorf("version %d changes %d rows, want %d", version, changed, want)
		}
	}
}

func TestMapListConfig(t *testing.T) {
	got := mapListConfig("7", 2)
	for _, want := range []string{
		`list_id = "7"`,
		`"contact-0" = { properties = { email = "contact-0@example.com", firstname = "version 0" } }`,
		`"contact-1" = { properties = { email = "contact-1@example.com", firstname = "version 0" } }`,
	} {
		if !strings.Contains(got, want) {
			t.Errorf("config lacks %s:\n%s", want, got)
		}
	}
}

func TestCrossingOf(t *testing.T) {
	s := time.Second
	ns := []int{1000, 5000, 10000, 20000}
	for _, tc := range []struct {
		name  string
		times []time.Duration
		limit time.Duration
		want  float64
		how   string
	}{
		{"between", []time.Duration{1 * s, 3 * s, 7 * s, 15 * s}, 5 * s, 7500, "interpolated between 5000 and 10000"},
		{"on a point", []time.Duration{1 * s, 3 * s, 5 * s, 15 * s}, 5 * s, 10000, "interpolated between 5000 and 10000"},
		{"beyond", []time.Duration{1 * s, 2 * s, 3 * s, 5 * s}, 7 * s, 30000, "extrapolated from 10000 and 20000"},
		{"below", []time.Duration{10 * s, 20 * s, 30 * s, 40 * s}, 5 * s, 500, "smallest size"},
	} {
		c := CrossingOf(ns, tc.times, tc.limit)
		if !c.OK || math.Abs(c.N-tc.want) > 0.5 || !strings.Contains(c.How, tc.how) {
			t.Errorf("%s: %+v, want %v (%s)", tc.name, c, tc.want, tc.how)
		}
	}
	if c := CrossingOf(ns, []time.Duration{1 * s, 2 * s, 3 * s, 3 * s}, 7*s); c.OK {
		t.Errorf("flat times extrapolated: %+v", c)
	}
	if c := CrossingOf(nil, nil, s); c.OK {
		t.Errorf("no points: %+v", c)
	}
}

func TestPairedRatio(t *testing.T) {
	s := time.Second
	// The ratio of medians would be 46/18 = 2.56; the pairs say 3.
	a := []time.Duration{56 * s, 46 * s, 43 * s}
	b := []time.Duration{18 * s, 22 * s, 14 * s}
	if got := PairedRatio(a, b); math.Abs(got-3.07) > 0.01 {
		t.Errorf("PairedRatio = %.3f, want 3.07", got)
	}
	if got := PairedRatio(nil, nil); got != 0 {
		t.Errorf("no pairs: %v", got)
	}
}
