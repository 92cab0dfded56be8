package emulator

import (
	"net/http"
	"slices"
	"strconv"
	"strings"

	"github.com/rms-labs/terraform-provider-rms/internal/emulator/apierr"
	"github.com/rms-labs/terraform-provider-rms/internal/emulator/state"
)

// The generic resource pattern of the interface, for every public domain in
// genericDomains, plus one level of nested generic collections under an
// existing entity (/{collection}/{id}/{sub}[/{subid}]). Explicit routes of
// later work (lists/{id}/contacts, ...) are more specific patterns and win.

// genericBase is the path of a generic collection.
const genericBase = "/rest/{customerid}/{collection}"

func (s *genericAPI) registerGeneric() {
	s.handleJSON("GET "+genericBase, s.genericList)
	s.handleJSON("POST "+genericBase, s.genericCreate)
	s.handleJSON("GET "+genericBase+"/{id}", s.genericGet)
	s.handleJSON("PUT "+genericBase+"/{id}", s.genericUpdate)
	s.handleJSON("DELETE "+genericBase+"/{id}", s.genericDelete)

	s.handleJSON("GET "+genericBase+"/{id}/{sub}", s.genericList)
	s.handleJSON("POST "+genericBase+"/{id}/{sub}", s.genericCreate)
	s.handleJSON("GET "+genericBase+"/{id}/{sub}/{subid}", s.genericGet)
	s.handleJSON("PUT "+genericBase+"/{id}/{sub}/{subid}", s.genericUpdate)
	s.handleJSON("DELETE "+genericBase+"/{id}/{sub}/{subid}", s.genericDelete)
}

// target is the generic collection a request addresses.
type target struct {
	parent *state.Ref // the entity a nested collection hangs under; nil at top level
	key    string     // store key: "projects" or "projects/5/notes"
	rules  string     // mandatoryFields key: "projects" or "projects/notes"
	path   string     // URL path of the collection, for Location headers
}

// resolveTarget maps the path wildcards onto a generic collection.
func (s *genericAPI) resolveTarget(r *http.Request) (target, *apierr.Error) {
	coll := r.PathValue("collection")
	if !genericDomains[coll] {
		// A collection served only by explicit routes (e.g. batches), reached
		// through a generic pattern: 405 where an explicit route serves the
		// path with another method, else no such path.
		if allow := s.explicitAllow(r); allow != "" {
			e := apierr.Errorf(http.StatusMethodNotAllowed, "method %s is not allowed on %s", r.Method, r.URL.Path)
			e.Allow = allow
			return target{}, e
		}
		return target{}, apierr.Errorf(http.StatusNotFound, "no such path: %s", r.URL.Path)
	}
	t := target{
		key:   coll,
		rules: coll,
		path:  "/rest/" + strconv.FormatInt(s.opts.CustomerID, 10) + "/" + coll,
	}
	sub := r.PathValue("sub")
	if sub == "" {
		return t, nil
	}
	if s.explicitSubs[coll+"/"+sub] {
		e := apierr.Errorf(http.StatusMethodNotAllowed, "method %s is not allowed on %s", r.Method, r.URL.Path)
		e.Allow = s.explicitAllow(r)
		return target{}, e
	}
	pid, ok := parseID(r.PathValue("id"))
	if !ok {
		return target{}, apierr.Errorf(http.StatusNotFound, "no %s with id %q", coll, r.PathValue("id"))
	}
	if _, ok := s.store.Get(coll, pid); !ok {
		return target{}, apierr.Errorf(http.StatusNotFound, "no %s with id %d", coll, pid)
	}
	parent := state.Ref{Key: coll, ID: pid}
	return target{
		parent: &parent,
		key:    state.NestedKey(parent, sub),
		rules:  coll + "/" + sub,
		path:   t.path + "/" + strconv.FormatInt(pid, 10) + "/" + sub,
	}, nil
}

func (s *genericAPI) genericList(w http.ResponseWriter, r *http.Request) *apierr.Error {
	t, err := s.resolveTarget(r)
	if err != nil {
		return err
	}
	page, pageSize, err := s.pageParams(r)
	if err != nil {
		return err
	}
	items, total, ok := s.store.Page(t.parent, t.key, pageOffset(page, pageSize), pageSize)
	if !ok {
		return apierr.Errorf(http.StatusNotFound, "the parent of %s no longer exists", r.URL.Path)
	}
	s.writePage(w, items, total)
	return nil
}

func (s *genericAPI) genericCreate(w http.ResponseWriter, r *http.Request) *apierr.Error {
	t, err := s.resolveTarget(r)
	if err != nil {
		return err
	}
	body, err := readJSONObject(r)
	if err != nil {
		return err
	}
	dropReserved(body)
	// An entity never holds null: null means "no value", as in PUT.
	for k, v := range body {
		if v == nil {
			delete(body, k)
		}
	}
	e, ok, err := s.store.Create(t.parent, t.key, body, s.now(), s.entityCheck(t.rules, 0))
	if !ok {
		return apierr.Errorf(http.StatusNotFound, "the parent of %s no longer exists", r.URL.Path)
	}
	if err != nil {
		return err
	}
	w.Header().Set("Location", t.path+"/"+strconv.FormatInt(e["id"].(int64), 10))
	s.writeJSON(w, http.StatusCreated, e)
	return nil
}

func (s *genericAPI) genericGet(w http.ResponseWriter, r *http.Request) *apierr.Error {
	t, err := s.resolveTarget(r)
	if err != nil {
		return err
	}
	raw, id, ok := itemID(r)
	e, found := s.store.Get(t.key, id)
	if !ok || !found {
		return apierr.Errorf(http.StatusNotFound, "no entity with id %q in %s", raw, t.path)
	}
	s.writeJSON(w, http.StatusOK, e)
	return nil
}

// genericUpdate merges the body into the entity (conventions: PUT merges;
// null removes a key; keys left out keep their values).
func (s *genericAPI) genericUpdate(w http.ResponseWriter, r *http.Request) *apierr.Error {
	t, err := s.resolveTarget(r)
	if err != nil {
		return err
	}
	raw, id, ok := itemID(r)
	if !ok {
		return apierr.Errorf(http.StatusNotFound, "no entity with id %q in %s", raw, t.path)
	}
	body, err := readJSONObject(r)
	if err != nil {
		return err
	}
	dropReserved(body)
	e, found, err := s.store.Update(t.key, id, body, s.now(), s.entityCheck(t.rules, id))
	if !found {
		return apierr.Errorf(http.StatusNotFound, "no entity with id %q in %s", raw, t.path)
	}
	if err != nil {
		return err
	}
	s.writeJSON(w, http.StatusOK, e)
	return nil
}

func (s *genericAPI) genericDelete(w http.ResponseWriter, r *http.Request) *apierr.Error {
	t, err := s.resolveTarget(r)
	if err != nil {
		return err
	}
	raw, id, ok := itemID(r)
	var contacts *state.ListContacts // a deleted list's, for contact.deleted
	if ok && t.key == state.ListsKey {
		contacts = s.store.Contacts.ListHolder(id)
	}
	if !ok || !s.store.Delete(t.key, id) {
		return apierr.Errorf(http.StatusNotFound, "no entity with id %q in %s", raw, t.path)
	}
	s.contactsAPI.emitListDeleted(id, contacts)
	w.WriteHeader(http.StatusNoContent)
	return nil
}

// dropReserved removes the keys the server sets; bodies may carry them (a
// client sending back a whole GET result) and they are ignored.
func dropReserved(body map[string]any) {
	for _, k := range reservedKeys {
		delete(body, k)
	}
}

// explicitAllow lists the methods explicit (non-generic) routes serve on the
// request's path, for the Allow header of a 405. Every generic pattern has a
// {collection} wildcard; explicit ones never do.
func (s *genericAPI) explicitAllow(r *http.Request) string {
	var allowed []string
	for _, m := range []string{http.MethodGet, http.MethodHead, http.MethodPost, http.MethodPut, http.MethodPatch, http.MethodDelete} {
		probe := r.Clone(r.Context())
		probe.Method = m
		if _, pattern := s.mux.Handler(probe); pattern != "" && !strings.Contains(pattern, "{collection}") {
			allowed = append(allowed, m)
		}
	}
	return strings.Join(slices.Compact(allowed), ", ")
}

// genericAPI serves every domain of the generic resource pattern, nested
// collections included; deleting a list emits its contacts' events.
type genericAPI struct {
	*base
	contactsAPI *contactsAPI
}
