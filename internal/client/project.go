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

// CreateProject creates a project.
func (c *Client) CreateProject(ctx context.Context, in ProjectInput) (*Project, error) {
	var p Project
	if err := c.CreateOne(ctx, projectsPath, in, &p); err != nil {
		return nil, fmt.Errorf("creating project %q: %w", in.Name, err)
	}
	return &p, nil
}

// GetProject reads a project; the error matches ErrNotFound when it is gone.
func (c *Client) GetProject(ctx context.Context, id string) (*Project, error) {
	var p Project
	if err := c.GetOne(ctx, projectsPath, id, &p); err != nil {
		return nil, fmt.Errorf("reading project %s: %w", id, err)
	}
	return &p, nil
}

// UpdateProject updates a project.
func (c *Client) UpdateProject(ctx context.Context, id string, in ProjectInput) (*Project, error) {
	var p Project
	if err := c.UpdateOne(ctx, projectsPath, id, in, &p); err != nil {
		return nil, fmt.Errorf("updating project %s: %w", id, err)
	}
	return &p, nil
}

// DeleteProject deletes a project; one that is already gone counts as deleted.
func (c *Client) DeleteProject(ctx context.Context, id string) error {
	if err := c.DeleteOne(ctx, projectsPath, id); err != nil {
		return fmt.Errorf("deleting project %s: %w", id, err)
	}
	return nil
}

// ListProjects returns every project of the account.
func (c *Client) ListProjects(ctx context.Context) ([]Project, error) {
	ps, err := GetAll[Project](ctx, c, projectsPath, nil)
	if err != nil {
		return nil, fmt.Errorf("listing projects: %w", err)
	}
	return ps, nil
}

// CreateProjectOnce creates a project; after an unknown outcome it looks for
// a project of that name created since the attempt began.
func (c *Client) CreateProjectOnce(ctx context.Context, in ProjectInput) (*Project, error) {
	return CreateOrAdopt(ctx, c, fmt.Sprintf("project %q", in.Name),
		func(ctx context.Context) (*Project, error) { return c.CreateProject(ctx, in) },
		func(ctx context.Context, since time.Time) (*Project, bool, error) {
			all, err := c.ListProjects(ctx)
			if err != nil {
				return nil, false, err
			}
			return adoptOne(all, "project", in.Name, since,
				func(p Project) (string, time.Time, string) { return p.Name, p.DateCreated.Time, p.ID.String() })
		})
}
