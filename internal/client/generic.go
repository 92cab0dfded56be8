package client

import (
	"context"
	"errors"
	"net/http"
	"net/url"
)

// DefaultPageSize is the page size the client asks for when it pages through
// a collection; the service allows up to 1000.
const DefaultPageSize = 500

// Entity is an object of a domain whose fields the interface does not show.
// Numbers are json.Number so that they round-trip exactly.
type Entity = map[string]any

// Get reads one entity of the generic resource pattern into out.
func (s *ResourceService) Get(ctx context.Context, collection, id string, out any) error {
	return s.c.doJSON(ctx, http.MethodGet, collection+"/"+url.PathEscape(id), nil, nil, out)
}

// Create posts an entity to a collection and decodes the created entity
// into out, reading it back when the answer lacks it (answer.go). skip names
// keys of in that the service never echoes.
func (s *ResourceService) Create(ctx context.Context, collection string, in, out any, skip ...string) error {
	a, err := s.c.write(ctx, http.MethodPost, collection, in)
	if err != nil {
		return err
	}
	return s.c.created(ctx, a, func(id string) string { return collection + "/" + url.PathEscape(id) }, out, true, skip...)
}

// Update puts an entity and decodes the updated entity into out, reading
// it back when the answer lacks it (an empty body, 204). skip names keys of
// in that the service never echoes.
func (s *ResourceService) Update(ctx context.Context, collection, id string, in, out any, skip ...string) error {
	p := collection + "/" + url.PathEscape(id)
	a, err := s.c.write(ctx, http.MethodPut, p, in)
	if err != nil {
		return err
	}
	return s.c.updated(ctx, a, p, out, skip...)
}

// Delete deletes an entity. A 404 counts as done: the object is gone
// either way.
func (s *ResourceService) Delete(ctx context.Context, collection, id string) error {
	err := s.c.doJSON(ctx, http.MethodDelete, collection+"/"+url.PathEscape(id), nil, nil, nil)
	if IsNotFound(err) {
		return nil
	}
	return err
}

// EachPage pages through a collection and calls fn with each page, so that
// a large collection is never held whole. It stops at the first page shorter
// than the page size.
//
// The interface does not show paging, so a service may ignore it or page
// its own way. EachPage never loops, duplicates or drops entities whatever
// the service does (Cursor, paging_guard.go):
//   - a first page longer than asked means the service pages by a size of
//     its own, or not at all: that length becomes the page size, and the
//     next page tells which (the same page again: it answered everything);
//   - a first page shorter than asked while X-Total-Count says there are
//     more means the service caps pageSize: that length becomes the page
//     size too;
//   - a page the same as an earlier one is never handed on: the service
//     ignores page, and then either the collection was that page (it
//     ignores pageSize too) or it cannot be read completely, which is an
//     error matching ErrPagingIgnored rather than a silent half.
func EachPage[T any](ctx context.Context, c *Client, collection string, query url.Values, pageSize int, fn func([]T) error) error {
	cur := NewCursor[T](c, collection, query, pageSize)
	for {
		items, ok, err := cur.Next(ctx)
		if err != nil || !ok {
			return err
		}
		if err := fn(items); err != nil {
			return err
		}
		if cur.Done() {
			return nil
		}
	}
}

// GetAll pages through a whole collection and returns every entity.
func GetAll[T any](ctx context.Context, c *Client, collection string, query url.Values) ([]T, error) {
	var all []T
	err := EachPage(ctx, c, collection, query, 0, func(page []T) error {
		all = append(all, page...)
		return nil
	})
	return all, err
}

// IsNotFound reports whether err is a 404 from the service.
func IsNotFound(err error) bool {
	return err != nil && errors.Is(err, ErrNotFound)
}
