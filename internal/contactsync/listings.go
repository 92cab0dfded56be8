package contactsync

import (
	"context"
	"errors"
	"sync"

	"github.com/rms-labs/terraform-provider-rms/internal/client"
)

// Listings lets the Reads of one provider run (one terraform
// command: Terraform configures a new provider for each) share one listing
// per list. Refreshing N rms_contact resources costs N GETs of one contact
// each; when many of them belong to one list, a listing of the list's
// contacts, paged at the largest page size, answers them all with N/1000
// requests.
//
//   - It is used only by Read. Nothing survives the run, so a contact
//     changed elsewhere between two runs is always seen by the next one.
//   - A contact this run wrote (created, updated, unsubscribed) is never
//     answered from the listing, nor is any contact of a list this run
//     changed as a whole (deleted it, say): those Reads GET the contact.
//   - A contact missing from the listing (created after it was read, or
//     gone) is read with its own GET, which also tells a 404 apart.
//   - It spends pages only as reads of that list ask for them: the first
//     read of a list GETs its contact, later reads load pages while the
//     pages loaded stay fewer than the reads made; lists larger than
//     maxPages pages are never loaded beyond the first page. So a list with
//     a few managed contacts among many costs about what it did, and the
//     worst case is about two requests per read.
//   - A failed page load stops using the listing for that list in this run;
//     its reads fall back to single GETs, which report errors as before.
type Listings struct {
	client   *client.Client
	log      client.Logger
	off      bool // every read is a single GET (RMS_CONTACT_LISTING=false)
	pageSize int
	maxPages int

	mu        sync.Mutex
	lists     map[string]*listing
	written   map[string]bool // contactKey(list, originalId) of contacts this run wrote
	wholesale map[string]bool // lists this run changed as a whole
}

// Defaults of Listings: pages of the largest size the service
// allows, and listings of at most 10,000 contacts (a few MB) held at once
// per list.
const (
	listingPageSize = client.MaxPageSize
	listingMaxPages = 10
)

// NewListings returns the listings of one provider run; off makes every
// read a single GET (RMS_CONTACT_LISTING=false).
func NewListings(c *client.Client, off bool, log client.Logger) *Listings {
	return &Listings{
		client: c, log: log, off: off, pageSize: listingPageSize, maxPages: listingMaxPages,
		lists: map[string]*listing{}, written: map[string]bool{}, wholesale: map[string]bool{},
	}
}

// Off reports whether every read is a single GET (RMS_CONTACT_LISTING=false).
func (l *Listings) Off() bool { return l.off }

// listing is what this run knows of one list's contacts.
type listing struct {
	mu       sync.Mutex
	reads    int // reads of this list answered or attempted through the listing
	pages    int // pages loaded, from page 0
	total    int // contacts in the list per X-Total-Count; -1 unknown
	complete bool
	failed   bool
	cursor   *client.Cursor[client.Contact] // where the next page starts, and what paging the service does
	contacts map[string]client.Contact
}

// Read returns the contact as the service holds it: from this run's listing
// of its list when that holds it, else with a GET of its own, or, for an
// id a URL path cannot carry (client.PathSafeID), from a listing of its own
// (client.ContactService.Lookup): such a contact never fails a read.
func (l *Listings) Read(ctx context.Context, listID, originalID string) (*client.Contact, error) {
	if c, ok := l.lookup(ctx, listID, originalID); ok {
		return c, nil
	}
	return l.client.Contacts.Lookup(ctx, listID, originalID)
}

// Exists reports whether the list has the contact, as a create must know
// before it posts (the interface's own advice: a service may answer the
// create of an existing originalId as an upsert, which would merge into a
// contact this configuration never imported). A listing of the list that
// this run has loaded whole answers without a request, so that creating
// many contacts in one list costs one listing rather than a GET each; any
// other case GETs the contact (or, for an id a URL path cannot carry,
// looks for it in the listing). A list that does not exist has no contacts.
func (l *Listings) Exists(ctx context.Context, listID, originalID string) (bool, error) {
	if _, ok := l.lookup(ctx, listID, originalID); ok {
		return true, nil
	}
	if l.knownAbsent(listID, originalID) {
		return false, nil
	}
	_, err := l.client.Contacts.Lookup(ctx, listID, originalID)
	switch {
	case errors.Is(err, client.ErrNotFound):
		return false, nil
	case err != nil:
		return false, err
	}
	return true, nil
}

// knownAbsent reports whether this run's complete listing of the list
// lacks the contact, and nothing this run did since could have added it.
func (l *Listings) knownAbsent(listID, originalID string) bool {
	if l.off {
		return false
	}
	l.mu.Lock()
	cl := l.lists[listID]
	fresh := !l.wholesale[listID] && !l.written[contactKey(listID, originalID)]
	l.mu.Unlock()
	if cl == nil || !fresh {
		return false
	}
	cl.mu.Lock()
	defer cl.mu.Unlock()
	_, listed := cl.contacts[originalID]
	return cl.complete && !cl.failed && !listed
}

// Wrote records that this run wrote the contact (or tried to: a failed
// write may have acted), so the listing no longer answers for it.
func (l *Listings) Wrote(listID, originalID string) {
	l.mu.Lock()
	defer l.mu.Unlock()
	l.written[contactKey(listID, originalID)] = true
}

// ChangedList records that this run changed a list as a whole (deleted it,
// imported into it), so the listing no longer answers for any of its
// contacts.
func (l *Listings) ChangedList(listID string) {
	l.mu.Lock()
	defer l.mu.Unlock()
	l.wholesale[listID] = true
	delete(l.lists, listID)
}

func (l *Listings) lookup(ctx context.Context, listID, originalID string) (*client.Contact, bool) {
	if l.off {
		return nil, false
	}
	l.mu.Lock()
	if l.wholesale[listID] || l.written[contactKey(listID, originalID)] {
		l.mu.Unlock()
		return nil, false
	}
	cl := l.lists[listID]
	if cl == nil {
		cl = &listing{total: -1}
		l.lists[listID] = cl
	}
	l.mu.Unlock()

	// Reads of the same list wait here while one of them loads pages, and
	// then mostly find their contact.
	cl.mu.Lock()
	defer cl.mu.Unlock()
	cl.reads++
	for {
		if c, ok := cl.contacts[originalID]; ok {
			return &c, true
		}
		if !cl.worthLoading(l.pageSize, l.maxPages) {
			return nil, false
		}
		if err := cl.load(ctx, l.client, listID, l.pageSize, l.maxPages); err != nil {
			cl.failed = true
			l.log.Debug(ctx, "listing the contacts of a list failed; reading them one by one", map[string]any{"list_id": listID, "error": err.Error()})
			return nil, false
		}
	}
}

// worthLoading reports whether to load more pages: never more page requests
// than the reads of this list so far, less the one that started it.
func (cl *listing) worthLoading(pageSize, maxPages int) bool {
	if cl.complete || cl.failed || cl.pages >= maxPages {
		return false
	}
	if cl.total < 0 {
		return cl.pages+1 <= cl.reads-1
	}
	all := (cl.total + pageSize - 1) / pageSize
	return all <= maxPages && all <= cl.reads-1
}

// load loads the next page or, once the list's size is known and loading
// all of it was judged worth it, every page left. The cursor tells a
// service that ignores paging apart: it ends the listing when the pages so
// far were the whole list, and fails it when the rest cannot be reached
// (the rest are then read one by one).
func (cl *listing) load(ctx context.Context, c *client.Client, listID string, pageSize, maxPages int) error {
	if cl.cursor == nil {
		cl.cursor = c.Contacts.Cursor(listID, pageSize)
	}
	rest := cl.total >= 0 // the decision covered every page left
	for {
		contacts, ok, err := cl.cursor.Next(ctx)
		if err != nil {
			return err
		}
		if !ok {
			cl.complete = true // every contact was handed on already
			return nil
		}
		cl.pages++
		if cl.contacts == nil {
			cl.contacts = make(map[string]client.Contact, len(contacts))
		}
		for _, ct := range contacts {
			cl.contacts[ct.OriginalID] = ct
		}
		if t := cl.cursor.Total(); t >= 0 {
			cl.total = t
		}
		if cl.cursor.Done() || (cl.total >= 0 && cl.pages*pageSize >= cl.total) {
			cl.complete = true
			return nil
		}
		if !rest || cl.pages >= maxPages {
			return nil // one page per decision while the size was unknown
		}
	}
}
