package contactsync

import (
	"fmt"
	"math/rand/v2"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/rms-labs/terraform-provider-rms/internal/client"
)

// A listing against a file's book by pairs (AddPairs) keeps what the
// listing by map (Add) keeps, contact for contact: which contacts are
// the book's values, the properties of those that differ (nil where the
// service gave none, empty where it gave an empty object), statuses,
// contacts the book does not name, and a contact listed twice.
func TestServiceListPairsKeepWhatMapsKeep(t *testing.T) {
	t.Parallel()
	columns := []string{"firstname", "lastname", "city"}
	values := []string{"", "Ada", "Grace", "x"}
	statuses := []string{"", client.StatusSubscribed, client.StatusUnsubscribed, "PENDING"}
	for seed := range uint64(40) {
		rng := rand.New(rand.NewPCG(seed, 7))
		var desired []Desired
		for i := range 60 {
			props := map[string]string{}
			for _, c := range columns {
				props[c] = values[rng.IntN(len(values))]
			}
			desired = append(desired, Desired{ID: fmt.Sprintf("c-%02d", i), Props: props, Email: statuses[rng.IntN(3)]})
		}
		book := fileBook(t, columns, desired)

		byMap, byPairs := NewServiceList(book, false), NewServiceList(book, false)
		for n := range 90 {
			// Contacts of the book, some listed twice, and some it lacks.
			id := fmt.Sprintf("c-%02d", rng.IntN(70))
			c := ServiceContact{Email: statuses[rng.IntN(len(statuses))], Mobile: statuses[rng.IntN(len(statuses))]}
			var pairs []client.PropertyPair
			var props client.PropertyValues
			switch rng.IntN(6) {
			case 0: // no properties
			case 1: // an empty object
				pairs, props = []client.PropertyPair{}, client.PropertyValues{}
			default:
				props = client.PropertyValues{}
				pairs = []client.PropertyPair{}
				d, inBook := book.Index(id)
				for _, k := range append(columns, "other") {
					var v string
					switch {
					case inBook && k != "other" && rng.IntN(4) > 0:
						v = book.Contact(d).Props[k] // mostly the book's value
					case rng.IntN(3) == 0:
						continue // absent
					default:
						v = values[rng.IntN(len(values))]
					}
					if rng.IntN(5) == 0 {
						// A key given twice: the last value counts.
						pairs = append(pairs, client.PropertyPair{Key: k, Value: "overwritten"})
					}
					pairs = append(pairs, client.PropertyPair{Key: k, Value: v})
					props[k] = v
				}
			}
			c.Props = props
			byMap.Add(id, c)
			c.Props = nil
			byPairs.AddPairs(id, c, pairs)
			if n == 45 && byMap.Len() != byPairs.Len() {
				t.Fatalf("seed %d: %d contacts by map, %d by pairs", seed, byMap.Len(), byPairs.Len())
			}
		}
		if diff := cmp.Diff(listed(byMap), listed(byPairs)); diff != "" {
			t.Fatalf("seed %d: by pairs kept otherwise (-map +pairs):\n%s", seed, diff)
		}
		if byMap.Len() != byPairs.Len() {
			t.Fatalf("seed %d: %d contacts by map, %d by pairs", seed, byMap.Len(), byPairs.Len())
		}
	}
}

// listed is what a listing kept of each contact.
func listed(s *ServiceList) map[string]ServiceContact {
	out := map[string]ServiceContact{}
	for id, c := range s.All() {
		out[id] = c
	}
	return out
}
