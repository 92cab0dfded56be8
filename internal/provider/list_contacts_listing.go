package provider

import (
	"context"
	"encoding/json"
	"sync"

	"github.com/hashicorp/terraform-plugin-framework/diag"

	"github.com/rms-labs/terraform-provider-rms/internal/client"
	"github.com/rms-labs/terraform-provider-rms/internal/contactsync"
)

// listService reads every contact of a list with one paged listing at the
// largest page size the service allows, properties keyed by attribute name
// whatever form the service answers in.
func listService(ctx context.Context, d *providerData, listID string) (map[string]contactsync.ServiceContact, error) {
	out := map[string]contactsync.ServiceContact{}
	err := d.client.EachContactPage(ctx, listID, client.MaxPageSize, func(page []client.Contact) error {
		for _, c := range page {
			props, err := d.attributes.ByName(ctx, c.Properties)
			if err != nil {
				return err
			}
			out[c.OriginalID] = contactsync.ServiceContact{Props: props, Email: c.Status, Mobile: c.MobileStatus}
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
	lists map[string]map[string]contactsync.ServiceContact
}

func (s *listContactsSnapshots) put(listID string, service map[string]contactsync.ServiceContact) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.lists == nil {
		s.lists = map[string]map[string]contactsync.ServiceContact{}
	}
	s.lists[listID] = service
}

func (s *listContactsSnapshots) take(listID string) (map[string]contactsync.ServiceContact, bool) {
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

func readListApplied(ctx context.Context, p privateGetter, file bool) (contactsync.Record, diag.Diagnostics) {
	rec := contactsync.Record{File: file}
	if p == nil {
		return rec, nil
	}
	raw, diags := p.GetKey(ctx, privateApplied)
	if len(raw) > 0 {
		var got contactsync.Record
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
