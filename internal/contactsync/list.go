package contactsync

import (
	"context"

	"github.com/rms-labs/terraform-provider-rms/internal/client"
)

// List reads every contact of a list with one paged listing at the largest
// page size the service allows, properties keyed by attribute name whatever
// form the service answers in.
func (r *Run) List(ctx context.Context, listID string) (map[string]ServiceContact, error) {
	out := map[string]ServiceContact{}
	err := r.client.EachContactPage(ctx, listID, client.MaxPageSize, func(page []client.Contact) error {
		for _, c := range page {
			props, err := r.Attributes.ByName(ctx, c.Properties)
			if err != nil {
				return err
			}
			out[c.OriginalID] = ServiceContact{Props: props, Email: c.Status, Mobile: c.MobileStatus}
		}
		return nil
	})
	return out, err
}

// ListStatuses reads a list's contacts with one paged listing, statuses
// only (no attribute names are resolved): what the guardrail needs where
// no refresh listing is at hand.
func ListStatuses(ctx context.Context, c *client.Client, listID string) (map[string]ServiceContact, error) {
	out := map[string]ServiceContact{}
	err := c.EachContactPage(ctx, listID, client.MaxPageSize, func(page []client.Contact) error {
		for _, ct := range page {
			out[ct.OriginalID] = ServiceContact{Email: ct.Status, Mobile: ct.MobileStatus}
		}
		return nil
	})
	return out, err
}
