package provider

import (
	"fmt"
	"sort"
	"testing"
)

func TestZZUses(t *testing.T) {
	uses := fileUses(t)
	var out []string
	for from, tos := range uses {
		for to, n := range tos {
			out = append(out, fmt.Sprintf("%s -> %s (%s)", from, to, n))
		}
	}
	sort.Strings(out)
	for _, o := range out {
		fmt.Println(o)
	}
}
