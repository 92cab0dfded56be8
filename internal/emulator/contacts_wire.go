package emulator

// The wire profiles of a contact: how it starts and how it is shown (the
// behaviour common to every domain is in wire_behaviour.go).

import "strconv"

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
