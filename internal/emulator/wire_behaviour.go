package emulator

import (
	"net/http"
	"strconv"
)

// The behavioural wire profiles that are not shapes of an answer but
// choices of the service: how collections page, how a contact starts and
// what a second create of it does, what contacts and batches show, how an
// export's result is fetched and whether the read-back listings exist. The
// handlers call these helpers; each is the default behaviour without its
// profile.

// pageParams reads page and pageSize as paging.go does, unless a paging
// profile ignores them: paging-ignored answers the whole collection,
// paging-page-ignored always the first page of pageSize.
func (s *Server) pageParams(r *http.Request) (page, pageSize int, err *apiError) {
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
func (s *Server) setTotal(w http.ResponseWriter, total int) {
	if s.opts.Wire.Has(WirePagingIgnored) {
		return
	}
	w.Header().Set("X-Total-Count", strconv.Itoa(total))
}

// statusPending is the e-mail state of a new contact under status-other:
// awaiting confirmation. Requests never set it.
const statusPending = "PENDING"

// contactCreateInput applies the profiles of a contact's initial state to a
// create body: double-opt-in ignores its statuses and starts UNSUBSCRIBED,
// status-other starts a contact without status PENDING.
func (s *Server) contactCreateInput(in contactInput) contactInput {
	switch {
	case s.opts.Wire.Has(WireDoubleOptIn):
		in.status, in.mobileStatus = "", ""
		in.initialStatus, in.initialMobileStatus = statusUnsubscribed, statusUnsubscribed
	case s.opts.Wire.Has(WireStatusOther):
		in.initialStatus = statusPending
	}
	return in
}

// presentContact is a contact as the profiles show it: properties keyed by
// attribute id (properties-by-id), no states (no-statuses).
func (s *Server) presentContact(v contactView) contactView {
	if s.opts.Wire.Has(WireNoStatuses) {
		v.Status, v.MobileStatus = "", ""
	}
	if s.opts.Wire.Has(WirePropertiesByID) && len(v.Properties) > 0 {
		ids := s.store.propertyIDsByName()
		byID := make(map[string]string, len(v.Properties))
		for name, val := range v.Properties {
			if id, ok := ids[name]; ok {
				byID[strconv.FormatInt(id, 10)] = val
			}
		}
		v.Properties = byID
	}
	return v
}

// propertyIDsByName maps each contact attribute's name to its id.
func (st *store) propertyIDsByName() map[string]int64 {
	st.mu.RLock()
	defer st.mu.RUnlock()
	names := st.propertyNamesLocked()
	ids := make(map[string]int64, len(names))
	for id, name := range names {
		ids[name] = id
	}
	return ids
}

// Batch states of batch-status-other.
const (
	batchStatusQueued    = "QUEUED"
	batchStatusRunningB  = "RUNNING"
	batchStatusCompleted = "COMPLETED"
	batchStatusFailed    = "FAILED"
)

// batchSparseView is a batch under batch-sparse: its id, state, error and
// the read-back fields, nothing of the interface's counts and times.
type batchSparseView struct {
	ID          int64  `json:"id"`
	Status      string `json:"status"`
	Error       string `json:"error,omitempty"`
	DateCreated string `json:"dateCreated"`
	ExportType  string `json:"exportType,omitempty"`
	Period      string `json:"period,omitempty"`
	ListID      string `json:"listId,omitempty"`
	ImportID    string `json:"importId,omitempty"`
}

// presentBatch is a batch as the profiles show it.
func (s *Server) presentBatch(v batchView) any {
	if s.opts.Wire.Has(WireBatchStatusOther) {
		switch v.Status {
		case batchStatusPending:
			v.Status = batchStatusQueued
		case batchStatusRunning:
			v.Status = batchStatusRunningB
		case batchStatusFinished:
			v.Status = batchStatusCompleted
			if v.Error != "" {
				v.Status = batchStatusFailed
			}
		}
	}
	if s.opts.Wire.Has(WireBatchSparse) {
		return batchSparseView{ID: v.ID, Status: v.Status, Error: v.Error, DateCreated: v.DateCreated,
			ExportType: v.ExportType, Period: v.Period, ListID: v.ListID, ImportID: v.ImportID}
	}
	return v
}

// refuseListing answers the two read-back listings under no-listings as a
// service without them would: GET .../imports is an unknown path (404) and
// GET batches a path served with other methods only (405).
func (s *Server) refuseListing(r *http.Request) *apiError {
	if !s.opts.Wire.Has(WireNoListings) {
		return nil
	}
	if r.PathValue("listId") != "" {
		return errorf(http.StatusNotFound, "no such path: %s", r.URL.Path)
	}
	return errorf(http.StatusMethodNotAllowed, "method %s is not allowed on %s", r.Method, r.URL.Path)
}
