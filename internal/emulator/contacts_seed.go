package emulator

import (
	"fmt"

	"github.com/rms-labs/terraform-provider-rms/internal/emulator/state"
)

// UpsertContacts adds contacts to the list listID, or merges them into the
// contacts with the same originalId, as an "add" import does. It stops at
// the first contact the service would refuse.
func (s *Server) UpsertContacts(listID int64, contacts []Contact) error {
	now := s.now()
	by := &state.Cause{Kind: state.CauseGoAPI}
	for i, c := range contacts {
		if _, _, err := s.store.Contacts.Upsert(listID, c.input(), now, true, by); err != nil {
			return fmt.Errorf("contact %d (%q): %w", i, c.OriginalID, err)
		}
		s.changed()
	}
	return nil
}

// ReplaceContacts makes contacts the whole content of the list listID, as a
// "replace" import does: contacts not among them leave the list. Nothing
// changes when one is refused.
func (s *Server) ReplaceContacts(listID int64, contacts []Contact) error {
	ins := make([]state.ContactInput, len(contacts))
	for i, c := range contacts {
		ins[i] = c.input()
	}
	if err := s.store.Contacts.Replace(listID, ins, s.now(), &state.Cause{Kind: state.CauseGoAPI}); err != nil {
		return fmt.Errorf("replacing the contacts of list %d: %w", listID, err)
	}
	s.changed()
	return nil
}
