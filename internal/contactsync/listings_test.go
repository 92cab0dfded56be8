package contactsync

import (
	"context"
	"errors"
	"fmt"
	"net/http"
	"net/http/httptest"
	"sync"
	"sync/atomic"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/rms-labs/terraform-provider-rms/internal/client"
	"github.com/rms-labs/terraform-provider-rms/internal/emulator"
)

// listingEnv is an emulator with one list of n contacts and a
// Listings reading it.
type listingEnv struct {
	srv      *emulator.Server
	client   *client.Client
	listings *Listings
	listID   string
	// gets counts GET requests as they arrive, before they are answered
	// (the emulator's own counters are updated after it answers, so a test
	// could read them before the last request is counted).
	gets atomic.Int64
}

// newListingEnv serves the emulator through wrap (nil: as it is).
func newListingEnv(t *testing.T, n int, wrap func(http.Handler) http.Handler) *listingEnv {
	t.Helper()
	return newListingEnvWith(t, emulator.Options{}, n, wrap)
}

// newListingEnvWith is newListingEnv with an emulator of these options.
func newListingEnvWith(t *testing.T, opts emulator.Options, n int, wrap func(http.Handler) http.Handler) *listingEnv {
	t.Helper()
	srv := emulator.New(opts)
	e := &listingEnv{srv: srv}
	var h http.Handler = srv
	if wrap != nil {
		h = wrap(srv)
	}
	inner := h
	h = http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.Method == http.MethodGet {
			e.gets.Add(1)
		}
		inner.ServeHTTP(w, r)
	})
	hs := httptest.NewServer(h)
	t.Cleanup(hs.Close)
	o := srv.Options()
	c, err := client.New(client.Config{BaseURL: hs.URL, CustomerID: o.CustomerID, Auth: client.BasicAuth{Username: o.Username, Password: o.Password}})
	if err != nil {
		t.Fatal(err)
	}
	l, err := c.Lists.Create(context.Background(), client.ListInput{Name: "listing"})
	if err != nil {
		t.Fatal(err)
	}
	e.client, e.listings, e.listID = c, NewListings(c, false, discard{}), l.ID.String()
	e.add(t, 0, n)
	e.gets.Store(0)
	return e
}

// add puts contacts c-from ... c-(to-1) into the list, as an import would.
func (e *listingEnv) add(t *testing.T, from, to int) {
	t.Helper()
	contacts := make([]emulator.Contact, 0, to-from)
	for i := from; i < to; i++ {
		contacts = append(contacts, emulator.Contact{OriginalID: fmt.Sprintf("c-%d", i), Properties: map[string]string{"firstname": fmt.Sprint("F", i)}})
	}
	if err := e.srv.UpsertContacts(mustID(t, e.listID), contacts); err != nil {
		t.Fatal(err)
	}
}

// getsSince is the number of GETs sent since the env was made.
func (e *listingEnv) getsSince() int64 { return e.gets.Load() }

// readAll reads contacts c-0 ... c-(n-1) in order and checks each against
// the service.
func (e *listingEnv) readAll(t *testing.T, n int) { e.readRange(t, 0, n) }

// readRange reads contacts c-from ... c-(to-1) in order.
func (e *listingEnv) readRange(t *testing.T, from, to int) {
	t.Helper()
	for i := from; i < to; i++ {
		id := fmt.Sprintf("c-%d", i)
		c, err := e.listings.Read(context.Background(), e.listID, id)
		if err != nil {
			t.Fatalf("read %s: %v", id, err)
		}
		if c.OriginalID != id || c.Properties["firstname"] != fmt.Sprint("F", i) || c.Status != client.StatusSubscribed || c.DateCreated.IsZero() {
			t.Fatalf("read %s: got %+v", id, c)
		}
	}
}

func mustID(t *testing.T, s string) int64 {
	t.Helper()
	var n int64
	if _, err := fmt.Sscan(s, &n); err != nil {
		t.Fatalf("not an id: %q", s)
	}
	return n
}

// Reading every contact of a list costs one GET (the first read) and the
// pages of the list, whatever the number of contacts.
func TestContactListings_requests(t *testing.T) {
	withoutTotal := func(h http.Handler) http.Handler {
		return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
			h.ServeHTTP(dropHeader{ResponseWriter: w, name: "X-Total-Count"}, r)
		})
	}
	tests := map[string]struct {
		contacts, reads int
		from            int // first contact read
		maxPages        int
		wrap            func(http.Handler) http.Handler
		off             bool
		want            int64
	}{
		"one read is one GET":                     {contacts: 300, reads: 1, want: 1},
		"a list of one page":                      {contacts: 250, reads: 250, want: 2},
		"a list of three pages":                   {contacts: 2500, reads: 2500, want: 4},
		"a list of three pages, size not given":   {contacts: 2500, reads: 2500, wrap: withoutTotal, want: 4},
		"few reads at the start of a larger list": {contacts: 2500, reads: 3, want: 2}, // a GET and the first page
		// The first page does not hold them, and two more page requests
		// would outnumber the reads: each is read by a GET of its own.
		"few reads at the end of a larger list": {contacts: 2500, from: 2000, reads: 3, want: 1 + 3},
		"larger than maxPages":                  {contacts: 2500, reads: 1200, maxPages: 2, want: 1 + 1 + 200},
		"switched off":                          {contacts: 250, reads: 250, off: true, want: 250},
	}
	for name, tc := range tests {
		t.Run(name, func(t *testing.T) {
			e := newListingEnv(t, tc.contacts, tc.wrap)
			e.listings.off = tc.off
			if tc.maxPages > 0 {
				e.listings.maxPages = tc.maxPages
			}
			e.readRange(t, tc.from, tc.from+tc.reads)
			if got := e.getsSince(); got != tc.want {
				t.Errorf("%d reads made %d GETs, want %d", tc.reads, got, tc.want)
			}
		})
	}
}

// Terraform refreshes ten resources at once: concurrent reads of one list
// share one listing too.
func TestContactListings_concurrentReads(t *testing.T) {
	e := newListingEnv(t, 500, nil)
	var wg sync.WaitGroup
	errs := make(chan error, 500)
	sem := make(chan struct{}, 10)
	for i := 0; i < 500; i++ {
		wg.Add(1)
		sem <- struct{}{}
		go func(id string) {
			defer wg.Done()
			defer func() { <-sem }()
			c, err := e.listings.Read(context.Background(), e.listID, id)
			if err == nil && c.OriginalID != id {
				err = fmt.Errorf("read %s, got %s", id, c.OriginalID)
			}
			if err != nil {
				errs <- err
			}
		}(fmt.Sprintf("c-%d", i))
	}
	wg.Wait()
	close(errs)
	for err := range errs {
		t.Error(err)
	}
	if got := e.getsSince(); got != 2 {
		t.Errorf("500 concurrent reads made %d GETs, want 2", got)
	}
}

// What the listing cannot answer, or must not, is read from the service.
func TestContactListings_fallbacks(t *testing.T) {
	ctx := context.Background()
	e := newListingEnv(t, 50, nil)
	e.readAll(t, 50) // the listing is loaded
	change := func(id, firstname string) {
		t.Helper()
		if _, err := e.client.Contacts.UpdateProperties(ctx, e.listID, id, map[string]*string{"firstname": &firstname}); err != nil {
			t.Fatal(err)
		}
	}
	read := func(id string) (*client.Contact, error) { return e.listings.Read(ctx, e.listID, id) }

	// Within the run the listing answers as of when it was loaded.
	change("c-1", "Changed")
	if c, err := read("c-1"); err != nil || c.Properties["firstname"] != "F1" {
		t.Errorf("c-1 from the listing: %+v, %v", c, err)
	}
	// A contact this run wrote is read from the service.
	e.listings.Wrote(e.listID, "c-1")
	if c, err := read("c-1"); err != nil || c.Properties["firstname"] != "Changed" {
		t.Errorf("c-1 after this run wrote it: %+v, %v", c, err)
	}
	// A contact added after the listing was loaded is read by its own GET.
	e.add(t, 50, 51)
	if c, err := read("c-50"); err != nil || c.OriginalID != "c-50" {
		t.Errorf("c-50 added later: %+v, %v", c, err)
	}
	// One that is not in the list at all is a 404, as before.
	if _, err := read("nobody"); !errors.Is(err, client.ErrNotFound) {
		t.Errorf("missing contact: %v", err)
	}
	// Once this run changed the list as a whole, nothing comes from the
	// listing.
	change("c-2", "Changed")
	e.listings.ChangedList(e.listID)
	if c, err := read("c-2"); err != nil || c.Properties["firstname"] != "Changed" {
		t.Errorf("c-2 after the list changed: %+v, %v", c, err)
	}

	// A new run (a new provider configuration) sees every change.
	e.listings = NewListings(e.client, false, discard{})
	change("c-3", "Drifted")
	if _, err := read("c-0"); err != nil { // by GET; the next read loads the listing
		t.Fatal(err)
	}
	if c, err := read("c-3"); err != nil || c.Properties["firstname"] != "Drifted" {
		t.Errorf("c-3 in the next run: %+v, %v", c, err)
	}
}

// A listing that cannot be loaded is given up for the run; reads go on one
// by one and report what the service says.
func TestContactListings_failedListing(t *testing.T) {
	ctx := context.Background()
	e := newListingEnv(t, 20, nil)
	if err := e.client.Lists.Delete(ctx, e.listID); err != nil {
		t.Fatal(err)
	}
	for i := 0; i < 5; i++ {
		if _, err := e.listings.Read(ctx, e.listID, fmt.Sprintf("c-%d", i)); !errors.Is(err, client.ErrNotFound) {
			t.Fatalf("read %d of a deleted list: %v", i, err)
		}
	}
	// The first read's GET, one failed page, then one GET per read.
	if got := e.getsSince(); got != 1+1+4 {
		t.Errorf("%d GETs, want 6", got)
	}
	var listed []string
	for id := range e.listings.lists {
		listed = append(listed, id)
	}
	if diff := cmp.Diff([]string{e.listID}, listed); diff != "" || !e.listings.lists[e.listID].failed {
		t.Errorf("listing state: %v %s", listed, diff)
	}
}

// A service that pages otherwise is listed by the client's paging rules:
// every read answers right, a listing that was the whole list becomes
// complete (a missing contact then needs no GET), and one whose rest cannot
// be reached is given up for single GETs.
func TestContactListings_servicePaging(t *testing.T) {
	tests := map[string]struct {
		wire         string
		contacts     int
		wantComplete bool
		wantFailed   bool
	}{
		"page and pageSize ignored":                 {wire: emulator.WirePagingIgnored, contacts: 2500, wantComplete: true},
		"page and pageSize ignored, exactly a page": {wire: emulator.WirePagingIgnored, contacts: listingPageSize, wantComplete: true},
		"page ignored, pageSize honoured":           {wire: emulator.WirePagingPageIgnored, contacts: 2500, wantFailed: true},
	}
	for name, tc := range tests {
		t.Run(name, func(t *testing.T) {
			e := newListingEnvWith(t, emulator.Options{Wire: emulator.MustParseWire(tc.wire)}, tc.contacts, nil)
			e.readAll(t, tc.contacts)
			// The first missing contact asks the service on (a page, or a
			// GET); after it the listing knows whether it is the whole list.
			exists, err := e.listings.Exists(context.Background(), e.listID, "nobody")
			if err != nil || exists {
				t.Fatalf("Exists(nobody) = %v, %v", exists, err)
			}
			cl := e.listings.lists[e.listID]
			if cl.complete != tc.wantComplete || cl.failed != tc.wantFailed {
				t.Fatalf("listing complete %v, failed %v; want %v, %v", cl.complete, cl.failed, tc.wantComplete, tc.wantFailed)
			}
			before := e.getsSince()
			if exists, err := e.listings.Exists(context.Background(), e.listID, "nobody-else"); err != nil || exists {
				t.Fatalf("Exists(nobody-else) = %v, %v", exists, err)
			}
			wantGets := int64(1)
			if tc.wantComplete {
				wantGets = 0
			}
			if got := e.getsSince() - before; got != wantGets {
				t.Errorf("Exists of a missing contact made %d GETs, want %d", got, wantGets)
			}
		})
	}
}

// dropHeader removes one response header, as a service that does not send
// it would answer.
type dropHeader struct {
	http.ResponseWriter
	name string
}

func (d dropHeader) WriteHeader(code int) {
	d.Header().Del(d.name)
	d.ResponseWriter.WriteHeader(code)
}

func (d dropHeader) Write(b []byte) (int, error) {
	d.Header().Del(d.name)
	return d.ResponseWriter.Write(b)
}
