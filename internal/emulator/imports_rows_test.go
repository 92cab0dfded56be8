package emulator

import (
	"slices"
	"strconv"
	"strings"
	"testing"
)

// Rows read back as they were kept, across blocks and with a row longer
// than a block; a batch that reads them once lets the blocks it has read
// go, one that reads them twice (REPLACE) reads the same rows again.
func TestImportRowsAcrossBlocks(t *testing.T) {
	long := strings.Repeat("x", importRowsBlock+10)
	for _, tt := range []struct {
		name string
		rows [][]string // nil: a bad row
		keep bool
	}{
		{"one row", [][]string{{"a", "b"}}, false},
		{"bad rows between", [][]string{{"a"}, nil, {"", "c"}, nil}, false},
		{"a row longer than a block", [][]string{{"a"}, {long, "b"}, {"c"}}, false},
		{"many blocks", manyRows(200000), false},
		{"many blocks, kept", manyRows(200000), true},
	} {
		t.Run(tt.name, func(t *testing.T) {
			r := importRows{keep: tt.keep}
			for i, row := range tt.rows {
				if row == nil {
					r.appendBad("bad " + strconv.Itoa(i))
				} else {
					r.append(row)
				}
			}
			if r.n != int64(len(tt.rows)) {
				t.Fatalf("n = %d, want %d", r.n, len(tt.rows))
			}
			again := r.rereader()
			for _, rd := range []*importRows{&r, &again} {
				for i, want := range tt.rows {
					got, reason, ok := rd.next()
					if want == nil {
						if ok || reason != "bad "+strconv.Itoa(i) {
							t.Fatalf("row %d = %q, %q, %v; want the bad row", i, got, reason, ok)
						}
					} else if !ok || !slices.Equal(got, want) {
						t.Fatalf("row %d = %q, %q, %v; want %q", i, got, reason, ok, want)
					}
					if !tt.keep && rd == &r && rd.block > 0 && r.blocks[rd.block-1] != nil {
						t.Fatalf("row %d: block %d kept after it was read", i, rd.block-1)
					}
				}
				if !tt.keep {
					break // the blocks are gone
				}
			}
		})
	}
}

func manyRows(n int) [][]string {
	rows := make([][]string, n)
	for i := range rows {
		s := strconv.Itoa(i)
		rows[i] = []string{"c" + s + "@example.com", "Ada", "Lovelace-" + s}
	}
	return rows
}
