package main

import (
	"math"
	"runtime/debug"
	"testing"
)

func TestParseMemoryLimit(t *testing.T) {
	for _, tt := range []struct {
		in      string
		want    int64
		wantErr bool
	}{
		{"2304MiB", 2304 << 20, false},
		{"2GiB", 2 << 30, false},
		{"1TiB", 1 << 40, false},
		{"512KiB", 512 << 10, false},
		{"1000B", 1000, false},
		{"1000", 1000, false},
		{"off", math.MaxInt64, false},
		{"2 GiB", 0, true},
		{"2GB", 0, true},
		{"-1MiB", 0, true},
		{"", 0, true},
		{"99999999999TiB", 0, true},
	} {
		t.Run(tt.in, func(t *testing.T) {
			got, err := parseMemoryLimit(tt.in)
			if (err != nil) != tt.wantErr || got != tt.want {
				t.Errorf("parseMemoryLimit(%q) = %d, %v; want %d, an error: %v", tt.in, got, err, tt.want, tt.wantErr)
			}
		})
	}
}

// The flag sets the limit; without it GOMEMLIMIT is left to the runtime,
// and without either the default applies. Each puts back the limit before.
func TestMemoryLimitFlagApply(t *testing.T) {
	for _, tt := range []struct {
		name, flag, env string
		want            int64 // -1: the limit before
	}{
		{"default", "", "", defaultMemoryLimit},
		{"flag", "3GiB", "", 3 << 30},
		{"flag over the environment", "1GiB", "5GiB", 1 << 30},
		{"off", "off", "", math.MaxInt64},
		{"the environment's", "", "5GiB", -1},
	} {
		t.Run(tt.name, func(t *testing.T) {
			t.Setenv("GOMEMLIMIT", tt.env)
			before := debug.SetMemoryLimit(-1)
			var f memoryLimitFlag
			if tt.flag != "" {
				if err := f.Set(tt.flag); err != nil {
					t.Fatal(err)
				}
			}
			restore := f.apply()
			want := tt.want
			if want == -1 {
				want = before
			}
			if got := debug.SetMemoryLimit(-1); got != want {
				t.Errorf("limit %d, want %d", got, want)
			}
			restore()
			if got := debug.SetMemoryLimit(-1); got != before {
				t.Errorf("limit after restore %d, want %d", got, before)
			}
		})
	}
}
