package bench

import (
	"testing"
	"time"
)

func TestPeakRate(t *testing.T) {
	start := time.Unix(1000, 0)
	at := func(ms ...int) []Event {
		var out []Event
		for _, m := range ms {
			a := start.Add(time.Duration(m) * time.Millisecond)
			out = append(out, Event{Arrived: a, At: a.Add(time.Duration(1000-m) * time.Millisecond)}) // answered in another order
		}
		return out
	}
	cases := []struct {
		name   string
		events []Event
		want   int
	}{
		{"none", nil, 0},
		{"one a second", at(0, 1000, 2000, 3000), 1},
		{"three within a second, then one", at(0, 400, 999, 1500), 3},
		{"a window that slides", at(0, 600, 1200, 1300, 1500), 4},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			if got := PeakRate(c.events, time.Second); got != c.want {
				t.Errorf("PeakRate = %d, want %d", got, c.want)
			}
		})
	}
}
