package state

// What the handlers read of contacts around a write to tell their webhook
// events: a contact as the interface shows it, and what a whole-list write
// changed. Each takes the lock itself, so that no handler takes the store's.

// View is c as the interface shows it, its attributes named as the account
// names them now.
func (cs *Contacts) View(c *Contact) ContactView {
	cs.st.mu.RLock()
	defer cs.st.mu.RUnlock()
	return c.View(cs.st.PropertyNamesLocked())
}

// ContactChange is one contact before and after a write: nil Before for a
// contact the write added, nil After for one it removed.
type ContactChange struct {
	Before, After *Contact
}

// Changes lists what happened to a list between two of its holders (nil
// for none): a REPLACE builds a new holder and never changes the old one,
// and next may be changed by concurrent writes, so it is read locked.
// Contacts of next come first, in its order, then those only old had.
func (cs *Contacts) Changes(old, next *ListContacts) []ContactChange {
	cs.st.mu.RLock()
	defer cs.st.mu.RUnlock()
	var changes []ContactChange
	if next != nil {
		for _, c := range next.order {
			var before *Contact
			if old != nil {
				before = old.Get(c.OriginalID)
			}
			changes = append(changes, ContactChange{before, c})
		}
	}
	if old != nil {
		for _, c := range old.order {
			if next == nil || next.Get(c.OriginalID) == nil {
				changes = append(changes, ContactChange{c, nil})
			}
		}
	}
	return changes
}
