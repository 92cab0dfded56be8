package client

import (
	"context"
	"errors"
	"fmt"
	"net/http"
	"slices"
	"strconv"
	"strings"
	"sync"
	"testing"

	"github.com/google/go-cmp/cmp"
)

// pagingMode is how a service treats the page and pageSize parameters.
type pagingMode int

const (
	honoursPaging pagingMode = iota // both, as the interface means them
	ignoresPaging                   // neither: every answer is the whole collection
	ignoresPage                     // pageSize only: every answer is the first page
	ownPageSize                     // page only, with a page size of its own (size)
	capsPageSize                    // both, but pageSize no larger than size; X-Total-Count given
)

// modalPagingServer serves n items with the given paging behaviour and
// records page/pageSize of every request.
type modalPagingServer struct {
	n     int
	mode  pagingMode
	size  int // ownPageSize, capsPageSize
	mu    sync.Mutex
	asked []string
}

func (s *modalPagingServer) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	q := r.URL.Query()
	s.mu.Lock()
	s.asked = append(s.asked, q.Get("page")+"/"+q.Get("pageSize"))
	if len(s.asked) > 50 {
		s.mu.Unlock()
		writeError(w, 500, "LOOP", "the client loops", "")
		return
	}
	s.mu.Unlock()
	page, _ := strconv.Atoi(q.Get("page"))
	size, _ := strconv.Atoi(q.Get("pageSize"))
	from, to := page*size, (page+1)*size
	switch s.mode {
	case ignoresPaging:
		from, to = 0, s.n
	case ignoresPage:
		from, to = 0, size
	case ownPageSize:
		from, to = page*s.size, (page+1)*s.size
	case capsPageSize:
		size = min(size, s.size)
		from, to = page*size, (page+1)*size
		w.Header().Set("X-Total-Count", strconv.Itoa(s.n))
	}
	var items []string
	for i := from; i < min(s.n, to); i++ {
		items = append(items, fmt.Sprintf(`{"id":%d}`, i+1))
	}
	writeJSON(w, http.StatusOK, "["+strings.Join(items, ",")+"]")
}

func (s *modalPagingServer) requests() []string {
	s.mu.Lock()
	defer s.mu.Unlock()
	return append([]string(nil), s.asked...)
}

// EachPage reads every entity exactly once, or fails with
// ErrPagingIgnored, whatever the service does with paging, and never
// loops.
func TestEachPageWhateverThePaging(t *testing.T) {
	tests := []struct {
		name      string
		srv       *modalPagingServer
		pageSize  int
		wantAsked []string // page/pageSize, in order
		wantIDs   int      // ids 1..wantIDs, each once
		wantErr   error
	}{
		{
			name: "honoured: three pages", srv: &modalPagingServer{n: 5, mode: honoursPaging}, pageSize: 2,
			wantAsked: []string{"0/2", "1/2", "2/2"}, wantIDs: 5,
		},
		{
			name: "ignored, more than a page", srv: &modalPagingServer{n: 5, mode: ignoresPaging}, pageSize: 2,
			wantAsked: []string{"0/2", "1/2"}, wantIDs: 5,
		},
		{
			// Longer than asked: a page size of its own, or everything; the
			// next page (the same again) tells.
			name: "ignored, far more than a page", srv: &modalPagingServer{n: 1200, mode: ignoresPaging}, pageSize: 0,
			wantAsked: []string{"0/500", "1/500"}, wantIDs: 1200,
		},
		{
			name: "pages of its own, larger than asked", srv: &modalPagingServer{n: 7, mode: ownPageSize, size: 3}, pageSize: 2,
			wantAsked: []string{"0/2", "1/2", "2/2"}, wantIDs: 7,
		},
		{
			name: "pageSize capped, with a total", srv: &modalPagingServer{n: 5, mode: capsPageSize, size: 2}, pageSize: 3,
			wantAsked: []string{"0/3", "1/3", "2/3"}, wantIDs: 5,
		},
		{
			name: "pageSize capped, all on the first page", srv: &modalPagingServer{n: 2, mode: capsPageSize, size: 2}, pageSize: 3,
			wantAsked: []string{"0/3"}, wantIDs: 2,
		},
		{
			name: "ignored, exactly a page: confirmed with another size", srv: &modalPagingServer{n: 2, mode: ignoresPaging}, pageSize: 2,
			wantAsked: []string{"0/2", "1/2", "0/1"}, wantIDs: 2,
		},
		{
			name: "ignored, exactly a page of one", srv: &modalPagingServer{n: 1, mode: ignoresPaging}, pageSize: 1,
			wantAsked: []string{"0/1", "1/1", "0/2"}, wantIDs: 1,
		},
		{
			name: "ignored, fewer than a page", srv: &modalPagingServer{n: 1, mode: ignoresPaging}, pageSize: 2,
			wantAsked: []string{"0/2"}, wantIDs: 1,
		},
		{
			name: "page ignored, size honoured: an error, not half a collection", srv: &modalPagingServer{n: 5, mode: ignoresPage}, pageSize: 2,
			wantAsked: []string{"0/2", "1/2", "0/1"}, wantIDs: 2, wantErr: ErrPagingIgnored,
		},
		{
			name: "empty collection, paging honoured", srv: &modalPagingServer{n: 0, mode: honoursPaging}, pageSize: 2,
			wantAsked: []string{"0/2"},
		},
		{
			name: "empty collection, paging ignored", srv: &modalPagingServer{n: 0, mode: ignoresPaging}, pageSize: 2,
			wantAsked: []string{"0/2"},
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			c, _ := newTestClient(t, tt.srv)
			seen := map[ID]int{}
			var order []ID
			err := EachPage(context.Background(), c, "lists", nil, tt.pageSize, func(page []item) error {
				for _, it := range page {
					seen[it.ID]++
					order = append(order, it.ID)
				}
				return nil
			})
			if tt.wantErr != nil {
				if !errors.Is(err, tt.wantErr) {
					t.Fatalf("EachPage = %v, want %v", err, tt.wantErr)
				}
				mustContain(t, err.Error(), "listing lists: ")
				mustContain(t, err.Error(), "cannot be read")
			} else if err != nil {
				t.Fatalf("EachPage: %v", err)
			}
			if diff := cmp.Diff(tt.wantAsked, tt.srv.requests()); diff != "" {
				t.Errorf("requests page/pageSize (-want +got):\n%s", diff)
			}
			for id, n := range seen {
				if n != 1 {
					t.Errorf("entity %s handed to fn %d times", id, n)
				}
			}
			var want []ID
			for i := 1; i <= tt.wantIDs; i++ {
				want = append(want, ID(strconv.Itoa(i)))
			}
			if diff := cmp.Diff(want, order); diff != "" {
				t.Errorf("entities (-want +got):\n%s", diff)
			}
		})
	}
}

// A collection that changes between two pages is not taken for a
// repeated page: only the same bytes are.
func TestEachPageChangingCollectionIsNotARepeat(t *testing.T) {
	var n counter
	c, _ := newTestClient(t, http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		switch n.inc() {
		case 1:
			writeJSON(w, 200, `[{"id":1},{"id":2}]`)
		case 2:
			writeJSON(w, 200, `[{"id":3},{"id":4}]`)
		default:
			writeJSON(w, 200, `[]`)
		}
	}))
	var got []ID
	err := EachPage(context.Background(), c, "lists", nil, 2, func(page []item) error {
		for _, it := range page {
			got = append(got, it.ID)
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	if diff := cmp.Diff([]ID{"1", "2", "3", "4"}, got); diff != "" {
		t.Errorf("entities (-want +got):\n%s", diff)
	}
	if n.get() != 3 {
		t.Errorf("%d requests, want 3", n.get())
	}
}

// The confirming request failing is the listing's error.
func TestEachPageConfirmFails(t *testing.T) {
	var n counter
	c, _ := newTestClient(t, http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if n.inc() <= 2 {
			writeJSON(w, 200, `[{"id":1},{"id":2}]`)
			return
		}
		writeError(w, 403, "FORBIDDEN", "no", "")
	}))
	err := EachPage(context.Background(), c, "lists", nil, 2, func([]item) error { return nil })
	if !errors.Is(err, ErrForbidden) || errors.Is(err, ErrPagingIgnored) {
		t.Errorf("EachPage = %v, want the confirming request's ErrForbidden", err)
	}
	if n.get() != 3 {
		t.Errorf("%d requests, want 3", n.get())
	}
}

func TestPagingGuard(t *testing.T) {
	g := newPagingGuard()
	a, b := pageDigest{1}, pageDigest{2}
	steps := []struct {
		digest pageDigest
		n      int
		want   bool
	}{
		{a, 2, false},
		{b, 3, false},
		{a, 2, true},
		{b, 3, true},
		{a, 0, false}, // an empty page is never a repeat
		{a, 0, false},
	}
	for i, s := range steps {
		if got := g.repeated(s.digest, s.n); got != s.want {
			t.Errorf("step %d: repeated = %v, want %v", i, got, s.want)
		}
	}
}

// testPageHash is the digest of a page for tests that do not compare
// digests.
func testPageHash() *pageHash {
	g := newPagingGuard()
	return g.newHash()
}

// A page's digest depends on its bytes only, not on how they arrive, and
// Sum may be taken part way (a streamed page's first chunk) without
// changing the whole page's digest.
func TestPageDigest(t *testing.T) {
	g := newPagingGuard()
	page := []byte(strings.Repeat(`{"originalId":"customer-1","status":"SUBSCRIBED"},`, 40))
	sum := func(b []byte, step int, peek bool) pageDigest {
		h := g.newHash()
		for len(b) > 0 {
			n := min(step, len(b))
			_, _ = h.Write(b[:n])
			if peek {
				h.Sum()
			}
			b = b[n:]
		}
		return h.Sum()
	}
	want := sum(page, len(page), false)
	for _, step := range []int{1, 7, 128, 129, 1000} {
		if got := sum(page, step, step%2 == 1); got != want {
			t.Errorf("written %d bytes at a time: digest %x, whole %x", step, got, want)
		}
	}
	other := slices.Clone(page)
	other[len(other)/2] ^= 1
	if sum(other, len(other), false) == want {
		t.Error("pages that differ in one bit have one digest")
	}
	if sum(page[:len(page)-1], 64, false) == want {
		t.Error("a page and its prefix have one digest")
	}
}
