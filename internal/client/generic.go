package client

import (
	"context"
	"errors"
	"fmt"
	"net/http"
	"net/url"
	"strconv"
)

// DefaultPageSize is the page size the client asks for when it pages through
// a collection; the service allows up to 1000.
const DefaultPageSize = 500

// Entity is an object of a domain whose fields the interface does not show.
// Numbers are json.Number so that they round-trip exactly.
type Entity = map[string]any

// GetOne reads one entity of the generic resource pattern into out.
func (c *Client) GetOne(ctx context.Context, collection, id string, out any) error {
	return c.doJSON(ctx, http.MethodGet, collection+"/"+url.PathEscape(id), nil, nil, out)
}

// CreateOne posts an entity to a collection and decodes the created entity
// into out.
func (c *Client) CreateOne(ctx context.Context, collection string, in, out any) error {
	return c.doJSON(ctx, http.MethodPost, collection, nil, in, out)
}

// UpdateOne puts an entity and decodes the updated entity into out.
func (c *Client) UpdateOne(ctx context.Context, collection, id string, in, out any) error {
	return c.doJSON(ctx, http.MethodPut, collection+"/"+url.PathEscape(id), nil, in, out)
}

// DeleteOne deletes an entity. A 404 counts as done: the object is gone
// either way.
func (c *Client) DeleteOne(ctx context.Context, collection, id string) error {
	err := c.doJSON(ctx, http.MethodDelete, collection+"/"+url.PathEscape(id), nil, nil, nil)
	if IsNotFound(err) {
		return nil
	}
	return err
}

// EachPage pages through a collection and calls fn with each page, so that
// a large collection is never held whole. It stops at the first page shorter
// than the page size.
func EachPage[T any](ctx context.Context, c *Client, collection string, query url.Values, pageSize int, fn func([]T) error) error {
	if pageSize <= 0 {
		pageSize = DefaultPageSize
	}
	q := url.Values{}
	for k, v := range query {
		q[k] = v
	}
	for page := 0; ; page++ {
		q.Set("page", strconv.Itoa(page))
		q.Set("pageSize", strconv.Itoa(pageSize))
		var items []T
		if err := c.doJSON(ctx, http.MethodGet, collection, q, nil, &items); err != nil {
			return fmt.Errorf("listing %s (page %d): %w", collection, page, err)
		}
		if err := fn(items); err != nil {
			return err
		}
		if len(items) < pageSize {
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
