package contactsync

import (
	"context"

	"github.com/rms-labs/terraform-provider-rms/internal/client"
)

// ListOptions say what a listing keeps of each contact.
type ListOptions struct {
	// Against is the file's book the listing is compared with: contacts
	// it names keep their properties only where they differ from its
	// values (ServiceList).
	Against *Book
	// Props keeps the contacts' properties (a map input): of every
	// contact, or, with For, only of the contacts For names. Without it,
	// and without Against, only statuses are kept.
	Props bool
	// For, with Props, names the contacts whose properties are kept: a map
	// of a few contacts on a list of a million needs only the others'
	// statuses (exclusive, the counts, the consent record).
	For *Book
	// PropsUpTo, with Props and without For, keeps every contact's
	// properties only while the list holds at most this many, and none
	// once it holds more: an adoption fills a map only up to a size.
	PropsUpTo int
}

// List reads every contact of a list with one listing at the largest page
// size the service allows, pages read ahead (client.ContactService.Stream),
// properties keyed by attribute name whatever form the service answers in,
// held as opts says.
func (r *Run) List(ctx context.Context, listID string, opts ListOptions) (*ServiceList, error) {
	out := serviceListFor(opts)
	// Against a book, most contacts' properties are compared and dropped:
	// they come as pairs, and only those kept become maps (AddPairs).
	byPairs := opts.Against != nil
	err := r.client.Contacts.Stream(ctx, listID, client.ListingOptions{Pairs: byPairs}, func(chunk []client.ListedContact) error {
		for _, c := range chunk {
			s := ServiceContact{Email: c.Status, Mobile: c.MobileStatus}
			if byPairs {
				pairs, err := r.Attributes.PairsByName(ctx, c.Pairs)
				if err != nil {
					return err
				}
				out.AddPairs(c.OriginalID, s, pairs)
				continue
			}
			// Without a book, keepsProps says whose properties are kept.
			if out.keepsProps(c.OriginalID) {
				props, err := r.Attributes.ByName(ctx, c.Properties)
				if err != nil {
					return err
				}
				s.Props = props
			}
			out.Add(c.OriginalID, s)
		}
		return nil
	})
	return out, err
}

// ListStatuses reads a list's contacts with one listing, statuses only (no
// attribute names are resolved): what the guardrail needs where no refresh
// listing is at hand.
func ListStatuses(ctx context.Context, c *client.Client, listID string) (*ServiceList, error) {
	out := NewServiceList(nil, false)
	err := c.Contacts.Stream(ctx, listID, client.ListingOptions{}, func(chunk []client.ListedContact) error {
		for _, ct := range chunk {
			out.Add(ct.OriginalID, ServiceContact{Email: ct.Status, Mobile: ct.MobileStatus})
		}
		return nil
	})
	return out, err
}

// serviceListFor is the empty listing opts ask for.
func serviceListFor(opts ListOptions) *ServiceList {
	out := NewServiceList(opts.Against, opts.Props)
	if out.withProps {
		out.propsFor, out.propsUpTo = opts.For, opts.PropsUpTo
	}
	return out
}
