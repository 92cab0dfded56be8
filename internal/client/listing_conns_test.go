package client

import (
	"net"
	"net/http"
	"net/http/httptest"
	"sync/atomic"
	"testing"
	"time"
)

// Every page in flight keeps its connection for a page after it: the
// transport keeps as many idle connections to the service as the largest
// window, so a listing dials about once per page of its window, not once
// per page (across a network, a dial is a TCP and a TLS handshake).
func TestStreamContactsReusesConnections(t *testing.T) {
	t.Parallel()
	ls := &listServer{n: 60_000, latency: 10 * time.Millisecond}
	var dials atomic.Int64
	// The hook is set before the server starts: its goroutines read it.
	srv := httptest.NewUnstartedServer(ls)
	srv.Config.ConnState = func(_ net.Conn, s http.ConnState) {
		if s == http.StateNew {
			dials.Add(1)
		}
	}
	srv.Start()
	t.Cleanup(srv.Close)
	c := clientOf(t, srv)
	n := 0
	err := c.Contacts.Stream(t.Context(), "7", ListingOptions{PageSize: 1000}, func(chunk []ListedContact) error {
		n += len(chunk)
		return nil
	})
	if err != nil || n != 60_000 {
		t.Fatalf("listed %d contacts, error %v", n, err)
	}
	if got := dials.Load(); got > DefaultListingWindow+2 {
		t.Errorf("%d connections for 60 pages in a window of %d: connections were not kept for the next pages", got, DefaultListingWindow)
	}
}
