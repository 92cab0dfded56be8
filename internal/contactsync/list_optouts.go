package contactsync

import (
	"context"
	"fmt"

	"github.com/rms-labs/terraform-provider-rms/internal/client"
)

// LeavingOptOuts are the opt-outs of the contacts of list listID that
// leaving says are about to leave it (a REPLACE import removes every
// contact its file does not name): each unsubscribed channel, whoever made
// it, since a list cannot tell. Recorded in the suppression list before
// they go, they outlive the list's copy.
func (r *Run) LeavingOptOuts(ctx context.Context, listID string, leaving func(originalID string) bool) ([]OptOut, error) {
	var outs []OptOut
	err := r.client.Contacts.Stream(ctx, listID, client.ListingOptions{}, func(chunk []client.ListedContact) error {
		for _, c := range chunk {
			ch := UnsubscribedChannels(c.Status, c.MobileStatus)
			if !ch.Any() || !leaving(c.OriginalID) {
				continue
			}
			email, mobile, err := r.RecipientOf(ctx, c.Properties)
			if err != nil {
				return err
			}
			outs = append(outs, OptOut{OriginalID: c.OriginalID, Email: email, Mobile: mobile, Channels: ch})
		}
		return nil
	})
	if err != nil {
		return nil, fmt.Errorf("listing the opt-outs of list %s: %w", listID, err)
	}
	return outs, nil
}
