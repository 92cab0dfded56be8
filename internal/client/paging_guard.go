package client

import (
	"context"
	"crypto/sha256"
	"errors"
	"fmt"
	"io"
	"net/http"
	"net/url"
	"strconv"
)

// ErrPagingIgnored is a collection the service pages by size but not by
// number: every page is the first one, so the rest cannot be reached.
var ErrPagingIgnored = errors.New("the service ignores the page parameter")

// pagingGuard watches the pages of one listing for a service that ignores
// paging (see EachPage).
type pagingGuard struct {
	seen map[[sha256.Size]byte]bool
}

type pageVerdict int

const (
	pageNew      pageVerdict = iota // a page to use
	pageWhole                       // longer than asked: the whole collection, the last page
	pageRepeated                    // the same as an earlier page: do not use it
)

func (g *pagingGuard) next(digest [sha256.Size]byte, n, pageSize int) pageVerdict {
	if g.seen == nil {
		g.seen = map[[sha256.Size]byte]bool{}
	}
	if n > 0 && g.seen[digest] {
		return pageRepeated
	}
	g.seen[digest] = true
	if n > pageSize {
		return pageWhole
	}
	return pageNew
}

// getPage reads one page and a digest of its body, by which a repeated
// page is recognised whatever the entities look like.
func getPage[T any](ctx context.Context, c *Client, collection string, q url.Values, page, pageSize int) ([]T, [sha256.Size]byte, error) {
	q.Set("page", strconv.Itoa(page))
	q.Set("pageSize", strconv.Itoa(pageSize))
	var digest [sha256.Size]byte
	resp, err := c.send(ctx, request{method: http.MethodGet, path: collection, query: q})
	if err != nil {
		return nil, digest, err
	}
	defer resp.Body.Close()
	h := sha256.New()
	resp.Body = struct {
		io.Reader
		io.Closer
	}{io.TeeReader(resp.Body, h), resp.Body}
	var items []T
	if err := decodeJSON(resp, &items); err != nil {
		return nil, digest, err
	}
	copy(digest[:], h.Sum(nil))
	return items, digest, nil
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
	items, _, err := getPage[struct{}](ctx, c, collection, q, 0, other)
	if err != nil {
		return err
	}
	if len(items) == pageSize {
		c.logger.Debug(ctx, "the service ignores paging; its one answer is the whole collection", map[string]any{"path": collection})
		return nil
	}
	return fmt.Errorf("%w: every page answered the first %d entities, so the rest of the collection cannot be read (asked for page 1 with pageSize=%d and got page 0 again). "+
		"Reading only part of it could make Terraform think objects are gone; ask the service's support about paging of this collection", ErrPagingIgnored, pageSize, pageSize)
}
