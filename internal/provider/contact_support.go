package provider

import (
	"context"
	"strings"
	"sync"

	"github.com/hashicorp/terraform-plugin-framework/path"

	"github.com/rms-labs/terraform-provider-rms/internal/client"
)

// attributeCache maps the account's contact attribute ids to names, read
// from GET /properties at most once per provider run, and again only when a
// key names an id the cache does not know (an attribute created during the
// run). A contact property key of digits is an attribute id; any other key
// is a name.
type attributeCache struct {
	client *client.Client
	mu     sync.Mutex
	names  map[string]string // id -> name
	// absent are names attributeOf found missing after a fresh read: not
	// read again for each plan of a file whose identity column is no
	// attribute (the default originalId).
	absent map[string]bool
}

func newAttributeCache(c *client.Client) *attributeCache {
	return &attributeCache{client: c}
}

// isAttributeID reports whether a property key names an attribute by id.
func isAttributeID(key string) bool {
	if key == "" {
		return false
	}
	for _, r := range key {
		if r < '0' || r > '9' {
			return false
		}
	}
	return true
}

// nameOf returns the attribute name a property key stands for: the key
// itself for a name, the attribute's name for an id. ok is false for an id
// the account does not have.
func (a *attributeCache) nameOf(ctx context.Context, key string) (name string, ok bool, err error) {
	if !isAttributeID(key) {
		return key, true, nil
	}
	a.mu.Lock()
	defer a.mu.Unlock()
	if name, ok := a.names[key]; ok {
		return name, true, nil
	}
	if err := a.loadLocked(ctx); err != nil {
		return "", false, err
	}
	name, ok = a.names[key]
	return name, ok, nil
}

// attributeOf returns the attribute a key names, by id or by name, and ok
// only when the account has it: the identity column of a file is written
// as an attribute only then. A name the cache does not hold is read again
// once (an attribute created during the run).
func (a *attributeCache) attributeOf(ctx context.Context, key string) (name string, ok bool, err error) {
	if isAttributeID(key) {
		return a.nameOf(ctx, key)
	}
	a.mu.Lock()
	defer a.mu.Unlock()
	has := func() bool {
		for _, n := range a.names {
			if n == key {
				return true
			}
		}
		return false
	}
	if a.names != nil && has() {
		return key, true, nil
	}
	if a.absent[key] {
		return "", false, nil
	}
	if err := a.loadLocked(ctx); err != nil {
		return "", false, err
	}
	if has() {
		return key, true, nil
	}
	if a.absent == nil {
		a.absent = map[string]bool{}
	}
	a.absent[key] = true
	return "", false, nil
}

// byName returns a contact's properties keyed by attribute name. The
// interface lets a service key them by name or by id in its answers; every
// conversion to state goes through here, so either form reads the same and
// neither causes a diff. Properties keyed by name come back as they are.
// An id the account does not know keeps its id as key.
func (a *attributeCache) byName(ctx context.Context, props client.PropertyValues) (client.PropertyValues, error) {
	byID := false
	for k := range props {
		if isAttributeID(k) {
			byID = true
			break
		}
	}
	if !byID {
		return props, nil
	}
	out := make(client.PropertyValues, len(props))
	for k, v := range props {
		name, ok, err := a.nameOf(ctx, k)
		if err != nil {
			return nil, err
		}
		if !ok {
			name = k
		}
		out[name] = v
	}
	return out, nil
}

func (a *attributeCache) loadLocked(ctx context.Context) error {
	props, err := a.client.ListProperties(ctx)
	if err != nil {
		return err
	}
	a.names = make(map[string]string, len(props))
	for _, p := range props {
		a.names[p.ID.String()] = p.Name
	}
	return nil
}

// releasedContacts remembers, for one provider run, the contacts whose
// destroy unsubscribed and forgot them, with the states they had. The
// interface has no DELETE of a contact, so a replacement (destroy, then
// create of the same list and original id: a tainted contact, say) finds
// the contact still there; create takes over a contact found here instead
// of refusing it, and restores its states unless the configuration sets
// them. Contacts not released in this run are never taken over.
type releasedContacts struct {
	mu       sync.Mutex
	contacts map[string]client.SubscriptionStatus
}

func newReleasedContacts() *releasedContacts {
	return &releasedContacts{contacts: map[string]client.SubscriptionStatus{}}
}

func (r *releasedContacts) add(listID, originalID string, st client.SubscriptionStatus) {
	r.mu.Lock()
	defer r.mu.Unlock()
	r.contacts[contactImportID(listID, originalID)] = st
}

// take removes and returns a released contact.
func (r *releasedContacts) take(listID, originalID string) (client.SubscriptionStatus, bool) {
	r.mu.Lock()
	defer r.mu.Unlock()
	key := contactImportID(listID, originalID)
	st, ok := r.contacts[key]
	delete(r.contacts, key)
	return st, ok
}

// contactImportID is the id of an rms_contact: list id and original id
// joined by a slash. The list id is digits, so the first slash splits them
// even when the original id holds slashes.
func contactImportID(listID, originalID string) string { return listID + "/" + originalID }

func splitContactImportID(id string) (listID, originalID string, ok bool) {
	listID, originalID, ok = strings.Cut(id, "/")
	return listID, originalID, ok && isEntityID(listID) && originalID != ""
}

// contactFieldPath maps a field of a contact error onto the attribute to
// blame: "properties.<key>" is that key of properties.
func contactFieldPath(field string) (path.Path, bool) {
	switch field {
	case "originalId":
		return path.Root("original_id"), true
	case "status":
		return path.Root("email_status"), true
	case "mobileStatus":
		return path.Root("mobile_status"), true
	case "properties":
		return path.Root("properties"), true
	}
	if key, ok := strings.CutPrefix(field, "properties."); ok {
		return path.Root("properties").AtMapKey(key), true
	}
	return path.Empty(), false
}
