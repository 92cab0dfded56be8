package emulator

// The registration plumbing that every domain's register function uses; it
// knows no domain.

import (
	"net/http"
	"strings"

	"github.com/rms-labs/terraform-provider-rms/internal/emulator/apierr"
)

// handle registers a raw handler and records the route. Explicit routes
// under /rest/{customerid}/ make their literal first segment a known
// collection, and a literal third segment (collection/{id}/sub) an explicit
// sub-collection that the generic nested handlers leave alone.
//
// A handler of any method but GET and HEAD may change the account, so after
// it runs the data directory, if any, is brought up to date (s.changed);
// areas need do nothing for their requests to be persisted.
func (s *base) handle(pattern string, h http.HandlerFunc) {
	if method, _, _ := strings.Cut(pattern, " "); method != http.MethodGet && method != http.MethodHead {
		inner := h
		h = func(w http.ResponseWriter, r *http.Request) {
			inner(w, r)
			s.changed()
		}
	}
	s.mux.HandleFunc(pattern, h)
	s.routes = append(s.routes, pattern)
	_, path, _ := strings.Cut(pattern, " ")
	segs := strings.Split(strings.TrimPrefix(path, "/"), "/")
	if len(segs) < 3 || segs[0] != "rest" || isWildcard(segs[2]) {
		return
	}
	s.knownCollections[segs[2]] = true
	if len(segs) >= 5 && !isWildcard(segs[4]) {
		s.explicitSubs[segs[2]+"/"+segs[4]] = true
	}
}

// handleJSON registers a handler of a JSON endpoint: it answers in
// application/json (406 otherwise) and takes application/json bodies on POST
// and PUT (415 otherwise). A handler returns an *apierr.Error to answer an error.
func (s *base) handleJSON(pattern string, h func(http.ResponseWriter, *http.Request) *apierr.Error) {
	s.handle(pattern, func(w http.ResponseWriter, r *http.Request) {
		if !accepts(r, "application/json") {
			s.writeError(w, apierr.Errorf(http.StatusNotAcceptable, "this call answers only in application/json; the Accept header excludes it"))
			return
		}
		if r.Method == http.MethodPost || r.Method == http.MethodPut {
			if err := checkJSONContentType(r); err != nil {
				s.writeError(w, err)
				return
			}
		}
		if err := h(w, r); err != nil {
			s.writeError(w, err)
		}
	})
}

func isWildcard(seg string) bool { return strings.HasPrefix(seg, "{") }
