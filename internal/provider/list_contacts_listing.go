package provider

import (
	"context"
	"encoding/json"
	"sync"

	"github.com/hashicorp/terraform-plugin-framework/diag"

	"github.com/rms-labs/terraform-provider-rms/internal/client"
)

// listService reads every contact of a list with one paged listing at the
// largest page size the service allows, properties keyed by attribute name
// whatever form the service answers in.
func listService(ctx context.Context, d *providerData, listID string) (map[string]serviceContact, error) {
	out := map[string]serviceContact{}
	err := d.client.EachContactPage(ctx, listID, client.MaxPageSize, func(page []client.Contact) error {
		for _, c := range page {
			props, err := d.attributes.byName(ctx, c.Properties)
			if err != nil {
				return err
			}
			out[c.OriginalID] = serviceContact{Props: props, Email: c.Status, Mobile: c.MobileStatus}
		}
		return nil
	})
	return out, err
}

// listContactsSnapshots hands the listing a refresh made to the plan that
// follows it in the same provider run (terraform plan refreshes and plans
// in one provider process), so that a plan costs one listing and can still
// name the contacts it changes. A plan takes the snapshot (it is not kept
// for later); a plan without one (refresh skipped, or the apply's final
// plan, which runs in a new provider process) says so.
type listContactsSnapshots struct {
	mu    sync.Mutex
	lists map[string]map[string]serviceContact
}

func (s *listContactsSnapshots) put(listID string, service map[string]serviceContact) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.lists == nil {
		s.lists = map[string]map[string]serviceContact{}
	}
	s.lists[listID] = service
}

func (s *listContactsSnapshots) take(listID string) (map[string]serviceContact, bool) {
	s.mu.Lock()
	defer s.mu.Unlock()
	m, ok := s.lists[listID]
	delete(s.lists, listID)
	return m, ok
}

// Private state of rms_list_contacts: what the consent rule must remember
// between applies, and the batches an apply stopped waiting for.
const (
	privateApplied = "applied"
	privateBatches = "batches"
)

// appliedRecord is the consent provenance of rms_list_contacts: the desired
// statuses last applied per contact, and the unsubscriptions Terraform made
// itself. For a map input every named contact is recorded. For a file
// input, which may name 100,000 contacts, only the contacts last applied
// UNSUBSCRIBED are (per channel); any other contact counts as last applied
// SUBSCRIBED, which for the consent rule means: an UNSUBSCRIBED the service
// shows is the recipient's own opt-out, unless the file itself had
// unsubscribed them.
type appliedRecord struct {
	File     bool                 `json:"file,omitempty"`
	Contacts map[string][2]string `json:"contacts,omitempty"`
	// Released holds the contacts Terraform unsubscribed although the
	// configuration did not name them (exclusive, or the destroy of a
	// replacement that could not hand them over), with, per channel
	// (e-mail, mobile), the status the service showed before: "" for a
	// channel Terraform did not change. Such an UNSUBSCRIBED is
	// Terraform's own doing, never a recipient's opt-out: when the input
	// names the contact again, it gets the status the input says, or,
	// where the input says nothing, the one it had before.
	Released map[string][2]string `json:"released,omitempty"`
}

// lookup is the status Terraform last applied to a contact, per channel
// (appliedStatuses): UNSUBSCRIBED for a channel it released.
func (a appliedRecord) lookup(id string) (email, mobile string) {
	st, ok := a.Contacts[id]
	if a.File {
		email, mobile = client.StatusSubscribed, client.StatusSubscribed
		if ok && st[0] != "" {
			email = st[0]
		}
		if ok && st[1] != "" {
			mobile = st[1]
		}
	} else {
		email, mobile = st[0], st[1]
	}
	if before, released := a.Released[id]; released {
		if before[0] != "" {
			email = client.StatusUnsubscribed
		}
		if before[1] != "" {
			mobile = client.StatusUnsubscribed
		}
	}
	return email, mobile
}

// restore is, per channel, the status a released contact had before
// Terraform unsubscribed it ("" for a channel it did not change, and for a
// contact it did not release).
func (a appliedRecord) restore(id string) (email, mobile string) {
	before := a.Released[id]
	return before[0], before[1]
}

// record notes that desired was applied: the statuses as desired, and the
// named contacts are released no more.
func (a *appliedRecord) record(desired []desiredContact) {
	a.Contacts = make(map[string][2]string, len(desired))
	for _, w := range desired {
		delete(a.Released, w.ID)
		st := [2]string{w.Email, w.Mobile}
		if a.File {
			for i := range st {
				if st[i] != client.StatusUnsubscribed {
					st[i] = ""
				}
			}
			if st == ([2]string{}) {
				continue
			}
		}
		a.Contacts[w.ID] = st
	}
}

// release notes that Terraform unsubscribes a contact the configuration
// does not name, which the service showed as s: each channel not already
// UNSUBSCRIBED is remembered with the status it had (one the service does
// not show counts as SUBSCRIBED: Terraform unsubscribed it as such). A
// contact released before keeps its first record.
func (a *appliedRecord) release(id string, s serviceContact) {
	if _, ok := a.Released[id]; ok {
		return
	}
	before := [2]string{}
	for i, st := range [2]string{s.Email, s.Mobile} {
		switch st {
		case client.StatusUnsubscribed:
		case "":
			before[i] = client.StatusSubscribed
		default:
			before[i] = st
		}
	}
	if before == ([2]string{}) {
		return // already unsubscribed on both channels: their own doing
	}
	if a.Released == nil {
		a.Released = map[string][2]string{}
	}
	a.Released[id] = before
}

// prune forgets released contacts the service shows subscribed again on a
// channel Terraform released (someone subscribed them since, or the
// unsubscription never happened), and those the list no longer has: the
// record must never let a later opt-out pass for Terraform's own.
func (a *appliedRecord) prune(service map[string]serviceContact) {
	for id, before := range a.Released {
		s, ok := service[id]
		if !ok || (before[0] != "" && s.Email == client.StatusSubscribed) || (before[1] != "" && s.Mobile == client.StatusSubscribed) {
			delete(a.Released, id)
		}
	}
}

// forInput is the record for an input of the given kind: a record made for
// the other kind (a replacement that switches between map and file) keeps
// only what Terraform released.
func (a appliedRecord) forInput(file bool) appliedRecord {
	if a.File != file {
		return appliedRecord{File: file, Released: a.Released}
	}
	return a
}

func readListApplied(ctx context.Context, p privateGetter, file bool) (appliedRecord, diag.Diagnostics) {
	rec := appliedRecord{File: file}
	if p == nil {
		return rec, nil
	}
	raw, diags := p.GetKey(ctx, privateApplied)
	if len(raw) > 0 {
		var got appliedRecord
		if json.Unmarshal(raw, &got) == nil && got.File == file {
			rec = got
		}
	}
	return rec, diags
}

func writeJSONKey(ctx context.Context, p privateSetter, key string, v any) diag.Diagnostics {
	raw, err := json.Marshal(v)
	if err != nil {
		var diags diag.Diagnostics
		diags.AddError("Unable to save private state", err.Error())
		return diags
	}
	return p.SetKey(ctx, key, raw)
}

// readBatches returns the import batches an earlier apply started and did
// not see finish.
func readBatches(ctx context.Context, p privateGetter) ([]string, diag.Diagnostics) {
	if p == nil {
		return nil, nil
	}
	raw, diags := p.GetKey(ctx, privateBatches)
	var ids []string
	if len(raw) > 0 {
		_ = json.Unmarshal(raw, &ids) // unreadable: nothing to resume
	}
	return ids, diags
}
