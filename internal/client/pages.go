package client

import (
	"context"
	"fmt"
)

// The Each...Page functions page through a collection and call fn with each
// page, so that a caller that streams (the provider's list resources for
// `terraform query`) never holds a whole collection. fn may return an error
// to stop early; that error is returned as it is. pageSize <= 0 means
// DefaultPageSize.

// EachPage pages through the projects of the account.
func (s *ProjectService) EachPage(ctx context.Context, pageSize int, fn func([]Project) error) error {
	return eachPage(ctx, s.c, projectsPath, "projects", pageSize, fn)
}

// EachPage pages through the lists of the account.
func (s *ListService) EachPage(ctx context.Context, pageSize int, fn func([]List) error) error {
	return eachPage(ctx, s.c, listsPath, "lists", pageSize, fn)
}

// EachPage pages through the webhooks of the account.
func (s *WebhookService) EachPage(ctx context.Context, pageSize int, fn func([]Webhook) error) error {
	return eachPage(ctx, s.c, webhooksPath, "webhooks", pageSize, fn)
}

// EachPage pages through a generic collection such as "campaigns" or
// "campaigns/12/notes".
func (s *EntityService) EachPage(ctx context.Context, collection string, pageSize int, fn func([]Entity) error) error {
	return eachPage(ctx, s.c, CollectionPath(collection), collection, pageSize, fn)
}

// eachPage wraps EachPage so that the caller's own error comes back
// unwrapped, and a failed call is wrapped with what was being listed.
func eachPage[T any](ctx context.Context, c *Client, path, what string, pageSize int, fn func([]T) error) error {
	var stopped error
	err := EachPage(ctx, c, path, nil, pageSize, func(page []T) error {
		if err := fn(page); err != nil {
			stopped = err
			return err
		}
		return nil
	})
	if stopped != nil {
		return stopped
	}
	if err != nil {
		return fmt.Errorf("listing %s: %w", what, err)
	}
	return nil
}

// MaxPageSize is the largest page the service serves. Callers that stream a
// large collection ask for it, so that 100,000 contacts take 100 calls.
const MaxPageSize = 1000
