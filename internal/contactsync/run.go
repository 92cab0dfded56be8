package contactsync

import (
	"context"
	"sync"

	"github.com/rms-labs/terraform-provider-rms/internal/client"
)

// Run is what the contact resources of one provider run (one terraform
// command: Terraform configures a new provider for each) share. Nothing of
// it outlives the run, so a contact changed elsewhere between two runs is
// always seen by the next one.
type Run struct {
	client *client.Client
	log    client.Logger

	// Attributes caches the account's contact attributes.
	Attributes *Attributes
	// Listings shares listings of lists' contacts among rms_contact
	// refreshes (listings.go).
	Listings *Listings
	// Snapshots hands rms_list_contacts' refresh listings to its plans.
	Snapshots *Snapshots
	// Released remembers the contacts rms_contact destroys let go of.
	Released *Released
	// Provenance carries rms_list_contacts' consent records across the
	// halves of a replacement (takeover.go).
	Provenance *Provenance
	// Managers are the contact resources planned on each list
	// (managers.go).
	Managers *Managers
	// Retired carries the consent records of destroyed rms_list_contacts
	// to the delete of their list (retired.go).
	Retired *Retired

	files  sourceFiles
	gcOnce sync.Once // heldLargeBook

	suppressions handoff[string, *Suppression] // by list id (suppression.go)
}

// RunOptions are the provider's settings a Run needs.
type RunOptions struct {
	// ListingOff makes every rms_contact refresh read its contact with a
	// request of its own (RMS_CONTACT_LISTING=false).
	ListingOff bool
	// Logger receives what the run decides along the way (a listing that
	// failed, a contact that appeared since its listing); nil discards it.
	Logger client.Logger
}

// NewRun is the shared state of one provider run, talking to the service
// through c.
func NewRun(c *client.Client, opts RunOptions) *Run {
	log := opts.Logger
	if log == nil {
		log = discard{}
	}
	return &Run{
		client: c, log: log,
		Attributes: NewAttributes(c), Listings: NewListings(c, opts.ListingOff, log),
		Snapshots: &Snapshots{}, Released: NewReleased(), Provenance: NewProvenance(), Managers: NewManagers(), Retired: NewRetired(),
	}
}

// discard is the Logger of a run given none.
type discard struct{}

func (discard) Debug(context.Context, string, map[string]any) {}
func (discard) Info(context.Context, string, map[string]any)  {}
func (discard) Warn(context.Context, string, map[string]any)  {}
