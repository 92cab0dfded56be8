package client

import (
	"context"
	"fmt"
	"time"
)

const projectsPath = "projects"

// Project is an entity of the Projects domain.
type Project struct {
	ID           ID        `json:"id,omitempty"`
	Name         string    `json:"name"`
	Description  *string   `json:"description"`
	DateCreated  Timestamp `json:"dateCreated,omitempty"`
	DateModified Timestamp `json:"dateModified,omitempty"`
}

// ProjectInput is the writable part of a project. A nil Description is sent
// as null, which removes a stored description.
type ProjectInput struct {
	Name        string  `json:"name"`
	Description *string `json:"description"`
}

// Create creates a project.
func (s *ProjectService) Create(ctx context.Context, in ProjectInput) (*Project, error) {
	var p Project
	if err := s.c.Resources.Create(ctx, projectsPath, in, &p); err != nil {
		return nil, fmt.Errorf("creating project %q: %w", in.Name, err)
	}
	return &p, nil
}

// Get reads a project; the error matches ErrNotFound when it is gone.
func (s *ProjectService) Get(ctx context.Context, id string) (*Project, error) {
	var p Project
	if err := s.c.Resources.Get(ctx, projectsPath, id, &p); err != nil {
		return nil, fmt.Errorf("reading project %s: %w", id, err)
	}
	return &p, nil
}

// Update updates a project.
func (s *ProjectService) Update(ctx context.Context, id string, in ProjectInput) (*Project, error) {
	var p Project
	if err := s.c.Resources.Update(ctx, projectsPath, id, in, &p); err != nil {
		return nil, fmt.Errorf("updating project %s: %w", id, err)
	}
	return &p, nil
}

// Delete deletes a project; one that is already gone counts as deleted.
func (s *ProjectService) Delete(ctx context.Context, id string) error {
	if err := s.c.Resources.Delete(ctx, projectsPath, id); err != nil {
		return fmt.Errorf("deleting project %s: %w", id, err)
	}
	return nil
}

// List returns every project of the account.
func (s *ProjectService) List(ctx context.Context) ([]Project, error) {
	ps, err := GetAll[Project](ctx, s.c, projectsPath, nil)
	if err != nil {
		return nil, fmt.Errorf("listing projects: %w", err)
	}
	return ps, nil
}

// CreateOnce creates a project; after an unknown outcome it looks for
// a project of that name created since the attempt began.
func (s *ProjectService) CreateOnce(ctx context.Context, in ProjectInput) (*Project, error) {
	return CreateOrAdopt(ctx, s.c, fmt.Sprintf("project %q", in.Name),
		func(ctx context.Context) (*Project, error) { return s.Create(ctx, in) },
		func(ctx context.Context, since time.Time) (*Project, bool, error) {
			all, err := s.List(ctx)
			if err != nil {
				return nil, false, err
			}
			return adoptOne(all, "project", in.Name, since,
				func(p Project) (string, time.Time, string) { return p.Name, p.DateCreated.Time, p.ID.String() })
		})
}
