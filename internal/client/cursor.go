package client

import (
	"context"
	"fmt"
	"net/url"
)

// Cursor reads a collection a page at a time, when its caller asks, and
// keeps between pages what the paging rules of EachPage need: the next page
// number, the size the service really pages by, and the pages seen. So a
// caller that reads lazily (the contact listing, which loads pages only as
// its reads need them) gets the same answer as one that pages through at
// once, and the rules live only here.
type Cursor[T any] struct {
	c          *Client
	collection string
	query      url.Values
	pageSize   int // asked for
	size       int // the service pages by
	page       int // the next page to read
	total      int // X-Total-Count of the latest page; -1 unknown
	guard      pagingGuard
	done       bool
}

// NewCursor starts a cursor at page 0 of a collection. pageSize <= 0
// means DefaultPageSize.
func NewCursor[T any](c *Client, collection string, query url.Values, pageSize int) *Cursor[T] {
	if pageSize <= 0 {
		pageSize = DefaultPageSize
	}
	q := url.Values{}
	for k, v := range query {
		q[k] = v
	}
	return &Cursor[T]{c: c, collection: collection, query: q, pageSize: pageSize, size: pageSize, total: -1, guard: newPagingGuard()}
}

// Next reads the next page. ok is false, with a nil error, when there is
// nothing more to hand on: the collection was read to its end, or the
// service answered a page seen before, having given everything already. A
// service whose collection cannot be read completely is an error matching
// ErrPagingIgnored. After ok false or an error, the cursor is Done.
func (cur *Cursor[T]) Next(ctx context.Context) (items []T, ok bool, err error) {
	if cur.done {
		return nil, false, nil
	}
	page := cur.page
	p, err := getPage[T](ctx, cur.c, &cur.guard, cur.collection, cur.query, page, cur.pageSize)
	if err != nil {
		cur.done = true
		return nil, false, fmt.Errorf("listing %s (page %d): %w", cur.collection, page, err)
	}
	cur.page++
	if p.total >= 0 {
		cur.total = p.total
	}
	if cur.guard.repeated(p.digest, len(p.items)) {
		cur.done = true
		if page == 1 && cur.size == cur.pageSize {
			// Page 0 was exactly pageSize long: is that the whole
			// collection, or all of it the service lets us reach?
			if err := cur.c.confirmSinglePage(ctx, cur.collection, cur.query, cur.pageSize); err != nil {
				return nil, false, fmt.Errorf("listing %s: %w", cur.collection, err)
			}
		}
		return nil, false, nil // everything was handed on already
	}
	if page == 0 && len(p.items) != cur.pageSize && len(p.items) > 0 &&
		(len(p.items) > cur.pageSize || p.total > len(p.items)) {
		cur.c.logger.Debug(ctx, "the service pages by a size of its own", map[string]any{"path": cur.collection, "asked": cur.pageSize, "got": len(p.items)})
		cur.size = len(p.items)
	}
	if len(p.items) < cur.size || len(p.items) == 0 {
		cur.done = true
	}
	return p.items, true, nil
}

// Done reports whether Next has nothing more to read.
func (cur *Cursor[T]) Done() bool { return cur.done }

// Total is the size of the collection as the latest page's X-Total-Count
// gave it, or -1 when no page had that header.
func (cur *Cursor[T]) Total() int { return cur.total }
