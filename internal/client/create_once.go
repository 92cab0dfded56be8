package client

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net/http"
	"slices"
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
				func(p Project) (string, time.Time, string) { return p.Name, p.DateCreated.Time, p.ID.String() })
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
				func(l List) (string, time.Time, string) { return l.Name, l.DateCreated.Time, l.ID.String() })
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
			if !createdSince(got.DateCreated.Time, since) {
				return nil, false, fmt.Errorf("contact %q already existed in list %s before this create: %w", in.OriginalID, listID, ErrConflict)
			}
			return got, true, nil
		})
}

// adoptOne picks the single object named name created since since; several
// candidates cannot be told apart, so the error names them for an import.
func adoptOne[T any](all []T, kind, name string, since time.Time, fields func(T) (name string, created time.Time, id string)) (*T, bool, error) {
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
		return nil, false, &AmbiguousError{Kind: kind, Name: name, IDs: ids}
	}
}

// AmbiguousError is a read-back after an unknown outcome that found
// several objects the attempt could have made: they cannot be told apart,
// so nothing is adopted and nothing is created again.
type AmbiguousError struct {
	Kind string   // "project", "import", "statistics export"...
	Name string   // what they share (a name, the request fields)
	IDs  []string // the candidates
}

func (e *AmbiguousError) Error() string {
	return fmt.Sprintf("%d candidates for this %s (%s) were created just now (ids %v) and one of them is this resource's: import it with `terraform import` and delete the others", len(e.IDs), e.Kind, e.Name, e.IDs)
}

// CreateImportOnce is step 1 of an import; after an unknown outcome it
// reads the list's imports back and adopts the one created since the
// attempt began with the same request and no upload yet.
func (c *Client) CreateImportOnce(ctx context.Context, listID string, in ImportRequest) (ID, error) {
	key := importKey(in)
	found, err := CreateOrAdopt(ctx, c, fmt.Sprintf("%s import into list %s", in.Type, listID),
		func(ctx context.Context) (*Import, error) {
			id, err := c.CreateImport(ctx, listID, in)
			return &Import{ID: id}, err
		},
		func(ctx context.Context, since time.Time) (*Import, bool, error) {
			all, err := c.ListImports(ctx, listID)
			if err != nil {
				return nil, false, err
			}
			return adoptOne(all, "import", key, since, func(imp Import) (string, time.Time, string) {
				if imp.BatchID != "" || !imp.Matches(in) {
					return "", imp.DateCreated.Time, imp.ID.String() // uploaded already: not the one just made
				}
				return key, imp.DateCreated.Time, imp.ID.String()
			})
		})
	if err != nil {
		return "", err
	}
	return found.ID, nil
}

func importKey(in ImportRequest) string {
	identity := in.IdentityColumn
	if identity == "" {
		identity = "originalId column"
	}
	return fmt.Sprintf("%s, delimiter %s, %s, identity %s", in.Type, in.Delimiter, in.Encoding, identity)
}

// UploadImportOnce is step 2 of an import. An import accepts one upload,
// so after an unknown outcome it reads the import back: when it has a batch,
// the upload arrived and that batch is the answer; else the file is sent
// again (rewound). A 409 to a repeated upload means an earlier attempt is
// still being read or was carried out after all: it is read back again
// rather than reported.
func (c *Client) UploadImportOnce(ctx context.Context, listID, importID string, file io.ReadSeeker) (ID, error) {
	uploaded := func(ctx context.Context, _ time.Time) (ID, bool, error) {
		all, err := c.ListImports(ctx, listID)
		if err != nil {
			return "", false, err
		}
		for _, imp := range all {
			if imp.ID.String() == importID {
				return imp.BatchID, imp.BatchID != "", nil
			}
		}
		return "", false, fmt.Errorf("import %s is not among the imports of list %s: %w", importID, listID, ErrNotFound)
	}
	attempts := 0
	return CreateOrAdopt(ctx, c, fmt.Sprintf("upload of import %s into list %s", importID, listID),
		func(ctx context.Context) (ID, error) {
			attempts++
			id, err := c.UploadImport(ctx, listID, importID, file)
			if attempts > 1 && errors.Is(err, ErrConflict) {
				return "", &UncertainError{Method: http.MethodPost, Path: Path("lists", listID, "recipients", importID), StatusCode: http.StatusConflict, Err: err}
			}
			return id, err
		}, uploaded)
}

// StartStatisticsExportOnce starts a statistics export; after an unknown
// outcome it reads back the account's STAT_EXPORT batches and adopts the
// one created since the attempt began with the same type and period.
func (c *Client) StartStatisticsExportOnce(ctx context.Context, in StatisticsExportRequest) (ID, error) {
	key := in.ExportType + " for " + in.Period
	found, err := CreateOrAdopt(ctx, c, "statistics export "+key,
		func(ctx context.Context) (*Batch, error) {
			id, err := c.StartStatisticsExport(ctx, in)
			return &Batch{ID: id}, err
		},
		func(ctx context.Context, since time.Time) (*Batch, bool, error) {
			all, err := c.ListBatches(ctx, BatchTypeStatsExport)
			if err != nil {
				return nil, false, err
			}
			return adoptOne(all, "statistics export", key, since, func(b Batch) (string, time.Time, string) {
				created := b.DateCreated.Time
				if created.IsZero() {
					created = b.StartTime.Time // startTime is when the batch was accepted
				}
				return b.ExportType + " for " + b.Period, created, b.ID.String()
			})
		})
	if err != nil {
		return "", err
	}
	return found.ID, nil
}

// createdSince reports whether a creation time is at or after since. Times
// are compared parsed, never as text, so any form the service sends works.
// No time (the service sent none, or none that parses) counts as recent:
// adopting is safer than creating a duplicate.
func createdSince(t, since time.Time) bool {
	if t.IsZero() {
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
				func(w Webhook) (string, time.Time, string) {
					return w.URL + " " + sameJSONKey(sortedCopy(w.Events)), w.DateCreated.Time, w.ID.String()
				})
		})
}

// CreateEntityOnce creates an entity of a generic collection; after an
// unknown outcome it looks for an entity created since the attempt began
// whose every key of body holds the value sent, except the keys in
// unechoed: secrets a service may keep without ever showing them, which
// would otherwise make the read-back miss the entity it made and create a
// second one.
func (c *Client) CreateEntityOnce(ctx context.Context, collection string, body Entity, unechoed ...string) (Entity, error) {
	want := map[string]string{}
	for k, v := range body {
		if !slices.Contains(unechoed, k) {
			want[k] = sameJSONKey(v)
		}
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
			return adoptOne(all, "entity", "same body in "+collection, since, func(e Entity) (string, time.Time, string) {
				created := EntityTime(e, "dateCreated")
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
