package emulator

import (
	"maps"
	"strconv"
	"sync/atomic"

	"github.com/rms-labs/terraform-provider-rms/internal/emulator/state"
)

// Contact webhook events (see "Webhook events" in the service conventions
// guide). The interface names none; the emulator sends:
//
//   - contact.created: a contact was added to a list (POST .../contacts, or
//     a row of an ADD or REPLACE import). A new contact's states are in its
//     data; it sends no contact.subscribed.
//   - contact.updated: a contact's properties changed (PUT .../contacts/{id},
//     or an ADD or REPLACE import row). A write that changes no value sends
//     nothing; a status change alone is not an update.
//   - contact.subscribed / contact.unsubscribed: the e-mail or the mobile
//     state of an existing contact changed (PUT .../subscriptionstatus, an
//     UNSUBSCRIBE import, a REPLACE or ADD row giving a state). data.channel
//     says which: "email" or "mobile". Setting the state a contact already
//     has sends nothing.
//   - contact.deleted: a contact left a list. The interface has no contact
//     DELETE, so this happens when a REPLACE import leaves it out, or when
//     its list is deleted (data.source "list.deleted").
//
// Bound: one import (one batch), or one list deletion, sends at most
// contactEventsPerBatch events of each kind one by one; when more happened,
// it then sends one summary event of that kind ({summary: true, count,
// omitted}) when it ends. Single calls are not bounded (each sends at most
// two events). The seeding Go API (UpsertContacts, ReplaceContacts) and
// fixtures set up state and send nothing.
//
// Events are found by comparing a contact before and after the write:
// stored contacts are never modified in place, so holding the old pointer is
// a snapshot. The handlers and the import job take both around their store
// call, and read them through the store (state/contacts_changes.go), which
// takes its own lock.

// contactEventsPerBatch bounds the single events of one kind per batch.
const contactEventsPerBatch = 100

// contactChangeKinds are the events a change from before to after makes
// (nil before: created; nil after: deleted), with the channel of each
// subscription event.
func contactChangeKinds(before, after *state.Contact) (kinds, channels []string) {
	switch {
	case before == nil && after == nil:
		return nil, nil
	case before == nil:
		return []string{"contact.created"}, []string{""}
	case after == nil:
		return []string{"contact.deleted"}, []string{""}
	}
	if before.Props != after.Props {
		kinds, channels = append(kinds, "contact.updated"), append(channels, "")
	}
	for _, ch := range []struct{ name, from, to string }{
		{"email", before.Status(), after.Status()},
		{"mobile", before.MobileStatus(), after.MobileStatus()},
	} {
		if ch.from == ch.to || ch.to == "" {
			continue
		}
		kind := "contact.subscribed"
		if ch.to == state.StatusUnsubscribed {
			kind = "contact.unsubscribed"
		}
		kinds, channels = append(kinds, kind), append(channels, ch.name)
	}
	return kinds, channels
}

// contactEventData is an event's data: the contact as the interface shows
// it (after the change; before it for contact.deleted) and where it came
// from.
func (s *contactsAPI) contactEventData(listID int64, c *state.Contact, channel string, extra map[string]any) map[string]any {
	v := s.store.Contacts.View(c)
	data := map[string]any{
		"listId": strconv.FormatInt(listID, 10), "originalId": v.OriginalID, "contactId": v.ID,
		"properties": v.Properties, "status": v.Status, "mobileStatus": v.MobileStatus,
	}
	if channel != "" {
		data["channel"] = channel
	}
	maps.Copy(data, extra)
	return data
}

// emitContactChange sends the events of one change made by a single call.
func (s *contactsAPI) emitContactChange(listID int64, before, after *state.Contact) {
	kinds, channels := contactChangeKinds(before, after)
	for i, kind := range kinds {
		c := after
		if c == nil {
			c = before
		}
		s.emit(kind, s.contactEventData(listID, c, channels[i], map[string]any{"source": "api"}))
	}
}

// contactEventBatch sends the contact events of one batch (or one list
// deletion) within the bound, and the summaries at its end.
type contactEventBatch struct {
	s      *contactsAPI
	listID int64
	extra  map[string]any // source and ids, in every event of the batch

	// count holds a counter for each kind of contact event, made up front
	// and never changed after, so that the rows of one batch, which may
	// note changes concurrently, count without a lock.
	count map[string]*atomic.Int64
}

// contactEventTypes are the kinds of contact event, in the order a batch
// sends its summaries.
var contactEventTypes = []string{"contact.created", "contact.updated", "contact.subscribed", "contact.unsubscribed", "contact.deleted"}

func (s *contactsAPI) newContactEventBatch(listID int64, extra map[string]any) *contactEventBatch {
	count := make(map[string]*atomic.Int64, len(contactEventTypes))
	for _, kind := range contactEventTypes {
		count[kind] = new(atomic.Int64)
	}
	return &contactEventBatch{s: s, listID: listID, extra: extra, count: count}
}

// note records a change and sends its events while the bound allows.
func (b *contactEventBatch) note(before, after *state.Contact) {
	kinds, channels := contactChangeKinds(before, after)
	for i, kind := range kinds {
		if b.count[kind].Add(1) > contactEventsPerBatch {
			continue
		}
		c := after
		if c == nil {
			c = before
		}
		b.s.emit(kind, b.s.contactEventData(b.listID, c, channels[i], b.extra))
	}
}

// end sends one summary event of each kind that went over the bound.
func (b *contactEventBatch) end() {
	for _, kind := range contactEventTypes {
		n := b.count[kind].Load()
		if n <= contactEventsPerBatch {
			continue
		}
		data := map[string]any{"listId": strconv.FormatInt(b.listID, 10), "summary": true, "count": n, "omitted": n - contactEventsPerBatch}
		maps.Copy(data, b.extra)
		b.s.emit(kind, data)
	}
}

// noteListChange records what happened to a list between two states of its
// contacts holder (state.Contacts.Changes).
func (b *contactEventBatch) noteListChange(old, next *state.ListContacts) {
	for _, c := range b.s.store.Contacts.Changes(old, next) {
		b.note(c.Before, c.After)
	}
}

// emitListDeleted sends contact.deleted for the contacts of a deleted list,
// within the bound; gone is the list's holder from before the delete.
func (s *contactsAPI) emitListDeleted(listID int64, gone *state.ListContacts) {
	if gone == nil {
		return
	}
	b := s.newContactEventBatch(listID, map[string]any{"source": "list.deleted"})
	b.noteListChange(gone, nil)
	b.end()
}
