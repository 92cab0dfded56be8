package client

import (
	"context"
	"encoding/json"
	"fmt"
	"slices"
	"strconv"
	"strings"
	"time"
)

// CollectionPath escapes each "/"-separated segment of a collection path
// such as "campaigns" or "lists/12/notes", so that a segment cannot smuggle
// a query or a second path into the request.
func CollectionPath(collection string) string {
	return Path(strings.Split(strings.Trim(collection, "/"), "/")...)
}

// Get reads one entity of a generic collection. The error matches
// ErrNotFound when it does not exist and ErrGone when the collection is
// retired.
func (s *EntityService) Get(ctx context.Context, collection, id string) (Entity, error) {
	var e Entity
	if err := s.c.Resources.Get(ctx, CollectionPath(collection), id, &e); err != nil {
		return nil, fmt.Errorf("reading %s/%s: %w", collection, id, err)
	}
	return e, nil
}

// Create posts body to a generic collection and returns the created
// entity as the server holds it.
func (s *EntityService) Create(ctx context.Context, collection string, body Entity) (Entity, error) {
	var e Entity
	if err := s.c.Resources.Create(ctx, CollectionPath(collection), body, &e); err != nil {
		return nil, fmt.Errorf("creating an entity in %s: %w", collection, err)
	}
	return e, nil
}

// Update puts body (which the service merges key by key; a null
// removes a key) and returns the entity after the update.
func (s *EntityService) Update(ctx context.Context, collection, id string, body Entity) (Entity, error) {
	var e Entity
	if err := s.c.Resources.Update(ctx, CollectionPath(collection), id, body, &e); err != nil {
		return nil, fmt.Errorf("updating %s/%s: %w", collection, id, err)
	}
	return e, nil
}

// Delete deletes one entity; one already gone counts as deleted.
func (s *EntityService) Delete(ctx context.Context, collection, id string) error {
	if err := s.c.Resources.Delete(ctx, CollectionPath(collection), id); err != nil {
		return fmt.Errorf("deleting %s/%s: %w", collection, id, err)
	}
	return nil
}

// List pages through a whole generic collection.
func (s *EntityService) List(ctx context.Context, collection string) ([]Entity, error) {
	all, err := GetAll[Entity](ctx, s.c, CollectionPath(collection), nil)
	if err != nil {
		return nil, fmt.Errorf("listing %s: %w", collection, err)
	}
	if all == nil {
		all = []Entity{}
	}
	return all, nil
}

// EntityID is the id of an entity as text, whether the service sent it as a
// number or a string; "" when it has none.
func EntityID(e Entity) string {
	switch v := e["id"].(type) {
	case string:
		return v
	case fmt.Stringer: // json.Number
		return v.String()
	case float64:
		return fmt.Sprintf("%.0f", v)
	}
	return ""
}

// EntityTime reads a timestamp field of an entity in any form Timestamp
// accepts (RFC 3339 text, epoch seconds or milliseconds); the zero time when
// the entity has none.
func EntityTime(e Entity, key string) time.Time {
	switch v := e[key].(type) {
	case string:
		return ParseTimestamp(v)
	case json.Number:
		return epochTime(v.String())
	case float64:
		return epochTime(strconv.FormatFloat(v, 'f', -1, 64))
	}
	return time.Time{}
}

// DecodeEntity reads an entity of a domain that has a typed form (Project,
// List, Webhook) into out, with the same tolerance as a typed read: ids as
// numbers or strings, timestamps in any form Timestamp accepts.
func DecodeEntity(e Entity, out any) error {
	raw, err := json.Marshal(e)
	if err != nil {
		return fmt.Errorf("encoding entity: %w", err)
	}
	if err := json.Unmarshal(raw, out); err != nil {
		return fmt.Errorf("decoding entity: %w", err)
	}
	return nil
}

// CreateOnce creates an entity of a generic collection; after an
// unknown outcome it looks for an entity created since the attempt began
// whose every key of body holds the value sent, except the keys in
// unechoed: secrets a service may keep without ever showing them, which
// would otherwise make the read-back miss the entity it made and create a
// second one.
func (s *EntityService) CreateOnce(ctx context.Context, collection string, body Entity, unechoed ...string) (Entity, error) {
	want := map[string]string{}
	for k, v := range body {
		if !slices.Contains(unechoed, k) {
			want[k] = sameJSONKey(v)
		}
	}
	found, err := CreateOrAdopt(ctx, s.c, "entity in "+collection,
		func(ctx context.Context) (*Entity, error) {
			e, err := s.Create(ctx, collection, body)
			return &e, err
		},
		func(ctx context.Context, since time.Time) (*Entity, bool, error) {
			all, err := s.List(ctx, collection)
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
