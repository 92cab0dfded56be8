package state

import (
	"math/rand/v2"
	"slices"
	"strconv"
	"testing"
)

// A position table finds every position held under its key and no
// other, through growth and removals that shift entries back across the
// table's end, for keys held once and keys held many times.
func TestPosIndexAgainstAMap(t *testing.T) {
	tests := []struct {
		name string
		keys int // distinct keys: few means long runs of one key
	}{
		{"unique keys", 1 << 20},
		{"shared keys", 5},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			rnd := rand.New(rand.NewPCG(1, uint64(tt.keys)))
			var x posIndex
			var keys []string // key of each position
			held := map[int]bool{}
			keyOf := func(pos int) string { return keys[pos] }
			for step := range 20_000 {
				if len(held) > 0 && rnd.IntN(3) == 0 {
					pos := rnd.IntN(len(keys))
					if held[pos] {
						x.remove(x.hash(keys[pos]), pos, keyOf)
						delete(held, pos)
					}
				} else {
					keys = append(keys, "k"+strconv.Itoa(rnd.IntN(tt.keys)))
					pos := len(keys) - 1
					x.insert(x.hash(keys[pos]), pos, keyOf)
					held[pos] = true
				}
				if step%997 != 0 {
					continue
				}
				for _, key := range []string{keys[rnd.IntN(len(keys))], "k0", "absent"} {
					var want, got []int
					for pos := range held {
						if keys[pos] == key {
							want = append(want, pos)
						}
					}
					x.each(x.hash(key), func(pos int) bool {
						if keys[pos] == key {
							got = append(got, pos)
						}
						return true
					})
					slices.Sort(want)
					slices.Sort(got)
					if !slices.Equal(want, got) || x.n != len(held) {
						t.Fatalf("step %d: %q finds %v, want %v; table holds %d, want %d", step, key, got, want, x.n, len(held))
					}
				}
			}
		})
	}
}
