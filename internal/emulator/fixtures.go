package emulator

import (
	"errors"
	"fmt"
	"maps"
	"slices"
	"strings"

	"github.com/rms-labs/terraform-provider-rms/internal/emulator/apierr"
	"github.com/rms-labs/terraform-provider-rms/internal/emulator/state"
)

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
	st     *state.Store // for the checks, under seed's lock
	seed   *state.Seeder
	now    string
	fixed  map[int64]string // explicit ids -> where they are given
	errs   []error
	counts FixtureCounts
	cause  *state.Cause // what made the contacts, in their histories
}

// applyFixtures loads f into the account, which holds only the standard
// properties. On error the store may hold part of f: the caller discards
// the Server.
func (s *Server) applyFixtures(f *Fixtures) (FixtureCounts, error) {
	var counts FixtureCounts
	var err error
	s.store.Seed(func(seed *state.Seeder) {
		l := &fixtureLoader{s: s, st: seed.Store(), seed: seed, now: s.now(), fixed: map[int64]string{},
			cause: &state.Cause{Kind: state.CauseFixtures}}
		counts, err = l.load(f)
	})
	return counts, err
}

// load loads f, fixed ids first.
func (l *fixtureLoader) load(f *Fixtures) (FixtureCounts, error) {

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
		l.seed.ClaimID(id)
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
	case id <= l.seed.LastID():
		l.errs = append(l.errs, fmt.Errorf("%s.id: %d is taken by a standard property (ids 1 to %d); use a larger id", where, id, l.seed.LastID()))
	case l.fixed[id] != "":
		l.errs = append(l.errs, fmt.Errorf("%s.id: %d is already the id of %s; ids are unique within the account", where, id, l.fixed[id]))
	default:
		l.fixed[id] = where
	}
}

// nextFreeID hands out the next id no fixed id claims.
func (l *fixtureLoader) nextFreeID() int64 {
	for {
		if id := l.seed.NextID(); l.fixed[id] == "" {
			return id
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
	l.seed.Put(coll, id, e, l.now)
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
	l.seed.Put(state.ListsKey, id, e, l.now)
	l.counts.Lists++
	l.seed.List(id)
	for i, c := range fl.Contacts {
		cw := fmt.Sprintf("%s.contacts[%d]", where, i)
		in := c.input()
		if in.OriginalID == "" {
			l.errs = append(l.errs, fmt.Errorf("%s.originalId: originalId is mandatory", cw))
			continue
		}
		dup, err := l.seed.Contact(id, in, l.now, l.nextFreeID, l.cause)
		if dup {
			l.errs = append(l.errs, fmt.Errorf("%s.originalId: %q appears twice in this list; originalId is unique within a list", cw, in.OriginalID))
			continue
		}
		if err != nil {
			l.fail(cw, err)
			continue
		}
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
	l.seed.Put(webhooksKey, id, e, l.now)
	l.counts.Webhooks++
}
