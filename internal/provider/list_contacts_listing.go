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

// appliedRecord is the desired statuses last applied per contact. For a
// map input every named contact is recorded. For a file input, which may
// name 100,000 contacts, only the contacts last applied UNSUBSCRIBED are
// (per channel); any other contact counts as last applied SUBSCRIBED, which
// for the consent rule means: an UNSUBSCRIBED the service shows is the
// recipient's own opt-out, unless the file itself had unsubscribed them.
type appliedRecord struct {
	File     bool                 `json:"file,omitempty"`
	Contacts map[string][2]string `json:"contacts,omitempty"`
}

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
		return email, mobile
	}
	return st[0], st[1]
}

// record notes that desired was applied.
func (a *appliedRecord) record(desired []desiredContact) {
	a.Contacts = make(map[string][2]string, len(desired))
	for _, w := range desired {
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
