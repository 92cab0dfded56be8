package emulator

import (
	"net/http"
	"strconv"

	"github.com/rms-labs/terraform-provider-rms/internal/emulator/apierr"
	"github.com/rms-labs/terraform-provider-rms/internal/emulator/state"
)

// The behavioural wire profiles that are not shapes of an answer but
// choices of the service, as far as they are common to every domain: how
// collections page and whether the read-back listings exist. What a contact
// or a batch shows is with its domain (contacts_wire.go, batches_wire.go).
// The handlers call these helpers; each is the default behaviour without its
// profile.

// pageParams reads page and pageSize as paging.go does, unless a paging
// profile ignores them: paging-ignored answers the whole collection,
// paging-page-ignored always the first page of pageSize.
func (s *base) pageParams(r *http.Request) (page, pageSize int, err *apierr.Error) {
	if s.opts.Wire.Has(WirePagingIgnored) {
		return 0, int(^uint(0) >> 1), nil
	}
	page, pageSize, err = pageParams(r)
	if s.opts.Wire.Has(WirePagingPageIgnored) {
		page = 0
	}
	return page, pageSize, err
}

// setTotal sets X-Total-Count, which paging-ignored leaves out.
func (s *base) setTotal(w http.ResponseWriter, total int) {
	if s.opts.Wire.Has(WirePagingIgnored) {
		return
	}
	w.Header().Set("X-Total-Count", strconv.Itoa(total))
}

// refuseListing answers the two read-back listings under no-listings as a
// service without them would: GET .../imports is an unknown path (404) and
// GET batches a path served with other methods only (405).
func (s *base) refuseListing(r *http.Request) *apierr.Error {
	if !s.opts.Wire.Has(WireNoListings) {
		return nil
	}
	if r.PathValue("listId") != "" {
		return apierr.Errorf(http.StatusNotFound, "no such path: %s", r.URL.Path)
	}
	return apierr.Errorf(http.StatusMethodNotAllowed, "method %s is not allowed on %s", r.Method, r.URL.Path)
}

// writePage answers one page of a collection with its X-Total-Count.
func (s *base) writePage(w http.ResponseWriter, items []state.Entity, total int) {
	s.setTotal(w, total)
	s.writeJSON(w, http.StatusOK, items)
}
