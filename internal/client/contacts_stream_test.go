package client

import (
	"context"
	"errors"
	"fmt"
	"net/http"
	"slices"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"

	"github.com/rms-labs/terraform-provider-rms/internal/emulator"
)

// listServer serves the contacts of one list (id 7) with a paging
// behaviour, and records the page/pageSize of every request.
type listServer struct {
	n       int
	mode    pagingMode // honoursPaging, ignoresPaging, ignoresPage, ownPageSize
	size    int        // ownPageSize: the service's page size (smaller or larger than asked)
	noTotal bool       // no X-Total-Count

	// throttle answers the first request for this page 429 with Retry-After: 0.
	throttle int
	// hold keeps the answers of pages from this one on until the request
	// is cancelled, counting the cancellations.
	hold      int
	cancelled atomic.Int64
	// grow makes page 1 of ignoresPaging one contact longer than page 0:
	// the list changed between the two answers.
	grow bool
	// latency delays every answer.
	latency time.Duration
	// failEvery answers every failEvery-th request 502, to be retried.
	failEvery int

	mu        sync.Mutex
	asked     []string
	throttled bool
	inFlight  int
	maxFlight int
}

// peak is the most requests the server had in flight at once, and whether
// it answered its 429; read under the lock, since pages fetched ahead may
// still be answered after a listing ended.
func (s *listServer) peak() (maxFlight int, throttled bool) {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.maxFlight, s.throttled
}

func (s *listServer) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	if r.URL.Path != "/rest/1000/lists/7/contacts" {
		writeError(w, http.StatusNotFound, "NOT_FOUND", "no such list", "")
		return
	}
	q := r.URL.Query()
	page, _ := strconv.Atoi(q.Get("page"))
	size, _ := strconv.Atoi(q.Get("pageSize"))
	s.mu.Lock()
	s.asked = append(s.asked, q.Get("page")+"/"+q.Get("pageSize"))
	s.inFlight++
	s.maxFlight = max(s.maxFlight, s.inFlight)
	throttle := page == s.throttle && s.throttle > 0 && !s.throttled
	if throttle {
		s.throttled = true
	}
	fail := s.failEvery > 0 && len(s.asked)%s.failEvery == 0
	s.mu.Unlock()
	defer func() {
		s.mu.Lock()
		s.inFlight--
		s.mu.Unlock()
	}()
	time.Sleep(s.latency)
	if fail {
		writeError(w, http.StatusBadGateway, "BAD_GATEWAY", "try again", "")
		return
	}
	if throttle {
		w.Header().Set("Retry-After", "0")
		writeError(w, http.StatusTooManyRequests, "TOO_MANY_REQUESTS", "slow down", "")
		return
	}
	if s.hold > 0 && page >= s.hold {
		<-r.Context().Done()
		s.cancelled.Add(1)
		return
	}
	n := s.n
	from, to := page*size, (page+1)*size
	switch s.mode {
	case ignoresPaging:
		from, to = 0, s.n
		if s.grow && page > 0 {
			n++
			to++
		}
	case ignoresPage:
		from, to = 0, size
	case ownPageSize:
		from, to = page*s.size, (page+1)*s.size
	}
	if !s.noTotal {
		w.Header().Set("X-Total-Count", strconv.Itoa(n))
	}
	var b strings.Builder
	b.WriteString("[")
	for i := from; i < min(n, to); i++ {
		if i > from {
			b.WriteString(",")
		}
		fmt.Fprintf(&b, `{"id":%d,"originalId":"c-%d","properties":{"email":"c%d@example.com","score":%d,"vip":true,"gone":null},`+
			`"status":"SUBSCRIBED","mobileStatus":"UNSUBSCRIBED","dateCreated":"2026-11-22T10:00:00Z","_links":{"self":[{"href":"/x"}]}}`, i+1, i, i, i)
	}
	b.WriteString("]")
	writeJSON(w, http.StatusOK, b.String())
}

func (s *listServer) requests() []string {
	s.mu.Lock()
	defer s.mu.Unlock()
	return slices.Clone(s.asked)
}

// collected is what fn was handed, checked as it comes.
type collected struct {
	ids      []string
	maxChunk int
}

func (c *collected) fn(chunk []ListedContact) error {
	c.maxChunk = max(c.maxChunk, len(chunk))
	for _, lc := range chunk {
		c.ids = append(c.ids, lc.OriginalID)
	}
	return nil
}

// inOrder checks that ids are c-0 ... c-(n-1), each once, in order.
func inOrder(t *testing.T, ids []string, n int) {
	t.Helper()
	if len(ids) != n {
		t.Fatalf("got %d contacts, want %d", len(ids), n)
	}
	for i, id := range ids {
		if want := fmt.Sprintf("c-%d", i); id != want {
			t.Fatalf("contact %d is %s, want %s", i, id, want)
		}
	}
}

// pagesAsked is pages 0 to to, asked 1000 a page.
func pagesAsked(to int) []string {
	var out []string
	for p := 0; p <= to; p++ {
		out = append(out, fmt.Sprintf("%d/1000", p))
	}
	return out
}

func TestStreamContactsPaging(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name      string
		srv       *listServer
		opts      ListingOptions
		wantAsked []string // in order (sorted when fetched ahead); nil: not checked
		maxAsked  int      // the highest page asked for, when wantAsked is nil
		wantN     int
		wantChunk int // the largest chunk fn may get
		wantErr   error
		window    int // requests in flight at most; 0: max(opts.Concurrency, DefaultListingConcurrency)
		minFlight int // requests in flight at once, at least
	}{
		{
			name: "pages fetched ahead, handed on in order", srv: &listServer{n: 5500},
			opts:      ListingOptions{PageSize: 1000, Concurrency: 4},
			wantAsked: pagesAsked(5), wantN: 5500, wantChunk: 1000,
		},
		{
			// 5,000 at 1,000 a page: X-Total-Count says page 4 is the last.
			name: "an exact multiple of the page size costs no extra page", srv: &listServer{n: 5000},
			opts:      ListingOptions{PageSize: 1000, Concurrency: 4},
			wantAsked: pagesAsked(4), wantN: 5000, wantChunk: 1000,
		},
		{
			name: "a total smaller than a page", srv: &listServer{n: 3},
			opts:      ListingOptions{PageSize: 1000},
			wantAsked: pagesAsked(0), wantN: 3, wantChunk: 3,
		},
		{
			name: "an empty list", srv: &listServer{n: 0},
			wantAsked: pagesAsked(0), wantN: 0,
		},
		{
			// Page 5 is the empty one that ends the list; 6 to 8 may have
			// been asked for ahead of it.
			name: "no total: the first short page ends it", srv: &listServer{n: 5000, noTotal: true},
			opts:     ListingOptions{PageSize: 1000, Concurrency: 4},
			maxAsked: 8, wantN: 5000, wantChunk: 1000,
		},
		{
			// Slow pages, so that the window fills.
			name: "the window chosen with a total", srv: &listServer{n: 20_000, latency: 20 * time.Millisecond},
			opts:      ListingOptions{PageSize: 1000},
			wantAsked: pagesAsked(19), wantN: 20_000, wantChunk: 1000,
			window: DefaultListingWindow, minFlight: DefaultListingConcurrency + 1,
		},
		{
			// Without a total the chosen window stays at 4: pages 6 to 8 at
			// most are asked for past the end, as with Concurrency 4.
			name: "the window chosen without a total", srv: &listServer{n: 5000, noTotal: true, latency: 5 * time.Millisecond},
			opts:     ListingOptions{PageSize: 1000},
			maxAsked: 8, wantN: 5000, wantChunk: 1000,
		},
		{
			name: "page ignored, the window chosen", srv: &listServer{n: 20_000, mode: ignoresPage},
			opts:    ListingOptions{PageSize: 1000},
			wantErr: ErrPagingIgnored, maxAsked: 19, wantChunk: 1000, window: DefaultListingWindow,
		},
		{
			name: "the default page size", srv: &listServer{n: 2500},
			wantAsked: pagesAsked(2), wantN: 2500, wantChunk: MaxPageSize,
		},
		{
			name: "the service pages by 500 when asked 1000", srv: &listServer{n: 5000, mode: ownPageSize, size: 500},
			opts:      ListingOptions{PageSize: 1000, Concurrency: 3},
			wantAsked: pagesAsked(9), wantN: 5000, wantChunk: 500,
		},
		{
			// Longer pages than asked, streamed: page 1 is new, page 2 short.
			name: "the service pages by 2000 when asked 1000", srv: &listServer{n: 5000, mode: ownPageSize, size: 2000, noTotal: true},
			opts:      ListingOptions{PageSize: 1000},
			wantAsked: pagesAsked(2), wantN: 5000, wantChunk: 1000,
		},
		{
			name: "paging ignored: the whole list at once, in chunks", srv: &listServer{n: 5500, mode: ignoresPaging, noTotal: true},
			opts:      ListingOptions{PageSize: 1000},
			wantAsked: pagesAsked(1), wantN: 5500, wantChunk: 1000,
		},
		{
			name: "paging ignored with a total: no second page", srv: &listServer{n: 5500, mode: ignoresPaging},
			opts:      ListingOptions{PageSize: 1000},
			wantAsked: pagesAsked(0), wantN: 5500, wantChunk: 1000,
		},
		{
			// Page 1 repeats page 0; another size tells that it was all.
			name: "paging ignored, exactly a page", srv: &listServer{n: 100, mode: ignoresPaging, noTotal: true},
			opts:  ListingOptions{PageSize: 100, Concurrency: 1},
			wantN: 100, wantChunk: 100, wantAsked: []string{"0/100", "1/100", "0/99"},
		},
		{
			name: "page ignored: the rest cannot be read", srv: &listServer{n: 5000, mode: ignoresPage},
			opts:    ListingOptions{PageSize: 1000, Concurrency: 4},
			wantErr: ErrPagingIgnored, maxAsked: 4, wantChunk: 1000,
		},
		{
			name: "page ignored, without a total", srv: &listServer{n: 5000, mode: ignoresPage, noTotal: true},
			opts:    ListingOptions{PageSize: 1000, Concurrency: 2},
			wantErr: ErrPagingIgnored, maxAsked: 2, wantChunk: 1000,
		},
		{
			name: "the list changed between two whole answers", srv: &listServer{n: 2500, mode: ignoresPaging, noTotal: true, grow: true},
			opts:    ListingOptions{PageSize: 1000},
			wantErr: errInconsistentPaging, wantAsked: pagesAsked(1), wantChunk: 1000,
		},
		{
			name: "a 429 mid-listing is waited out", srv: &listServer{n: 5000, throttle: 3},
			opts:  ListingOptions{PageSize: 1000, Concurrency: 4},
			wantN: 5000, wantChunk: 1000, maxAsked: 4,
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			c, _ := newTestClient(t, tt.srv)
			var got collected
			err := c.Contacts.Stream(context.Background(), "7", tt.opts, got.fn)
			asked := tt.srv.requests()
			if tt.wantErr != nil {
				if !errors.Is(err, tt.wantErr) {
					t.Fatalf("err = %v, want %v", err, tt.wantErr)
				}
				if !strings.HasPrefix(err.Error(), "reading the contacts of list 7: ") {
					t.Errorf("err = %q, want it to name the list", err)
				}
				if len(got.ids) != len(slices.Compact(slices.Clone(got.ids))) {
					t.Errorf("contacts handed on twice: %d", len(got.ids))
				}
			} else {
				if err != nil {
					t.Fatal(err)
				}
				inOrder(t, got.ids, tt.wantN)
			}
			if got.maxChunk > max(tt.wantChunk, 0) || (tt.wantChunk > 0 && got.maxChunk != tt.wantChunk) {
				t.Errorf("largest chunk = %d, want %d", got.maxChunk, tt.wantChunk)
			}
			if tt.wantAsked != nil {
				// Pages fetched ahead reach the server in any order.
				byPage := func(a, b string) int { return pageOf(a) - pageOf(b) }
				sorted, want := slices.Clone(asked), slices.Clone(tt.wantAsked)
				slices.SortStableFunc(sorted, byPage)
				slices.SortStableFunc(want, byPage)
				if !slices.Equal(sorted, want) {
					t.Errorf("asked %v, want %v", asked, tt.wantAsked)
				}
			}
			if tt.maxAsked > 0 {
				for _, a := range asked {
					if pageOf(a) > tt.maxAsked {
						t.Errorf("asked %v: past page %d", asked, tt.maxAsked)
					}
				}
			}
			maxFlight, throttled := tt.srv.peak()
			if tt.srv.throttle > 0 && !throttled {
				t.Error("the 429 was never answered")
			}
			window := tt.window
			if window == 0 {
				window = max(tt.opts.Concurrency, DefaultListingConcurrency)
			}
			if maxFlight > window {
				t.Errorf("%d requests in flight at once, over the window of %d", maxFlight, window)
			}
			if maxFlight < tt.minFlight {
				t.Errorf("%d requests in flight at most, want at least %d", maxFlight, tt.minFlight)
			}
		})
	}
}

func pageOf(asked string) int {
	p, _ := strconv.Atoi(strings.SplitN(asked, "/", 2)[0])
	return p
}

// Concurrency is how many pages are in flight at most, and more than one
// is.
func TestStreamContactsConcurrency(t *testing.T) {
	t.Parallel()
	for _, conc := range []int{1, 2, 4} {
		t.Run(strconv.Itoa(conc), func(t *testing.T) {
			// The delay is inside the server's count of requests in flight:
			// slept before it, two pages fetched together could each be
			// answered before the other began (seen once the decoder got
			// faster).
			srv := &listServer{n: 20_000, latency: 5 * time.Millisecond}
			c, _ := newTestClient(t, srv)
			var got collected
			if err := c.Contacts.Stream(context.Background(), "7", ListingOptions{PageSize: 500, Concurrency: conc}, got.fn); err != nil {
				t.Fatal(err)
			}
			inOrder(t, got.ids, 20_000)
			maxFlight, _ := srv.peak()
			if maxFlight > conc {
				t.Errorf("%d requests in flight, want at most %d", maxFlight, conc)
			}
			if conc > 1 && maxFlight < 2 {
				t.Errorf("%d request in flight at most: pages were not fetched ahead", maxFlight)
			}
		})
	}
}

// fn's error stops the listing, comes back as it is, and cancels the
// pages in flight.
func TestStreamContactsStopsOnFnError(t *testing.T) {
	stop := errors.New("enough")
	srv := &listServer{n: 10_000, hold: 1}
	c, _ := newTestClient(t, srv)
	calls := 0
	err := c.Contacts.Stream(context.Background(), "7", ListingOptions{PageSize: 1000, Concurrency: 4}, func([]ListedContact) error {
		calls++
		// The pages fetched ahead are asked for before page 0 is handed
		// on: wait for them to reach the server.
		for deadline := time.Now().Add(5 * time.Second); len(srv.requests()) < 5 && time.Now().Before(deadline); {
			time.Sleep(time.Millisecond)
		}
		return stop
	})
	if err != stop { //nolint:errorlint // returned as it is, not wrapped
		t.Fatalf("err = %v, want fn's own error", err)
	}
	if calls != 1 {
		t.Errorf("fn called %d times, want once", calls)
	}
	// Pages 1 to 4 were in flight: the server sees each cancelled (else
	// Contacts.Stream, which waits for them to end, would not have returned).
	for deadline := time.Now().Add(5 * time.Second); srv.cancelled.Load() < 4 && time.Now().Before(deadline); {
		time.Sleep(time.Millisecond)
	}
	if got := srv.cancelled.Load(); got != 4 {
		t.Errorf("%d requests cancelled (%v), want 4", got, srv.requests())
	}
}

// A streamed page 0 stops at fn's error too.
func TestStreamContactsStopsWhileStreaming(t *testing.T) {
	stop := errors.New("enough")
	srv := &listServer{n: 5000, mode: ignoresPaging, noTotal: true}
	c, _ := newTestClient(t, srv)
	calls := 0
	err := c.Contacts.Stream(context.Background(), "7", ListingOptions{PageSize: 100}, func([]ListedContact) error {
		calls++
		if calls == 3 {
			return stop
		}
		return nil
	})
	if err != stop { //nolint:errorlint // returned as it is, not wrapped
		t.Fatalf("err = %v, want fn's own error", err)
	}
	if calls != 3 || len(srv.requests()) != 1 {
		t.Errorf("fn called %d times after %v, want 3 after one request", calls, srv.requests())
	}
}

func TestStreamContactsErrors(t *testing.T) {
	tests := []struct {
		name    string
		h       http.HandlerFunc
		wantErr error
		want    string
	}{
		{
			name: "a missing list", wantErr: ErrNotFound, want: "reading the contacts of list 7: page 0: GET /rest/1000/lists/7/contacts: ",
			h: func(w http.ResponseWriter, _ *http.Request) { writeError(w, 404, "NOT_FOUND", "no list 7", "") },
		},
		{
			name: "a missing list on page 2", wantErr: ErrNotFound, want: "page 2: ",
			h: func(w http.ResponseWriter, r *http.Request) {
				if r.URL.Query().Get("page") == "2" {
					writeError(w, 404, "NOT_FOUND", "no list 7", "")
					return
				}
				(&listServer{n: 5000}).ServeHTTP(w, r)
			},
		},
		{
			name: "an HTML page", want: "expected a JSON answer but the server sent text/html",
			h: func(w http.ResponseWriter, _ *http.Request) {
				w.Header().Set("Content-Type", "text/html")
				_, _ = w.Write([]byte("<html>proxy</html>"))
			},
		},
		{
			name: "an empty body", want: "the server sent an empty body",
			h: func(w http.ResponseWriter, _ *http.Request) { writeJSON(w, 200, "") },
		},
		{
			name: "a cut answer", want: "the JSON answer was cut short",
			h: func(w http.ResponseWriter, _ *http.Request) {
				writeJSON(w, 200, `[{"originalId":"a"},{"originalId":"b"`)
			},
		},
		{
			name: "not an array", want: "not an array of contacts",
			h: func(w http.ResponseWriter, _ *http.Request) { writeJSON(w, 200, `{"originalId":"a"}`) },
		},
		{
			name: "a contact of the wrong type", want: "contact 1 of the answer: decoding a contact: json: cannot unmarshal number",
			h: func(w http.ResponseWriter, _ *http.Request) {
				writeJSON(w, 200, `[{"originalId":"a"},{"originalId":5}]`)
			},
		},
		{
			name: "invalid JSON", want: "decoding the JSON answer",
			h: func(w http.ResponseWriter, _ *http.Request) {
				writeJSON(w, 200, `[{"originalId":"a"} {"originalId":"b"}]`)
			},
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			c, _ := newTestClient(t, tt.h, noRetries)
			err := c.Contacts.Stream(context.Background(), "7", ListingOptions{PageSize: 1000}, func([]ListedContact) error { return nil })
			if err == nil || !strings.Contains(err.Error(), tt.want) || !strings.HasPrefix(err.Error(), "reading the contacts of list 7: ") {
				t.Fatalf("err = %v, want it to say %q", err, tt.want)
			}
			if tt.wantErr != nil && !errors.Is(err, tt.wantErr) {
				t.Errorf("err = %v, want it to match %v", err, tt.wantErr)
			}
		})
	}
}

// Against the emulator, under the wire profiles that change a listing:
// Contacts.Stream reads what Contacts.EachPage reads.
func TestStreamContactsEmulator(t *testing.T) {
	t.Parallel()
	const n = 5500
	contacts := make([]emulator.Contact, n)
	for i := range contacts {
		contacts[i] = emulator.Contact{OriginalID: fmt.Sprintf("c-%d", i), Properties: map[string]string{
			"email": fmt.Sprintf("c%d@example.com", i), "firstname": "Ada",
		}}
		if i%3 == 0 {
			contacts[i].Status = StatusUnsubscribed
		}
	}
	tests := []struct {
		wire    string
		asked   int // requests, when known
		wantErr error
	}{
		{wire: "", asked: 6},
		{wire: "paging-ignored", asked: 2},
		{wire: "paging-page-ignored", wantErr: ErrPagingIgnored},
		{wire: "properties-by-id,extra-fields,optional-null,ids-string,time-millis", asked: 6},
	}
	for _, tt := range tests {
		t.Run(tt.wire, func(t *testing.T) {
			wire, err := emulator.ParseWire(tt.wire)
			if err != nil {
				t.Fatal(err)
			}
			var asked atomic.Int64
			c, s := emulatorClientWith(t, emulator.Options{Wire: wire}, func(h http.Handler) http.Handler {
				return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
					if r.Method == http.MethodGet && strings.HasSuffix(r.URL.Path, "/contacts") {
						asked.Add(1)
					}
					h.ServeHTTP(w, r)
				})
			})
			ctx := context.Background()
			list, err := c.Lists.Create(ctx, ListInput{Name: "stream"})
			if err != nil {
				t.Fatal(err)
			}
			id, _ := strconv.ParseInt(list.ID.String(), 10, 64)
			if err := s.UpsertContacts(id, contacts); err != nil {
				t.Fatal(err)
			}
			var want []ListedContact
			wantErr := c.Contacts.EachPage(ctx, list.ID.String(), MaxPageSize, func(page []Contact) error {
				for _, c := range page {
					want = append(want, ListedContact{OriginalID: c.OriginalID, Properties: c.Properties, Status: c.Status, MobileStatus: c.MobileStatus})
				}
				return nil
			})
			asked.Store(0)
			var got []ListedContact
			err = c.Contacts.Stream(ctx, list.ID.String(), ListingOptions{Concurrency: 4}, func(chunk []ListedContact) error {
				if len(chunk) > MaxPageSize {
					t.Errorf("a chunk of %d contacts", len(chunk))
				}
				got = append(got, chunk...)
				return nil
			})
			if tt.wantErr != nil {
				if !errors.Is(err, tt.wantErr) || !errors.Is(wantErr, tt.wantErr) {
					t.Fatalf("err = %v (Contacts.EachPage: %v), want %v", err, wantErr, tt.wantErr)
				}
				return
			}
			if err != nil || wantErr != nil {
				t.Fatalf("err = %v (Contacts.EachPage: %v)", err, wantErr)
			}
			if len(want) != n {
				t.Fatalf("Contacts.EachPage read %d contacts, want %d", len(want), n)
			}
			if diff := cmp.Diff(want, got); diff != "" {
				t.Errorf("Contacts.Stream differs from Contacts.EachPage (-want +got):\n%s", diff)
			}
			if tt.asked > 0 && int(asked.Load()) != tt.asked {
				t.Errorf("%d requests, want %d", asked.Load(), tt.asked)
			}
		})
	}
}
