package emulator

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"maps"
	"math"
	"os"
	"slices"
	"strconv"
	"strings"

	"github.com/rms-labs/terraform-provider-rms/internal/emulator/apierr"
)

// Fixtures preload a new account, so that a user's CI (or a test) starts
// from an account that already has lists, contacts, attributes, triggers and
// so on, as a real account would. The JSON form, read by rms-emulator
// -fixtures FILE, is documented in the guide "Running the emulator in your
// own CI" (templates/guides/emulator-in-ci.md.tmpl); a complete example is
// examples/emulator/fixtures.json:
//
//	{
//	  "properties": [ { "name": "plan" } ],
//	  "projects":   [ { "name": "Website" } ],
//	  "lists": [ { "id": 100, "name": "Newsletter",
//	               "contacts": [ { "originalId": "c-1", "properties": { "email": "ada@example.com" },
//	                               "status": "SUBSCRIBED", "mobileStatus": "UNSUBSCRIBED" } ] } ],
//	  "triggers": [ { "name": "Order confirmation", "channel": "EMAIL" } ],
//	  "webhooks": [ { "url": "https://hooks.example.com/rms", "events": ["message.sent"] } ],
//	  "entities": { "campaigns": [ { "name": "Spring sale" } ] }
//	}
//
// Every entity is checked by the same rules as a POST of it (mandatory
// fields, property names, list sender address, webhook URL and events,
// contact attributes and statuses). An entity may fix its "id" (a positive
// integer above the ids of the standard properties, unique in the file);
// entities without one are numbered in file order, skipping fixed ids, from
// one counter for the whole account as the service does. Loading is all or
// nothing: Open fails with every problem found, each named by its place in
// the file (e.g. "lists[0].contacts[2].status").
type Fixtures struct {
	// Properties are contact attributes beyond the standard ones
	// (StandardProperties).
	Properties []map[string]any `json:"properties,omitempty"`
	Projects   []map[string]any `json:"projects,omitempty"`
	Lists      []FixtureList    `json:"lists,omitempty"`
	Triggers   []map[string]any `json:"triggers,omitempty"`
	Webhooks   []map[string]any `json:"webhooks,omitempty"`
	// Entities are entities of any other generic domain, by collection
	// ("campaigns", "filters", "forms", "placeholders", ...).
	Entities map[string][]map[string]any `json:"entities,omitempty"`
}

// FixtureList is a list and its contacts. In JSON it is one object: the
// list's fields plus "contacts".
type FixtureList struct {
	// Fields are the list's own fields: name (mandatory), description,
	// senderName, senderEmail, and optionally id.
	Fields   map[string]any
	Contacts []Contact
}

// UnmarshalJSON reads a list object, taking "contacts" apart from the
// list's fields. Contacts are strict: an unknown key is an error.
func (l *FixtureList) UnmarshalJSON(b []byte) error {
	var raw map[string]json.RawMessage
	if err := json.Unmarshal(b, &raw); err != nil {
		return err
	}
	if c, ok := raw["contacts"]; ok {
		delete(raw, "contacts")
		dec := json.NewDecoder(bytes.NewReader(c))
		dec.DisallowUnknownFields()
		if err := dec.Decode(&l.Contacts); err != nil {
			return fmt.Errorf("contacts: %w", err)
		}
	}
	l.Fields = make(map[string]any, len(raw))
	for k, v := range raw {
		val, err := decodeJSONValue(v)
		if err != nil {
			return fmt.Errorf("%s: %w", k, err)
		}
		l.Fields[k] = val
	}
	return nil
}

// MarshalJSON writes the list as one object, for round trips.
func (l FixtureList) MarshalJSON() ([]byte, error) {
	m := maps.Clone(l.Fields)
	if m == nil {
		m = map[string]any{}
	}
	if len(l.Contacts) > 0 {
		m["contacts"] = l.Contacts
	}
	return json.Marshal(m)
}

// decodeJSONValue decodes one JSON value keeping numbers as json.Number,
// as request bodies are kept.
func decodeJSONValue(b []byte) (any, error) {
	dec := json.NewDecoder(bytes.NewReader(b))
	dec.UseNumber()
	var v any
	if err := dec.Decode(&v); err != nil {
		return nil, err
	}
	return v, nil
}

// ParseFixtures reads fixtures in their JSON form. Unknown top-level or
// contact keys are errors, so a misspelt key is not silently ignored; the
// content is checked when a Server is opened with them.
func ParseFixtures(r io.Reader) (*Fixtures, error) {
	dec := json.NewDecoder(r)
	dec.UseNumber()
	dec.DisallowUnknownFields()
	var f Fixtures
	if err := dec.Decode(&f); err != nil {
		if errors.Is(err, io.EOF) {
			return nil, errors.New("the fixtures are empty; want a JSON object such as {\"lists\": [{\"name\": \"Newsletter\"}]}")
		}
		return nil, fmt.Errorf("the fixtures are not valid: %w", err)
	}
	if _, err := dec.Token(); !errors.Is(err, io.EOF) {
		return nil, errors.New("the fixtures hold data after the JSON object")
	}
	return &f, nil
}

// ReadFixturesFile reads and parses a fixture file.
func ReadFixturesFile(path string) (*Fixtures, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, fmt.Errorf("reading fixtures: %w", err)
	}
	defer func() { _ = f.Close() }() // read only: nothing to lose on close
	fx, err := ParseFixtures(f)
	if err != nil {
		return nil, fmt.Errorf("fixture file %s: %w", path, err)
	}
	return fx, nil
}

// FixtureCounts says what a Server was preloaded with.
type FixtureCounts struct {
	Properties, Projects, Lists, Contacts, Triggers, Webhooks, Entities int
}

func (c FixtureCounts) String() string {
	return fmt.Sprintf("%d properties, %d projects, %d lists with %d contacts, %d triggers, %d webhooks, %d other entities",
		c.Properties, c.Projects, c.Lists, c.Contacts, c.Triggers, c.Webhooks, c.Entities)
}

// dedicatedSections are the collections fixtures give their own key, which
// "entities" refuses so there is one way to write each.
var dedicatedSections = map[string]string{
	propertiesKey: "properties",
	"projects":    "projects",
	listsKey:      "lists",
	"triggers":    "triggers",
	webhooksKey:   "webhooks",
}

// fixtureLoader applies fixtures to an empty account's store.
type fixtureLoader struct {
	s      *Server
	st     *store
	now    string
	fixed  map[int64]string // explicit ids -> where they are given
	errs   []error
	counts FixtureCounts
}

// applyFixtures loads f into the account, which holds only the standard
// properties. On error the store may hold part of f: the caller discards
// the Server.
func (s *Server) applyFixtures(f *Fixtures) (FixtureCounts, error) {
	l := &fixtureLoader{s: s, st: s.store, now: s.now(), fixed: map[int64]string{}}
	st := s.store
	st.mu.Lock()
	defer st.mu.Unlock()

	// Fixed ids first, so that numbered entities skip them wherever in the
	// file they appear.
	l.reserve("properties", f.Properties)
	l.reserve("projects", f.Projects)
	for i, list := range f.Lists {
		l.reserveOne(fmt.Sprintf("lists[%d]", i), list.Fields)
	}
	l.reserve("triggers", f.Triggers)
	l.reserve("webhooks", f.Webhooks)
	for _, coll := range slices.Sorted(maps.Keys(f.Entities)) {
		l.reserve("entities."+coll, f.Entities[coll])
	}
	if len(l.errs) > 0 {
		return l.counts, errors.Join(l.errs...)
	}

	for i, e := range f.Properties {
		if l.generic(fmt.Sprintf("properties[%d]", i), propertiesKey, e) {
			l.counts.Properties++
		}
	}
	for i, e := range f.Projects {
		if l.generic(fmt.Sprintf("projects[%d]", i), "projects", e) {
			l.counts.Projects++
		}
	}
	for i, list := range f.Lists {
		l.list(fmt.Sprintf("lists[%d]", i), list)
	}
	for i, e := range f.Triggers {
		if l.generic(fmt.Sprintf("triggers[%d]", i), "triggers", e) {
			l.counts.Triggers++
		}
	}
	for i, e := range f.Webhooks {
		l.webhook(fmt.Sprintf("webhooks[%d]", i), e)
	}
	for _, coll := range slices.Sorted(maps.Keys(f.Entities)) {
		where := "entities." + coll
		if section, ok := dedicatedSections[coll]; ok {
			l.errs = append(l.errs, fmt.Errorf("%s: give %s under the top-level key %q", where, coll, section))
			continue
		}
		if !genericDomains[coll] {
			l.errs = append(l.errs, fmt.Errorf("%s: %q is not a domain of the service that follows the generic pattern; known: %s",
				where, coll, strings.Join(slices.Sorted(maps.Keys(genericDomains)), ", ")))
			continue
		}
		for i, e := range f.Entities[coll] {
			if l.generic(fmt.Sprintf("%s[%d]", where, i), coll, e) {
				l.counts.Entities++
			}
		}
	}
	for id := range l.fixed {
		st.nextID = max(st.nextID, id)
	}
	return l.counts, errors.Join(l.errs...)
}

func (l *fixtureLoader) reserve(section string, entities []map[string]any) {
	for i, e := range entities {
		l.reserveOne(fmt.Sprintf("%s[%d]", section, i), e)
	}
}

// reserveOne records an entity's fixed id, if it has one.
func (l *fixtureLoader) reserveOne(where string, e map[string]any) {
	raw, ok := e["id"]
	if !ok {
		return
	}
	id, ok := fixtureID(raw)
	switch {
	case !ok:
		l.errs = append(l.errs, fmt.Errorf("%s.id: want a positive integer, got %v", where, raw))
	case id <= l.st.nextID:
		l.errs = append(l.errs, fmt.Errorf("%s.id: %d is taken by a standard property (ids 1 to %d); use a larger id", where, id, l.st.nextID))
	case l.fixed[id] != "":
		l.errs = append(l.errs, fmt.Errorf("%s.id: %d is already the id of %s; ids are unique within the account", where, id, l.fixed[id]))
	default:
		l.fixed[id] = where
	}
}

// fixtureID reads an id given as a JSON number (or a Go integer).
func fixtureID(v any) (int64, bool) {
	var id int64
	switch n := v.(type) {
	case json.Number:
		i, err := strconv.ParseInt(string(n), 10, 64)
		if err != nil {
			return 0, false
		}
		id = i
	case int:
		id = int64(n)
	case int64:
		id = n
	case float64:
		if n != math.Trunc(n) || n > math.MaxInt64/2 {
			return 0, false
		}
		id = int64(n)
	default:
		return 0, false
	}
	return id, id > 0
}

// nextFreeID hands out the next id no fixed id claims.
func (l *fixtureLoader) nextFreeID() int64 {
	for {
		l.st.nextID++
		if l.fixed[l.st.nextID] == "" {
			return l.st.nextID
		}
	}
}

// prepare copies an entity's body, refusing the server-set timestamps, and
// returns its id (fixed or numbered).
func (l *fixtureLoader) prepare(where string, body map[string]any) (entity, int64, bool) {
	e := entity(maps.Clone(body))
	if e == nil {
		e = entity{}
	}
	for _, k := range []string{"dateCreated", "dateModified"} {
		if _, ok := e[k]; ok {
			l.errs = append(l.errs, fmt.Errorf("%s.%s: the emulator sets %s; leave it out", where, k, k))
			return nil, 0, false
		}
	}
	for k, v := range e {
		if v == nil {
			delete(e, k) // as in a POST: null means "no value"
		}
	}
	var id int64
	if raw, ok := e["id"]; ok {
		id, _ = fixtureID(raw) // reserveOne checked it
		delete(e, "id")
	} else {
		id = l.nextFreeID()
	}
	return e, id, true
}

// fail records an API error of the entity at where, naming its field.
func (l *fixtureLoader) fail(where string, err *apierr.Error) {
	if err.Field != "" {
		where += "." + err.Field
	}
	l.errs = append(l.errs, fmt.Errorf("%s: %s", where, err.Message))
}

// generic loads one entity of a generic collection, checked as a POST of it
// would be.
func (l *fixtureLoader) generic(where, coll string, body map[string]any) bool {
	e, id, ok := l.prepare(where, body)
	if !ok {
		return false
	}
	if err := l.s.checkMandatory(coll, e); err != nil {
		l.fail(where, err)
		return false
	}
	if check := domainChecks[coll]; check != nil {
		if err := check(l.st, e, 0); err != nil {
			l.fail(where, err)
			return false
		}
	}
	l.st.putLocked(coll, id, e, l.now)
	return true
}

func (l *fixtureLoader) list(where string, fl FixtureList) {
	e, id, ok := l.prepare(where, fl.Fields)
	if !ok {
		return
	}
	if err := l.s.checkMandatory(listsKey, e); err != nil {
		l.fail(where, err)
		return
	}
	if err := checkList(l.st, e, 0); err != nil {
		l.fail(where, err)
		return
	}
	l.st.putLocked(listsKey, id, e, l.now)
	l.counts.Lists++
	lc := &listContacts{byID: map[string]*contact{}}
	l.st.contacts[id] = lc
	l.st.markAllLocked(id)
	for i, c := range fl.Contacts {
		cw := fmt.Sprintf("%s.contacts[%d]", where, i)
		in := c.input()
		if in.originalID == "" {
			l.errs = append(l.errs, fmt.Errorf("%s.originalId: originalId is mandatory", cw))
			continue
		}
		if _, dup := lc.byID[in.originalID]; dup {
			l.errs = append(l.errs, fmt.Errorf("%s.originalId: %q appears twice in this list; originalId is unique within a list", cw, in.originalID))
			continue
		}
		if err := checkInputStatus(in); err != nil {
			l.fail(cw, err)
			continue
		}
		props, err := l.st.resolvePropsLocked(in.props)
		if err != nil {
			l.fail(cw, err)
			continue
		}
		stamp := stampOf(l.now)
		nc := &contact{
			id: l.nextFreeID(), originalID: in.originalID, props: propSet("").with(props),
			status: statusSubscribed, mobileStatus: statusSubscribed,
			created: stamp, modified: stamp,
		}
		nc.applyStatus(in.status, in.mobileStatus, l.now)
		lc.order = append(lc.order, in.originalID)
		lc.byID[in.originalID] = nc
		l.counts.Contacts++
	}
}

func (l *fixtureLoader) webhook(where string, body map[string]any) {
	e, id, ok := l.prepare(where, body)
	if !ok {
		return
	}
	for k := range e {
		if !slices.Contains(webhookWritable, k) {
			l.errs = append(l.errs, fmt.Errorf("%s.%s: unknown webhook field; a webhook has %s", where, k, strings.Join(webhookWritable, ", ")))
			return
		}
	}
	if err := checkWebhook(e); err != nil {
		l.fail(where, err)
		return
	}
	l.st.putLocked(webhooksKey, id, e, l.now)
	l.counts.Webhooks++
}

// putLocked stores e as entity id of key, stamped with now, keeping the
// collection in ascending id order (a fixed id may be smaller than ids
// already handed out). The caller holds mu and has made sure id is free.
func (st *store) putLocked(key string, id int64, e entity, now string) {
	e["id"] = id
	e["dateCreated"] = now
	e["dateModified"] = now
	c := st.colls[key]
	if c == nil {
		c = &collection{items: make(map[int64]entity)}
		st.colls[key] = c
	}
	pos, _ := slices.BinarySearch(c.order, id)
	c.order = slices.Insert(c.order, pos, id)
	c.items[id] = e
}
