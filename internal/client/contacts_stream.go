package client

import (
	"context"
	"errors"
	"fmt"
	"io"
	"net/http"
	"net/url"
	"strconv"
	"sync"
	"time"
)

// ListingOptions shape a contacts listing.
type ListingOptions struct {
	PageSize    int // <= 0: MaxPageSize
	Concurrency int // pages in flight at most; <= 0: chosen by listingWindow
	// Pairs hands each contact's properties on as ListedContact.Pairs,
	// not as a map: for a caller that compares most contacts' properties
	// and keeps few, a map per contact was most of what a listing
	// allocated.
	Pairs bool
}

// errInconsistentPaging is a page that began as an earlier one and then
// went on otherwise: reading on could hand contacts on twice.
var errInconsistentPaging = errors.New("a page of the listing began with the same contacts as an earlier page but went on otherwise (the list changed while it was read, or the service pages inconsistently); read it again")

// Stream reads every contact of a list and calls fn with them in
// chunks of at most PageSize contacts, in the order of the listing (page 0
// first). fn is never called concurrently; an error from fn stops the
// listing and is returned as it is. Errors of the service are wrapped with
// "reading the contacts of list N" and match ErrNotFound / ErrPagingIgnored
// as Contacts.EachPage's do.
//
// The paging rules are EachPage's (the service's own page size, the
// repeated-page guard), with three additions for lists of a million
// contacts:
//   - once page 0 shows that the service pages by number and size, the
//     following pages are fetched ahead, Concurrency at most at once, and
//     handed on in page order;
//   - X-Total-Count ends the listing as soon as the pages read cover it,
//     and no page past it is asked for;
//   - a page longer than PageSize (a service that answers the whole list
//     at once) is decoded while it arrives and handed on in chunks, never
//     held whole; the next page is then read alone, to see whether it
//     repeats.
func (s *ContactService) Stream(ctx context.Context, listID string, opts ListingOptions, fn func([]ListedContact) error) error {
	l := &listing{
		c: s.c, listID: listID, path: contactsPath(listID),
		pageSize: opts.PageSize, concurrency: opts.Concurrency,
		fn: fn, total: -1, keys: internKeys{}, guard: newPagingGuard(), pairs: opts.Pairs,
	}
	if l.pageSize <= 0 {
		l.pageSize = MaxPageSize
	}
	err := l.run(ctx)
	if l.stopped != nil {
		return l.stopped
	}
	if err != nil {
		return fmt.Errorf("reading the contacts of list %s: %w", listID, err)
	}
	return nil
}

// listing is one run of Contacts.Stream. Only the goroutine that runs it
// touches its fields; the pages fetched ahead report through channels.
type listing struct {
	c           *Client
	listID      string
	path        string
	pageSize    int // asked for, and the size of a chunk
	concurrency int // <= 0: chosen once page 0 has answered
	fn          func([]ListedContact) error
	stopped     error // fn's error, returned as it is

	size     int // the service pages by
	total    int // X-Total-Count of the latest page; -1 unknown
	read     int // contacts read
	guard    pagingGuard
	prefixes map[pageDigest]bool // of pages longer than a chunk
	keys     internKeys
	pairs    bool // ListingOptions.Pairs
}

// fetched is one page read.
type fetched struct {
	page      int
	latency   time.Duration // until the answer's headers, retries and the rate limiter's wait included
	n         int
	total     int
	digest    pageDigest
	chunks    [][]ListedContact // of a page fetched ahead, all; of a streamed page, only the last
	prefix    *pageDigest       // of a streamed page longer than a chunk: the digest of its first chunk
	discarded bool              // a streamed page began as an earlier one and was not decoded
	err       error
}

// handOn calls fn, keeping its error.
func (l *listing) handOn(chunk []ListedContact) error {
	if len(chunk) == 0 {
		return nil
	}
	if err := l.fn(chunk); err != nil {
		l.stopped = err
		return err
	}
	return nil
}

// note takes in a page's count and total.
func (l *listing) note(p fetched) {
	l.read += p.n
	if p.total >= 0 {
		l.total = p.total
	}
}

// ended reports whether the page just noted was the last one: shorter than
// the service's page size, or the pages read cover X-Total-Count.
func (l *listing) ended(p fetched) bool {
	return p.n == 0 || p.n < l.size || (l.total >= 0 && l.read >= l.total)
}

// wanted reports whether a page may hold contacts, as far as
// X-Total-Count tells: no page past the total is asked for.
func (l *listing) wanted(page int) bool {
	return l.total < 0 || page*l.size < l.total
}

func (l *listing) run(ctx context.Context) error {
	p0 := l.stream(ctx, 0, l.handOn)
	if p0.err != nil {
		return p0.err
	}
	l.note(p0)
	l.guard.repeated(p0.digest, p0.n)
	last := p0.chunks[0]
	l.size = l.pageSize
	switch {
	case p0.n > l.pageSize:
		l.c.logger.Debug(ctx, "the service pages by a size of its own, or not at all", map[string]any{"path": l.path, "asked": l.pageSize, "got": p0.n})
		l.size = p0.n
		l.prefixes = map[pageDigest]bool{*p0.prefix: true}
		if err := l.handOn(last); err != nil || l.ended(p0) {
			return err
		}
		return l.sequential(ctx)
	case p0.n < l.pageSize && p0.n > 0 && l.total > p0.n:
		l.c.logger.Debug(ctx, "the service pages by a size of its own", map[string]any{"path": l.path, "asked": l.pageSize, "got": p0.n})
		l.size = p0.n
	}
	if l.ended(p0) {
		return l.handOn(last)
	}
	if l.concurrency <= 0 {
		l.concurrency = listingWindow(l.c.cfg.MaxRequestsPerSecond, p0.latency, l.total >= 0)
		l.c.logger.Debug(ctx, "the listing's window", map[string]any{
			"path": l.path, "window": l.concurrency, "page_0_ms": p0.latency.Milliseconds(),
			"max_requests_per_second": l.c.cfg.MaxRequestsPerSecond, "total": l.total,
		})
	}
	return l.ahead(ctx, last)
}

// ahead reads the pages after page 0 with up to concurrency requests in
// flight, and hands them on in page order; last is page 0's last chunk,
// handed on while the next pages are fetched.
func (l *listing) ahead(ctx context.Context, last []ListedContact) error {
	wctx, cancel := context.WithCancel(ctx)
	var wg sync.WaitGroup
	stop := func() {
		cancel()
		wg.Wait()
	}
	defer stop()

	var window []chan fetched
	next := 1
	launch := func() {
		for len(window) < l.concurrency && l.wanted(next) {
			ch := make(chan fetched, 1)
			window = append(window, ch)
			wg.Add(1)
			go func(page int) {
				defer wg.Done()
				ch <- l.prefetch(wctx, page)
			}(next)
			next++
		}
	}
	launch()
	if err := l.handOn(last); err != nil {
		return err
	}
	for {
		launch()
		if len(window) == 0 {
			return nil
		}
		p := <-window[0]
		window = window[1:]
		if p.err != nil {
			return p.err
		}
		if l.guard.repeated(p.digest, p.n) {
			stop()
			if p.page == 1 && l.size == l.pageSize {
				// Page 0 was exactly pageSize long: is that the whole
				// list, or all of it the service lets us reach?
				return l.c.confirmSinglePage(ctx, l.path, url.Values{}, l.pageSize)
			}
			return nil // everything was handed on already
		}
		l.note(p)
		for _, chunk := range p.chunks {
			if err := l.handOn(chunk); err != nil {
				return err
			}
		}
		if l.ended(p) {
			return nil
		}
	}
}

// sequential reads the pages after a page 0 longer than pageSize one at a
// time, each decoded as it arrives: the service answered more than asked,
// and the next page tells whether it pages by a size of its own or
// answered the whole list (the same page again).
func (l *listing) sequential(ctx context.Context) error {
	for page := 1; l.wanted(page); page++ {
		p := l.stream(ctx, page, nil)
		if p.err != nil {
			return p.err
		}
		if l.guard.repeated(p.digest, p.n) {
			return nil // the same answer again: everything was handed on already
		}
		if p.discarded {
			return fmt.Errorf("page %d: %w", page, errInconsistentPaging)
		}
		if p.prefix != nil {
			l.prefixes[*p.prefix] = true
		}
		l.note(p)
		if err := l.handOn(p.chunks[0]); err != nil {
			return err
		}
		if l.ended(p) {
			return nil
		}
	}
	return nil
}

// open asks for one page and returns its answer, its JSON body (bounded
// when the page is fetched ahead) and p with its X-Total-Count (-1 without
// one); on failure p.err says why and the answer is nil. The caller closes
// the answer's body.
func (l *listing) open(ctx context.Context, page int, bounded bool) (p fetched, resp *http.Response, body io.Reader) {
	p = fetched{page: page, total: -1}
	q := url.Values{"page": {strconv.Itoa(page)}, "pageSize": {strconv.Itoa(l.pageSize)}}
	start := time.Now()
	resp, err := l.c.send(ctx, request{method: http.MethodGet, path: l.path, query: q})
	p.latency = time.Since(start)
	if err != nil {
		p.err = fmt.Errorf("page %d: %w", page, err)
		return p, nil, nil
	}
	if n, err := strconv.Atoi(resp.Header.Get("X-Total-Count")); err == nil && n >= 0 {
		p.total = n
	}
	body = resp.Body
	if bounded {
		body = io.LimitReader(body, maxJSONResponse)
	}
	if body, err = jsonBody(resp, body); err != nil {
		_ = resp.Body.Close() // the answer is not read: Close has nothing to report
		p.err = fmt.Errorf("page %d: %w", page, err)
		return p, nil, nil
	}
	return p, resp, body
}

// newArray reads a page's answer as this listing does: its digest under
// the listing's seeds, properties as pairs when asked for.
func (l *listing) newArray(body io.Reader, keys internKeys) *contactArray {
	a := newContactArray(body, keys, l.guard.newHash())
	a.pairs = l.pairs
	return a
}

// prefetch reads a page fetched ahead. It is decoded while it arrives, as
// every page is (contactArray buffers one contact at a time, never the
// answer), and its contacts wait in p.chunks for the pages before it to be
// handed on. It is expected no longer than pageSize, so the answer is
// bounded as any JSON answer is.
func (l *listing) prefetch(ctx context.Context, page int) fetched {
	p, resp, body := l.open(ctx, page, true)
	if resp == nil {
		return p
	}
	defer func() { _ = resp.Body.Close() }() // read (or abandoned) before: Close has nothing to report
	// A page fetched ahead has its own interned keys: the listing's map
	// belongs to the goroutine that runs it.
	a := l.newArray(body, internKeys{})
	p.err = l.decode(resp, page, a, func(chunk []ListedContact) error {
		p.chunks = append(p.chunks, chunk)
		return nil
	}, &p)
	return p
}

// stream reads a page while it arrives. Full chunks go to emit when it is
// set (page 0, which no page can repeat); otherwise the first chunk of a
// page is checked against the first chunks of the pages before, and goes
// to fn only when it is new. A page whose first chunk is an earlier page's
// is read to its end without being decoded, for its digest.
func (l *listing) stream(ctx context.Context, page int, emit func([]ListedContact) error) fetched {
	p, resp, body := l.open(ctx, page, false)
	if resp == nil {
		return p
	}
	defer func() { _ = resp.Body.Close() }() // read (or abandoned) before: Close has nothing to report
	a := l.newArray(body, l.keys)
	first := true
	p.err = l.decode(resp, page, a, func(chunk []ListedContact) error {
		if first {
			first = false
			prefix := a.digest()
			p.prefix = &prefix
			if l.prefixes[prefix] {
				a.discard = true
				p.discarded = true
				return nil
			}
		}
		if emit != nil {
			return emit(chunk)
		}
		return l.handOn(chunk)
	}, &p)
	return p
}

// decode reads a page's array into p: its chunks through emit, the last
// one into p.chunks, its count and its digest.
func (l *listing) decode(resp *http.Response, page int, a *contactArray, emit func([]ListedContact) error, p *fetched) error {
	err := a.open()
	var last []ListedContact
	var emitted error
	if err == nil {
		last, p.n, err = a.chunks(l.pageSize, func(chunk []ListedContact) error {
			emitted = emit(chunk)
			return emitted
		})
	}
	if err != nil {
		if emitted != nil {
			return err // fn's, as it is
		}
		return fmt.Errorf("page %d: %w", page, answerError(resp, err))
	}
	p.digest = a.digest()
	a.drain()
	if !p.discarded {
		p.chunks = append(p.chunks, last)
	}
	return nil
}

// answerError words an error of reading an answer as decodeJSON does.
func answerError(resp *http.Response, err error) error {
	method, path := resp.Request.Method, resp.Request.URL.Path
	switch {
	case errors.Is(err, io.EOF):
		return fmt.Errorf("%s %s: the server sent an empty body where a JSON answer was expected", method, path)
	case errors.Is(err, io.ErrUnexpectedEOF):
		return fmt.Errorf("%s %s: the JSON answer was cut short (truncated or over %d MiB)", method, path, maxJSONResponse>>20)
	}
	return fmt.Errorf("%s %s: decoding the JSON answer: %w", method, path, err)
}
