package client

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"strconv"
	"testing"
	"time"
)

// contactsJSON is a page of n contacts as the service answers it.
func contactsJSON(tb testing.TB, n int) []byte {
	tb.Helper()
	page := make([]map[string]any, n)
	for i := range page {
		page[i] = map[string]any{
			"id": i + 1, "originalId": fmt.Sprintf("customer-%d", i),
			"properties": map[string]string{"email": fmt.Sprintf("c%d@example.com", i), "firstname": "Ada", "lastname": "Lovelace"},
			"status":     "SUBSCRIBED", "mobileStatus": "UNSUBSCRIBED",
			"dateCreated": "2026-11-22T10:00:00Z", "dateModified": "2026-11-22T10:05:00Z",
		}
	}
	b, err := json.Marshal(page)
	if err != nil {
		tb.Fatal(err)
	}
	return b
}

func jsonResponse(body []byte) *http.Response {
	req, _ := http.NewRequest(http.MethodGet, "http://127.0.0.1/rest/1000/lists/1/contacts", nil)
	return &http.Response{
		StatusCode: http.StatusOK, Request: req,
		Header: http.Header{"Content-Type": []string{"application/json; charset=utf-8"}},
		Body:   io.NopCloser(bytes.NewReader(body)),
	}
}

// The decoder every answer goes through: one contact, and a page of the
// largest size the client asks for.
func BenchmarkDecodeJSON(b *testing.B) {
	for _, n := range []int{1, DefaultPageSize} {
		body := contactsJSON(b, n)
		if n == 1 {
			body = bytes.TrimSuffix(bytes.TrimPrefix(body, []byte("[")), []byte("]"))
		}
		b.Run(fmt.Sprintf("contacts=%d", n), func(b *testing.B) {
			b.SetBytes(int64(len(body)))
			b.ReportAllocs()
			for b.Loop() {
				var err error
				if n == 1 {
					var c Contact
					err = decodeJSON(jsonResponse(body), &c)
				} else {
					var cs []Contact
					err = decodeJSON(jsonResponse(body), &cs)
				}
				if err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}

// One Contacts.Get round trip over loopback HTTP: the client's own cost per
// refreshed contact (headers, auth, retry wrapper, decoding), with a server
// that answers at once.
func BenchmarkGetContact(b *testing.B) {
	body := bytes.TrimSuffix(bytes.TrimPrefix(contactsJSON(b, 1), []byte("[")), []byte("]"))
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, _ *http.Request) {
		w.Header().Set("Content-Type", "application/json; charset=utf-8")
		_, _ = w.Write(body)
	}))
	defer srv.Close()
	c, err := New(Config{BaseURL: srv.URL, CustomerID: testCustomerID, Auth: BasicAuth{Username: testUser, Password: testPassword}})
	if err != nil {
		b.Fatal(err)
	}
	ctx := context.Background()
	b.ReportAllocs()
	for b.Loop() {
		if _, err := c.Contacts.Get(ctx, "1", "customer-0"); err != nil {
			b.Fatal(err)
		}
	}
}

// A listing of a list's contacts: one page of 1,000 decoded (as
// Contacts.Stream reads it, and as Contacts.EachPage does), and a listing of
// 100 such pages over loopback HTTP with each.
func BenchmarkStreamContacts(b *testing.B) {
	page := contactsJSON(b, MaxPageSize)
	b.Run("decode/listed", func(b *testing.B) {
		b.SetBytes(int64(len(page)))
		b.ReportAllocs()
		for b.Loop() {
			a := newContactArray(bytes.NewReader(page), internKeys{}, testPageHash())
			if err := a.open(); err != nil {
				b.Fatal(err)
			}
			if _, n, err := a.chunks(MaxPageSize, func([]ListedContact) error { return nil }); err != nil || n != MaxPageSize {
				b.Fatal(n, err)
			}
		}
	})
	b.Run("decode/Contact", func(b *testing.B) {
		b.SetBytes(int64(len(page)))
		b.ReportAllocs()
		for b.Loop() {
			var cs []Contact
			if err := decodeJSON(jsonResponse(page), &cs); err != nil || len(cs) != MaxPageSize {
				b.Fatal(len(cs), err)
			}
		}
	})

	const pages = 100
	c := pagedListing(b, page, pages, 0)
	ctx := context.Background()
	b.Run(fmt.Sprintf("listing/pages=%d/Contacts.Stream", pages), func(b *testing.B) {
		b.ReportAllocs()
		for b.Loop() {
			n := 0
			err := c.Contacts.Stream(ctx, "1", ListingOptions{}, func(chunk []ListedContact) error {
				n += len(chunk)
				return nil
			})
			if err != nil || n != pages*MaxPageSize {
				b.Fatal(n, err)
			}
		}
	})
	b.Run(fmt.Sprintf("listing/pages=%d/Contacts.EachPage", pages), func(b *testing.B) {
		b.ReportAllocs()
		for b.Loop() {
			n := 0
			err := c.Contacts.EachPage(ctx, "1", MaxPageSize, func(page []Contact) error {
				n += len(page)
				return nil
			})
			if err != nil || n != pages*MaxPageSize {
				b.Fatal(n, err)
			}
		}
	})
}

// A listing of 100 pages of 1,000 contacts with every answer 50 ms late:
// the old fixed window of four against the window the listing chooses.
func BenchmarkStreamContactsLatency(b *testing.B) {
	const pages, latency = 100, 50 * time.Millisecond
	c := pagedListing(b, contactsJSON(b, MaxPageSize), pages, latency)
	for _, w := range []struct {
		name        string
		concurrency int
	}{{"window=4", 4}, {"window=chosen", 0}} {
		b.Run(fmt.Sprintf("pages=%d/latency=%s/%s", pages, latency, w.name), func(b *testing.B) {
			for b.Loop() {
				n := 0
				err := c.Contacts.Stream(b.Context(), "1", ListingOptions{Concurrency: w.concurrency}, func(chunk []ListedContact) error {
					n += len(chunk)
					return nil
				})
				if err != nil || n != pages*MaxPageSize {
					b.Fatal(n, err)
				}
			}
		})
	}
}

// pagedListing is a client of a server that lists pages copies of page
// (each with other ids), every answer latency late, and the list's size in
// X-Total-Count.
func pagedListing(b *testing.B, page []byte, pages int, latency time.Duration) *Client {
	b.Helper()
	bodies := make([][]byte, pages)
	for p := range bodies {
		bodies[p] = bytes.ReplaceAll(page, []byte(`"customer-`), fmt.Appendf(nil, `"customer-%d-`, p))
	}
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		time.Sleep(latency)
		w.Header().Set("Content-Type", "application/json; charset=utf-8")
		w.Header().Set("X-Total-Count", strconv.Itoa(pages*MaxPageSize))
		if p, _ := strconv.Atoi(r.URL.Query().Get("page")); p < pages {
			_, _ = w.Write(bodies[p])
			return
		}
		_, _ = w.Write([]byte("[]"))
	}))
	b.Cleanup(srv.Close)
	c, err := New(Config{BaseURL: srv.URL, CustomerID: testCustomerID, Auth: BasicAuth{Username: testUser, Password: testPassword}})
	if err != nil {
		b.Fatal(err)
	}
	return c
}
