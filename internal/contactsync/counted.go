package contactsync

import (
	"fmt"
	"hash/fnv"
	"sort"
)

// Counted is what a refresh found that `exclusive` may unsubscribe: the
// contacts of the list subscribed on some channel that the input it read
// does not name (the candidates). rms_list_contacts keeps it in private
// state so that the apply, in another provider process, unsubscribes
// nobody the plan did not count: a recipient who signs up between plan
// and apply is not among the candidates.
//
// Memory stays small on a list of a million contacts: the candidates are
// kept by id only while there are at most MaxCountedIDs of them (the
// usual case: exclusive leaves few contacts unnamed); above that, their
// number and an order-independent digest of their ids (IDsDigest), which
// an apply can only compare whole (Check says what it then allows).
type Counted struct {
	// Input is the IDsDigest of the ids the input named when counted.
	Input string `json:"input"`
	// Count is the number of candidates.
	Count int `json:"count"`
	// IDs are the candidates, sorted, when there are at most
	// MaxCountedIDs; Digest is their IDsDigest otherwise.
	IDs    []string `json:"ids,omitempty"`
	Digest string   `json:"digest,omitempty"`
	// Subscribed is the number of contacts subscribed on some channel,
	// named or not: the bound of a check whose input changed.
	Subscribed int `json:"subscribed"`
}

// MaxCountedIDs is the number of candidates Counted keeps by id.
const MaxCountedIDs = 1000

// CountCandidates counts the candidates of service against the ids named
// (a nil book names nobody), in one pass and without a list of every id.
func CountCandidates(service *ServiceList, named *Book) Counted {
	var c Counted
	var d idsDigest
	var ids []string
	candidate := func(id string) {
		c.Count++
		d.add(id)
		if c.Count <= MaxCountedIDs {
			ids = append(ids, id)
		} else {
			ids = nil
		}
	}
	if service != nil && named != nil && service.book == named {
		// A listing held against the same book (a file's) knows its
		// named contacts by index and holds the others apart: no lookup
		// by id.
		for i := range service.named {
			if s, ok := service.at(i); ok && s.SubscribedOnSomeChannel() {
				c.Subscribed++
			}
		}
		for id, s := range service.other {
			if s.SubscribedOnSomeChannel() {
				c.Subscribed++
				candidate(id)
			}
		}
	} else {
		for id, s := range service.All() {
			if !s.SubscribedOnSomeChannel() {
				continue
			}
			c.Subscribed++
			if named == nil || !named.Has(id) {
				candidate(id)
			}
		}
	}
	if c.Count <= MaxCountedIDs {
		sort.Strings(ids)
		c.IDs = ids
	} else {
		c.Digest = d.String()
	}
	c.Input = BookIDsDigest(named)
	return c
}

// Check is the apply's side: unsub are the contacts the apply would
// unsubscribe for exclusive; namedBefore reports the contacts the input
// the count was made against named (the plan counted those it drops, since
// the list held them); comparable says the apply's input names the same
// ids as that input, or that namedBefore knows them all. It returns the
// contacts the count does not cover, sorted, and whether the apply must
// stop:
//
//   - by id: every contact outside the candidates and not named before
//     stops the apply;
//   - by digest: the contacts not named before must be the candidates
//     (same number, same digest), or fewer (some left the list or opted
//     out since); more stops the apply, naming them all (which are new
//     cannot be told);
//   - input not comparable: the apply stops only if it would unsubscribe
//     more contacts than were subscribed when counted.
func (c Counted) Check(unsub []string, namedBefore func(string) bool, comparable bool) ([]string, bool) {
	ids := append([]string(nil), unsub...)
	sort.Strings(ids)
	if !comparable {
		return ids, len(ids) > c.Subscribed
	}
	var rest []string
	for _, id := range ids {
		if namedBefore == nil || !namedBefore(id) {
			rest = append(rest, id)
		}
	}
	if c.Digest == "" {
		var outside []string
		for _, id := range rest {
			if i := sort.SearchStrings(c.IDs, id); i == len(c.IDs) || c.IDs[i] != id {
				outside = append(outside, id)
			}
		}
		return outside, len(outside) > 0
	}
	if len(rest) == c.Count && IDsDigest(rest) == c.Digest {
		return nil, false
	}
	return rest, len(rest) > c.Count
}

// IDsDigest is a digest of a set of ids that does not depend on their
// order: their number and two sums of a 64-bit FNV-1a hash of each
// (cheap for a million ids, with no sort and no copy).
func IDsDigest(ids []string) string {
	var d idsDigest
	for _, id := range ids {
		d.add(id)
	}
	return d.String()
}

// BookIDsDigest is the IDsDigest of the ids a book names (none for nil).
func BookIDsDigest(b *Book) string {
	var d idsDigest
	if b != nil {
		for i := range b.Len() {
			d.add(b.ID(i))
		}
	}
	return d.String()
}

type idsDigest struct {
	n        int
	sum, xor uint64
}

func (d *idsDigest) add(id string) {
	h := fnv.New64a()
	_, _ = h.Write([]byte(id))
	v := h.Sum64()
	d.n++
	d.sum += v
	d.xor ^= v * 0x9e3779b97f4a7c15
}

func (d idsDigest) String() string {
	return fmt.Sprintf("%d-%016x%016x", d.n, d.sum, d.xor)
}
