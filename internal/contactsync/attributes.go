package contactsync

import (
	"context"
	"slices"
	"strconv"
	"strings"
	"sync"

	"github.com/rms-labs/terraform-provider-rms/internal/client"
)

// Attributes maps the account's contact attribute ids to names, read
// from GET /properties at most once per provider run, and again only when a
// key names an id the cache does not know (an attribute created during the
// run). A contact property key of digits is an attribute id; any other key
// is a name.
type Attributes struct {
	client *client.Client
	mu     sync.Mutex
	names  map[string]string // id -> name
	// byName indexes names (name -> true), built on first use after each
	// read: every property key of a map input is checked against it.
	byName map[string]bool
	// absent are keys AttributeOf or Confirm found missing after a fresh
	// read: not read again for each plan of a file whose identity column
	// is no attribute (the default originalId), nor for each contact of a
	// map that names an attribute the account lacks. Confirm reads again
	// whatever it holds.
	absent map[string]bool
}

// NewAttributes is the attribute cache of one provider run.
func NewAttributes(c *client.Client) *Attributes {
	return &Attributes{client: c}
}

// LoadedAttributes is a cache that holds names (id -> name) and never reads
// the service: for tests and benchmarks that have none. A name it does not
// hold is absent.
func LoadedAttributes(names map[string]string) *Attributes {
	return &Attributes{names: names}
}

// IsAttributeID reports whether a property key names an attribute by id.
func IsAttributeID(key string) bool {
	// A loop, not strings.Trim with a cutset, which builds its set on each
	// call: a listing asks this of every key of every contact.
	for i := 0; i < len(key); i++ {
		if key[i] < '0' || key[i] > '9' {
			return false
		}
	}
	return key != ""
}

// NameOf returns the attribute name a property key stands for: the key
// itself for a name, the attribute's name for an id. ok is false for an id
// the account does not have.
func (a *Attributes) NameOf(ctx context.Context, key string) (name string, ok bool, err error) {
	if !IsAttributeID(key) {
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

// AttributeOf returns the attribute a key names, by id or by name, and ok
// only when the account has it: the identity column of a file is written
// as an attribute only then. A key the cache does not hold is read again
// once (an attribute created during the run); one still absent then is
// not read again for each contact that names it, until Confirm reads the
// attributes again.
func (a *Attributes) AttributeOf(ctx context.Context, key string) (name string, ok bool, err error) {
	if IsAttributeID(key) {
		a.mu.Lock()
		gone := a.absent[key]
		a.mu.Unlock()
		if gone {
			return "", false, nil
		}
		name, ok, err := a.NameOf(ctx, key)
		if err == nil && !ok {
			a.mu.Lock()
			a.noteAbsentLocked(key)
			a.mu.Unlock()
		}
		return name, ok, err
	}
	a.mu.Lock()
	defer a.mu.Unlock()
	if a.names != nil && a.hasNameLocked(key) {
		return key, true, nil
	}
	if a.absent[key] {
		return "", false, nil
	}
	if err := a.loadLocked(ctx); err != nil {
		return "", false, err
	}
	if a.hasNameLocked(key) {
		return key, true, nil
	}
	a.noteAbsentLocked(key)
	return "", false, nil
}

// noteAbsentLocked remembers that a fresh read found no attribute key.
func (a *Attributes) noteAbsentLocked(key string) {
	if a.absent == nil {
		a.absent = map[string]bool{}
	}
	a.absent[key] = true
}

// hasNameLocked reports whether the cache holds an attribute named name.
func (a *Attributes) hasNameLocked(name string) bool {
	if a.byName == nil {
		a.byName = make(map[string]bool, len(a.names))
		for _, n := range a.names {
			a.byName[n] = true
		}
	}
	return a.byName[name]
}

// heldLocked reports whether the cache holds the attribute key names, by
// id or by name.
func (a *Attributes) heldLocked(key string) bool {
	if IsAttributeID(key) {
		_, ok := a.names[key]
		return ok
	}
	return a.hasNameLocked(key)
}

// Confirm returns the keys (names or ids) that name no attribute of the
// account now, in the order given: the check an apply makes before its
// first write. When a key is not in the cache the attributes are read
// again, once per call, whatever an earlier read found: the plan read them
// before this apply created an attribute its configuration uses (an
// rms_resource of properties the contact depends on), and a key found
// absent then must not be refused now. The reads after it (AttributeOf,
// NameOf, a source file read again) see what it read.
func (a *Attributes) Confirm(ctx context.Context, keys []string) ([]string, error) {
	a.mu.Lock()
	defer a.mu.Unlock()
	if !slices.ContainsFunc(keys, func(k string) bool { return !a.heldLocked(k) }) {
		return nil, nil
	}
	if err := a.loadLocked(ctx); err != nil {
		return nil, err
	}
	for k := range a.absent {
		if a.heldLocked(k) {
			delete(a.absent, k) // made since it was found absent
		}
	}
	var missing []string
	for _, k := range keys {
		if !a.heldLocked(k) {
			missing = append(missing, k)
			a.noteAbsentLocked(k)
		}
	}
	return missing, nil
}

// Spelling returns the account's attribute name that differs from name
// only in letter case, "" when name is an attribute itself (or an id), or
// when no attribute is spelled like it. The service matches attribute
// names exactly (an import's columns, a contact's property keys): a
// column "Firstname" for the attribute "firstname" is refused at plan
// naming the right spelling, instead of failing at apply.
func (a *Attributes) Spelling(ctx context.Context, name string) (string, error) {
	if IsAttributeID(name) {
		return "", nil
	}
	if _, ok, err := a.AttributeOf(ctx, name); err != nil || ok {
		return "", err
	}
	a.mu.Lock()
	defer a.mu.Unlock()
	for _, n := range a.names {
		if strings.EqualFold(n, name) {
			return n, nil
		}
	}
	return "", nil
}

// Known returns the names of the account's attributes, in id order (the
// order the service lists them), for a message that names the attributes
// that exist. It reads the attributes when the cache holds none.
func (a *Attributes) Known(ctx context.Context) ([]string, error) {
	a.mu.Lock()
	defer a.mu.Unlock()
	if a.names == nil {
		if err := a.loadLocked(ctx); err != nil {
			return nil, err
		}
	}
	ids := make([]string, 0, len(a.names))
	for id := range a.names {
		ids = append(ids, id)
	}
	slices.SortFunc(ids, func(x, y string) int {
		nx, _ := strconv.ParseInt(x, 10, 64)
		ny, _ := strconv.ParseInt(y, 10, 64)
		return int(max(-1, min(1, nx-ny)))
	})
	out := make([]string, len(ids))
	for i, id := range ids {
		out[i] = a.names[id]
	}
	return out, nil
}

// ByName returns a contact's properties keyed by attribute name. The
// interface lets a service key them by name or by id in its answers; every
// conversion to state goes through here, so either form reads the same and
// neither causes a diff. Properties keyed by name come back as they are.
// An id the account does not know keeps its id as key.
func (a *Attributes) ByName(ctx context.Context, props client.PropertyValues) (client.PropertyValues, error) {
	byID := false
	for k := range props {
		if IsAttributeID(k) {
			byID = true
			break
		}
	}
	if !byID {
		return props, nil
	}
	out := make(client.PropertyValues, len(props))
	for k, v := range props {
		name, err := a.keyName(ctx, k)
		if err != nil {
			return nil, err
		}
		out[name] = v
	}
	return out, nil
}

// keyName is the attribute name a listed property key stands for, or the
// key itself for an id the account does not have (ByName, PairsByName).
func (a *Attributes) keyName(ctx context.Context, key string) (string, error) {
	name, ok, err := a.NameOf(ctx, key)
	if err != nil || !ok {
		return key, err
	}
	return name, nil
}

// PairsByName is ByName of a listed contact's pairs: pairs themselves
// when every key is a name (no copy), else new pairs with each attribute
// id replaced by its name, in the same order.
func (a *Attributes) PairsByName(ctx context.Context, pairs []client.PropertyPair) ([]client.PropertyPair, error) {
	byID := false
	for _, p := range pairs {
		if IsAttributeID(p.Key) {
			byID = true
			break
		}
	}
	if !byID {
		return pairs, nil
	}
	out := make([]client.PropertyPair, len(pairs))
	for j, p := range pairs {
		name, err := a.keyName(ctx, p.Key)
		if err != nil {
			return nil, err
		}
		out[j] = client.PropertyPair{Key: name, Value: p.Value}
	}
	return out, nil
}

func (a *Attributes) loadLocked(ctx context.Context) error {
	if a.client == nil {
		return nil // LoadedAttributes: what it holds is all there is
	}
	props, err := a.client.Properties.List(ctx)
	if err != nil {
		return err
	}
	a.names = make(map[string]string, len(props))
	a.byName = nil
	for _, p := range props {
		a.names[p.ID.String()] = p.Name
	}
	return nil
}
