package emulator

// The fixtures file: its form, reading it, and what loading it made
// (fixtures.go loads it into an account).

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"maps"
	"os"
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
