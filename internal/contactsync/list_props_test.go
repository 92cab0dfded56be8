package contactsync

import (
	"context"
	"testing"
)

// A map input's listing keeps properties only where the comparison needs
// them: of the contacts the map names (For), or, for an adoption, of every
// contact while the list is small enough to adopt (PropsUpTo). The others
// keep their statuses, and a book naming a contact the listing kept no
// properties of is not comparable with it, so the plan lists again.
func TestListKeepsPropsOnlyWhereNeeded(t *testing.T) {
	e := newListingEnv(t, 50, nil)
	run := NewRun(e.client, RunOptions{})
	ctx := context.Background()
	mapOf := func(ids ...string) *Book {
		d := make([]Desired, len(ids))
		for i, id := range ids {
			d[i] = Desired{ID: id}
		}
		return BookOf(d)
	}
	named := mapOf("c-3", "c-7")

	tests := []struct {
		name       string
		opts       ListOptions
		withProps  []string // contacts that keep their properties
		comparable map[*Book]bool
	}{
		{"every contact", ListOptions{Props: true}, []string{"c-0", "c-3", "c-49"},
			map[*Book]bool{named: true, mapOf("c-3", "c-9"): true}},
		{"the map's contacts", ListOptions{Props: true, For: named}, []string{"c-3", "c-7"},
			map[*Book]bool{named: true, mapOf("c-7"): true, mapOf("c-3", "c-9"): false}},
		{"adoption of a small list", ListOptions{Props: true, PropsUpTo: 50}, []string{"c-0", "c-49"},
			map[*Book]bool{named: true}},
		{"adoption of a list too large", ListOptions{Props: true, PropsUpTo: 49}, nil,
			map[*Book]bool{named: false}},
		{"statuses only", ListOptions{}, nil, map[*Book]bool{named: false}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			s, err := run.List(ctx, e.listID, tt.opts)
			if err != nil {
				t.Fatal(err)
			}
			if s.Len() != 50 {
				t.Fatalf("listed %d contacts, want 50", s.Len())
			}
			want := map[string]bool{}
			for _, id := range tt.withProps {
				want[id] = true
			}
			kept := 0
			for id, c := range s.All() {
				if c.Email == "" {
					t.Errorf("%s lost its status", id)
				}
				if c.Props != nil {
					kept++
					if c.Props["firstname"] == "" {
						t.Errorf("%s kept properties without its firstname: %v", id, c.Props)
					}
				}
				if want[id] && c.Props == nil {
					t.Errorf("%s kept no properties", id)
				}
			}
			if len(tt.withProps) == 0 && kept != 0 {
				t.Errorf("%d contacts kept properties, want none", kept)
			}
			if tt.opts.For != nil && kept != tt.opts.For.Len() {
				t.Errorf("%d contacts kept properties, want the map's %d", kept, tt.opts.For.Len())
			}
			for book, want := range tt.comparable {
				if got := s.Comparable(book); got != want {
					t.Errorf("Comparable with a map of %d contacts = %v, want %v", book.Len(), got, want)
				}
			}
		})
	}
}
