package contactsync

import (
	"fmt"
	"math/rand/v2"
	"slices"
	"testing"
)

// TestServiceListInAnyOrder: a listing held against a file's book finds
// each contact whatever order the service lists them in (the book's own,
// the reverse, shuffled, shuffled and then in order, with contacts listed
// twice, with contacts the book does not name), and holds the same.
func TestServiceListInAnyOrder(t *testing.T) {
	var rows []Desired
	for i := range 300 {
		rows = append(rows, Desired{ID: fmt.Sprintf("c-%03d", i), Props: map[string]string{"email": fmt.Sprintf("c%d@example.com", i)}})
	}
	book := fileBook(t, []string{"email"}, rows)
	inOrder := make([]string, book.Len())
	for i := range inOrder {
		inOrder[i] = book.ID(i)
	}
	reversed := slices.Clone(inOrder)
	slices.Reverse(reversed)
	shuffled := slices.Clone(inOrder)
	rand.New(rand.NewPCG(3, 4)).Shuffle(len(shuffled), func(i, j int) { shuffled[i], shuffled[j] = shuffled[j], shuffled[i] })
	thenInOrder := append(slices.Clone(shuffled[:100]), inOrder...)
	withOthers := append([]string{"x-1"}, append(slices.Clone(inOrder[:150]), append([]string{"x-2", "c-150", "c-149"}, inOrder[150:]...)...)...)

	statusOf := func(id string) ServiceContact {
		if id[len(id)-1]%2 == 0 {
			return ServiceContact{Email: sub}
		}
		return ServiceContact{Email: unsub}
	}
	for _, tc := range []struct {
		name   string
		order  []string
		others int
	}{
		{"the book's order", inOrder, 0},
		{"reversed", reversed, 0},
		{"shuffled", shuffled, 0},
		{"shuffled, then in order with each again", thenInOrder, 0},
		{"with contacts the book does not name, and two listed twice", withOthers, 2},
	} {
		t.Run(tc.name, func(t *testing.T) {
			s := NewServiceList(book, false)
			for _, id := range tc.order {
				s.Add(id, statusOf(id))
			}
			if s.Len() != book.Len()+tc.others {
				t.Errorf("holds %d contacts, want %d", s.Len(), book.Len()+tc.others)
			}
			for _, id := range inOrder {
				if got, ok := s.Get(id); !ok || got.Email != statusOf(id).Email {
					t.Fatalf("%s: %+v (found %v), want %s", id, got, ok, statusOf(id).Email)
				}
			}
		})
	}
}
