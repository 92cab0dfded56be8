package client

import (
	"testing"
	"time"
)

func TestListingWindow(t *testing.T) {
	tests := []struct {
		name      string
		perSecond float64
		latency   time.Duration
		known     bool
		want      int
	}{
		{name: "no cap", latency: 50 * time.Millisecond, known: true, want: DefaultListingWindow},
		{name: "no cap, slow service", latency: 2 * time.Second, known: true, want: DefaultListingWindow},
		{name: "end unknown", latency: 50 * time.Millisecond, want: DefaultListingConcurrency},
		{name: "end unknown under a cap", perSecond: 100, latency: time.Second, want: DefaultListingConcurrency},
		{name: "cap of 25, 50 ms: never below the old window", perSecond: 25, latency: 50 * time.Millisecond, known: true, want: DefaultListingConcurrency},
		{name: "cap of 25, 300 ms", perSecond: 25, latency: 300 * time.Millisecond, known: true, want: 15},
		{name: "cap of 100, 50 ms", perSecond: 100, latency: 50 * time.Millisecond, known: true, want: 10},
		{name: "fractional product rounds up", perSecond: 10.5, latency: 300 * time.Millisecond, known: true, want: 7},
		{name: "high cap, slow service: bounded", perSecond: 1000, latency: time.Second, known: true, want: maxListingWindow},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if got := listingWindow(tt.perSecond, tt.latency, tt.known); got != tt.want {
				t.Errorf("listingWindow(%v, %v, %v) = %d, want %d", tt.perSecond, tt.latency, tt.known, got, tt.want)
			}
		})
	}
}
