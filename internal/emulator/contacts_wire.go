package emulator

// The wire profiles of a contact: how it starts and how it is shown (the
// behaviour common to every domain is in wire_behaviour.go).

import (
	"strconv"

	"github.com/rms-labs/terraform-provider-rms/internal/emulator/state"
)

// contactCreateInput applies the profiles of a contact's initial state to a
// create body: double-opt-in ignores its statuses and starts UNSUBSCRIBED,
// status-other starts a contact without status PENDING.
func (s *contactsAPI) contactCreateInput(in state.ContactInput) state.ContactInput {
	switch {
	case s.opts.Wire.Has(WireDoubleOptIn):
		in.Status, in.MobileStatus = "", ""
		in.InitialStatus, in.InitialMobileStatus = state.StatusUnsubscribed, state.StatusUnsubscribed
	case s.opts.Wire.Has(WireStatusOther):
		in.InitialStatus = state.StatusPending
	}
	return in
}

// presentContact is a contact as the profiles show it: properties keyed by
// attribute id (properties-by-id), no states (no-statuses).
func (s *contactsAPI) presentContact(v state.ContactView) state.ContactView {
	if s.opts.Wire.Has(WireNoStatuses) {
		v.Status, v.MobileStatus = "", ""
	}
	if s.opts.Wire.Has(WirePropertiesByID) && len(v.Properties) > 0 {
		ids := s.store.PropertyIDsByName()
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

// keysByID keys the properties of a page by attribute id, as
// WirePropertiesByID answers them, in the order encoding/json writes them.
func keysByID(byName []state.PropKey) []state.PropKey {
	keys := make([]state.PropKey, len(byName))
	for i, k := range byName {
		keys[i] = state.PropKey{ID: k.ID, Key: strconv.FormatInt(k.ID, 10)}
	}
	state.SortPropKeys(keys)
	return keys
}
