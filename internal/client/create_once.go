package client

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"sort"
	"time"
)

// This file holds the read-back of each create that can be repeated safely
// (see CreateOrAdopt): how a resource recognises the object an interrupted
// create of its own made.

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
				func(p Project) (string, string, string) { return p.Name, p.DateCreated, p.ID.String() })
		})
}

// CreateListOnce creates a list; after an unknown outcome it looks for a
// list of that name created since the attempt began.
func (c *Client) CreateListOnce(ctx context.Context, in ListInput) (*List, error) {
	return CreateOrAdopt(ctx, c, fmt.Sprintf("list %q", in.Name),
		func(ctx context.Context) (*List, error) { return c.CreateList(ctx, in) },
		func(ctx context.Context, since time.Time) (*List, bool, error) {
			all, err := c.ListLists(ctx)
			if err != nil {
				return nil, false, err
			}
			return adoptOne(all, "list", in.Name, since,
				func(l List) (string, string, string) { return l.Name, l.DateCreated, l.ID.String() })
		})
}

// CreateContactOnce creates a contact; after an unknown outcome it reads the
// contact by its originalId, the natural key, and adopts it when it was
// created since the attempt began. An older contact of that id was not made
// by this attempt: that is the conflict a plain create would have reported.
func (c *Client) CreateContactOnce(ctx context.Context, listID string, in ContactInput) (*Contact, error) {
	return CreateOrAdopt(ctx, c, fmt.Sprintf("contact %q in list %s", in.OriginalID, listID),
		func(ctx context.Context) (*Contact, error) { return c.CreateContact(ctx, listID, in) },
		func(ctx context.Context, since time.Time) (*Contact, bool, error) {
			got, err := c.GetContact(ctx, listID, in.OriginalID)
			if errors.Is(err, ErrNotFound) {
				return nil, false, nil
			}
			if err != nil {
				return nil, false, err
			}
			if !createdSince(got.DateCreated, since) {
				return nil, false, fmt.Errorf("contact %q already existed in list %s before this create: %w", in.OriginalID, listID, ErrConflict)
			}
			return got, true, nil
		})
}

// adoptOne picks the single object named name created since since; several
// candidates cannot be told apart, so the error names them for an import.
func adoptOne[T any](all []T, kind, name string, since time.Time, fields func(T) (name, created, id string)) (*T, bool, error) {
	var match []T
	var ids []string
	for _, o := range all {
		n, created, id := fields(o)
		if n == name && createdSince(created, since) {
			match = append(match, o)
			ids = append(ids, id)
		}
	}
	switch len(match) {
	case 0:
		return nil, false, nil
	case 1:
		return &match[0], true, nil
	default:
		return nil, false, fmt.Errorf("%d candidates for this %s (%s) were created just now (ids %v) and one of them is this resource's: import it with `terraform import` and delete the others", len(match), kind, name, ids)
	}
}

// createdSince reports whether an RFC 3339 timestamp is at or after since.
// A timestamp that does not parse counts as recent: adopting is safer than
// creating a duplicate.
func createdSince(ts string, since time.Time) bool {
	t, err := time.Parse(time.RFC3339, ts)
	if err != nil {
		return true
	}
	return !t.Before(since.Truncate(time.Second))
}

// CreateWebhookOnce creates a webhook; after an unknown outcome it looks
// for a webhook with the same url and events created since the attempt
// began.
func (c *Client) CreateWebhookOnce(ctx context.Context, in WebhookInput) (*Webhook, error) {
	return CreateOrAdopt(ctx, c, fmt.Sprintf("webhook for %q", in.URL),
		func(ctx context.Context) (*Webhook, error) { return c.CreateWebhook(ctx, in) },
		func(ctx context.Context, since time.Time) (*Webhook, bool, error) {
			all, err := GetAll[Webhook](ctx, c, webhooksPath, nil)
			if err != nil {
				return nil, false, err
			}
			key := in.URL + " " + sameJSONKey(sortedCopy(in.Events))
			return adoptOne(all, "webhook", key, since,
				func(w Webhook) (string, string, string) {
					return w.URL + " " + sameJSONKey(sortedCopy(w.Events)), w.DateCreated, w.ID.String()
				})
		})
}

// CreateEntityOnce creates an entity of a generic collection; after an
// unknown outcome it looks for an entity created since the attempt began
// whose every key of body holds the value sent.
func (c *Client) CreateEntityOnce(ctx context.Context, collection string, body Entity) (Entity, error) {
	want := map[string]string{}
	for k, v := range body {
		want[k] = sameJSONKey(v)
	}
	found, err := CreateOrAdopt(ctx, c, "entity in "+collection,
		func(ctx context.Context) (*Entity, error) {
			e, err := c.CreateEntity(ctx, collection, body)
			return &e, err
		},
		func(ctx context.Context, since time.Time) (*Entity, bool, error) {
			all, err := c.ListEntities(ctx, collection)
			if err != nil {
				return nil, false, err
			}
			return adoptOne(all, "entity", "same body in "+collection, since, func(e Entity) (string, string, string) {
				created, _ := e["dateCreated"].(string)
				for k, v := range want {
					if sameJSONKey(e[k]) != v {
						return "", created, EntityID(e)
					}
				}
				return "same body in " + collection, created, EntityID(e)
			})
		})
	if err != nil {
		return nil, err
	}
	return *found, nil
}

// sameJSONKey is a value's canonical JSON text: encoding/json sorts map
// keys, and json.Number keeps numbers as written, so equal values compare
// equal as strings.
func sameJSONKey(v any) string {
	b, err := json.Marshal(v)
	if err != nil {
		return fmt.Sprintf("%v", v)
	}
	return string(b)
}

func sortedCopy(s []string) []string {
	out := append([]string(nil), s...)
	sort.Strings(out)
	return out
}
