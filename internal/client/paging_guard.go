package client

import (
	"context"
	"errors"
	"fmt"
	"hash/maphash"
	"io"
	"net/http"
	"net/url"
	"strconv"
)

// ErrPagingIgnored is a collection the service pages by size but not by
// number: every page is the first one, so the rest cannot be reached.
var ErrPagingIgnored = errors.New("the service ignores the page parameter")

// pageDigest tells apart the answers of one listing: two 64-bit maphash
// sums of a page's bytes under independent seeds, 128 bits in all. Digests
// are only compared within one listing, in one process, so they need be
// neither stable nor cryptographic. They were SHA-256, which cost 0.2 s of
// CPU per million contacts listed, a tenth of a million-contact plan.
type pageDigest [2]uint64

// pageHash computes a pageDigest as a page's bytes arrive.
type pageHash struct{ a, b maphash.Hash }

func (h *pageHash) Write(p []byte) (int, error) {
	_, _ = h.a.Write(p) // a maphash never fails
	_, _ = h.b.Write(p)
	return len(p), nil
}

// Sum is the digest of the bytes written so far; more may follow.
func (h *pageHash) Sum() pageDigest { return pageDigest{h.a.Sum64(), h.b.Sum64()} }

// pagingGuard watches the pages of one listing for a page the service
// answered before (see EachPage). Make it with newPagingGuard: its seeds
// are set once, before the goroutines of a listing hash pages with them.
type pagingGuard struct {
	seeds [2]maphash.Seed
	seen  map[pageDigest]bool
}

func newPagingGuard() pagingGuard {
	return pagingGuard{seeds: [2]maphash.Seed{maphash.MakeSeed(), maphash.MakeSeed()}}
}

// newHash starts the digest of one page.
func (g *pagingGuard) newHash() *pageHash {
	h := &pageHash{}
	h.a.SetSeed(g.seeds[0])
	h.b.SetSeed(g.seeds[1])
	return h
}

// repeated reports whether a non-empty page is one seen before, and
// remembers it.
func (g *pagingGuard) repeated(digest pageDigest, n int) bool {
	if n == 0 {
		return false
	}
	if g.seen == nil {
		g.seen = map[pageDigest]bool{}
	}
	if g.seen[digest] {
		return true
	}
	g.seen[digest] = true
	return false
}

// listPage is one page of a collection, with a digest of its body, by
// which a repeated page is recognised whatever the entities look like, and
// the X-Total-Count the service gave (-1 without one).
type listPage[T any] struct {
	items  []T
	digest pageDigest
	total  int
}

// getPage reads one page; its digest is hashed with guard's seeds.
func getPage[T any](ctx context.Context, c *Client, guard *pagingGuard, collection string, q url.Values, page, pageSize int) (listPage[T], error) {
	q.Set("page", strconv.Itoa(page))
	q.Set("pageSize", strconv.Itoa(pageSize))
	out := listPage[T]{total: -1}
	resp, err := c.send(ctx, request{method: http.MethodGet, path: collection, query: q})
	if err != nil {
		return out, err
	}
	defer func() { _ = resp.Body.Close() }() // read (or abandoned) before: Close has nothing to report
	if n, err := strconv.Atoi(resp.Header.Get("X-Total-Count")); err == nil && n >= 0 {
		out.total = n
	}
	h := guard.newHash()
	resp.Body = struct {
		io.Reader
		io.Closer
	}{io.TeeReader(resp.Body, h), resp.Body}
	if err := decodeJSON(resp, &out.items); err != nil {
		return out, err
	}
	out.digest = h.Sum()
	return out, nil
}

// confirmSinglePage tells apart the two services that answer every page
// the same: one that ignores pageSize too (its answer is the whole
// collection, which happened to be pageSize long) and one that honours it
// (the collection is longer, and the rest cannot be reached). It asks for
// the first page with a different size: the first kind answers as before.
func (c *Client) confirmSinglePage(ctx context.Context, collection string, q url.Values, pageSize int) error {
	other := pageSize - 1
	if other < 1 {
		other = pageSize + 1
	}
	guard := newPagingGuard() // the digest is not compared: the count tells
	p, err := getPage[struct{}](ctx, c, &guard, collection, q, 0, other)
	if err != nil {
		return err
	}
	if len(p.items) == pageSize {
		c.logger.Debug(ctx, "the service ignores paging; its one answer is the whole collection", map[string]any{"path": collection})
		return nil
	}
	return fmt.Errorf("%w: every page answered the first %d entities, so the rest of the collection cannot be read (asked for page 1 with pageSize=%d and got page 0 again). "+
		"Reading only part of it could make Terraform think objects are gone; ask the service's support about paging of this collection", ErrPagingIgnored, pageSize, pageSize)
}
