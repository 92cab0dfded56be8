package client

import (
	"context"
	"fmt"
	"time"
)

const listsPath = "lists"

// List is a recipient list (the Lists domain, generic pattern).
type List struct {
	ID           ID        `json:"id,omitempty"`
	Name         string    `json:"name"`
	Description  *string   `json:"description"`
	SenderName   *string   `json:"senderName"`
	SenderEmail  *string   `json:"senderEmail"`
	DateCreated  Timestamp `json:"dateCreated,omitempty"`
	DateModified Timestamp `json:"dateModified,omitempty"`
}

// ListInput is the writable part of a list. A nil optional field is sent as
// null, which removes a stored value (PUT merges).
type ListInput struct {
	Name        string  `json:"name"`
	Description *string `json:"description"`
	SenderName  *string `json:"senderName"`
	SenderEmail *string `json:"senderEmail"`
}

// Create creates a list.
func (s *ListService) Create(ctx context.Context, in ListInput) (*List, error) {
	var l List
	if err := s.c.Resources.Create(ctx, listsPath, in, &l); err != nil {
		return nil, fmt.Errorf("creating list %q: %w", in.Name, err)
	}
	return &l, nil
}

// Get reads a list; the error matches ErrNotFound when it is gone.
func (s *ListService) Get(ctx context.Context, id string) (*List, error) {
	var l List
	if err := s.c.Resources.Get(ctx, listsPath, id, &l); err != nil {
		return nil, fmt.Errorf("reading list %s: %w", id, err)
	}
	return &l, nil
}

// Update updates a list.
func (s *ListService) Update(ctx context.Context, id string, in ListInput) (*List, error) {
	var l List
	if err := s.c.Resources.Update(ctx, listsPath, id, in, &l); err != nil {
		return nil, fmt.Errorf("updating list %s: %w", id, err)
	}
	return &l, nil
}

// Delete deletes a list and, on the service, all of its contacts; one
// that is already gone counts as deleted.
func (s *ListService) Delete(ctx context.Context, id string) error {
	if err := s.c.Resources.Delete(ctx, listsPath, id); err != nil {
		return fmt.Errorf("deleting list %s: %w", id, err)
	}
	return nil
}

// List returns every list of the account.
func (s *ListService) List(ctx context.Context) ([]List, error) {
	ls, err := GetAll[List](ctx, s.c, listsPath, nil)
	if err != nil {
		return nil, fmt.Errorf("listing lists: %w", err)
	}
	return ls, nil
}

// CreateOnce creates a list; after an unknown outcome it looks for a
// list of that name created since the attempt began.
func (s *ListService) CreateOnce(ctx context.Context, in ListInput) (*List, error) {
	return CreateOrAdopt(ctx, s.c, fmt.Sprintf("list %q", in.Name),
		func(ctx context.Context) (*List, error) { return s.Create(ctx, in) },
		func(ctx context.Context, since time.Time) (*List, bool, error) {
			all, err := s.List(ctx)
			if err != nil {
				return nil, false, err
			}
			return adoptOne(all, "list", in.Name, since,
				func(l List) (string, time.Time, string) { return l.Name, l.DateCreated.Time, l.ID.String() })
		})
}
