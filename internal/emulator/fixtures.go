package emulator

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"maps"
	"os"
	"slices"
	"strings"

	"github.com/rms-labs/terraform-provider-rms/internal/emulator/apierr"
	"github.com/rms-labs/terraform-provider-rms/internal/emulator/state"
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
	state.PropertiesKey: "properties",
	"projects":          "projects",
	state.ListsKey:      "lists",
	"triggers":          "triggers",
	webhooksKey:         "webhooks",
}

// fixtureLoader applies fixtures to an empty account's store.
type fixtureLoader struct {
	s      *Server
	st     *state.Store
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
	st.Lock()
	defer st.Unlock()

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
		if l.generic(fmt.Sprintf("properties[%d]", i), state.PropertiesKey, e) {
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
		st.NextID = max(st.NextID, id)
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
	id, ok := state.IDOf(raw)
	switch {
	case !ok:
		l.errs = append(l.errs, fmt.Errorf("%s.id: want a positive integer, got %v", where, raw))
	case id <= l.st.NextID:
		l.errs = append(l.errs, fmt.Errorf("%s.id: %d is taken by a standard property (ids 1 to %d); use a larger id", where, id, l.st.NextID))
	case l.fixed[id] != "":
		l.errs = append(l.errs, fmt.Errorf("%s.id: %d is already the id of %s; ids are unique within the account", where, id, l.fixed[id]))
	default:
		l.fixed[id] = where
	}
}

// nextFreeID hands out the next id no fixed id claims.
func (l *fixtureLoader) nextFreeID() int64 {
	for {
		l.st.NextID++
		if l.fixed[l.st.NextID] == "" {
			return l.st.NextID
		}
	}
}

// prepare copies an entity's body, refusing the server-set timestamps, and
// returns its id (fixed or numbered).
func (l *fixtureLoader) prepare(where string, body map[string]any) (state.Entity, int64, bool) {
	e := state.Entity(maps.Clone(body))
	if e == nil {
		e = state.Entity{}
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
		id, _ = state.IDOf(raw) // reserveOne checked it
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
	l.st.PutLocked(coll, id, e, l.now)
	return true
}

func (l *fixtureLoader) list(where string, fl FixtureList) {
	e, id, ok := l.prepare(where, fl.Fields)
	if !ok {
		return
	}
	if err := l.s.checkMandatory(state.ListsKey, e); err != nil {
		l.fail(where, err)
		return
	}
	if err := checkList(l.st, e, 0); err != nil {
		l.fail(where, err)
		return
	}
	l.st.PutLocked(state.ListsKey, id, e, l.now)
	l.counts.Lists++
	lc := &state.ListContacts{ByID: map[string]*state.Contact{}}
	l.st.Contacts[id] = lc
	l.st.MarkAllLocked(id)
	for i, c := range fl.Contacts {
		cw := fmt.Sprintf("%s.contacts[%d]", where, i)
		in := c.input()
		if in.OriginalID == "" {
			l.errs = append(l.errs, fmt.Errorf("%s.originalId: originalId is mandatory", cw))
			continue
		}
		if _, dup := lc.ByID[in.OriginalID]; dup {
			l.errs = append(l.errs, fmt.Errorf("%s.originalId: %q appears twice in this list; originalId is unique within a list", cw, in.OriginalID))
			continue
		}
		if err := state.CheckInputStatus(in); err != nil {
			l.fail(cw, err)
			continue
		}
		props, err := l.st.ResolvePropsLocked(in.Props)
		if err != nil {
			l.fail(cw, err)
			continue
		}
		stamp := state.StampOf(l.now)
		nc := &state.Contact{
			ID: l.nextFreeID(), OriginalID: in.OriginalID, Props: state.PropSet("").With(props),
			Status: state.StatusSubscribed, MobileStatus: state.StatusSubscribed,
			Created: stamp, Modified: stamp,
		}
		nc.ApplyStatus(in.Status, in.MobileStatus, l.now)
		lc.Order = append(lc.Order, in.OriginalID)
		lc.ByID[in.OriginalID] = nc
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
	l.st.PutLocked(webhooksKey, id, e, l.now)
	l.counts.Webhooks++
}
