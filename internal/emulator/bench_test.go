package emulator

import (
	"encoding/json"
	"fmt"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
)

// benchList makes a server with one list of n contacts and returns the
// server and the list's path.
func benchList(b *testing.B, n int) (*Server, string) {
	b.Helper()
	s := New(Options{})
	r := httptest.NewRequest(http.MethodPost, fmt.Sprintf("/rest/%d/lists", DefaultCustomerID), strings.NewReader(`{"name":"bench"}`))
	r.SetBasicAuth(DefaultUsername, DefaultPassword)
	r.Header.Set("Accept", "application/json")
	r.Header.Set("Content-Type", "application/json")
	rec := httptest.NewRecorder()
	s.ServeHTTP(rec, r)
	var list struct{ ID int64 }
	if err := json.Unmarshal(rec.Body.Bytes(), &list); err != nil || list.ID == 0 {
		b.Fatalf("creating a list: %d %s", rec.Code, rec.Body.String())
	}
	contacts := make([]Contact, n)
	for i := range contacts {
		contacts[i] = Contact{OriginalID: fmt.Sprintf("customer-%d", i), Properties: map[string]string{
			"email": fmt.Sprintf("c%d@example.com", i), "firstname": "Ada", "lastname": "Lovelace",
		}}
	}
	listID := list.ID
	if err := s.UpsertContacts(listID, contacts); err != nil {
		b.Fatal(err)
	}
	return s, fmt.Sprintf("/rest/%d/lists/%d/contacts", DefaultCustomerID, listID)
}

func serveBench(b *testing.B, h http.Handler, path string) {
	r := httptest.NewRequest(http.MethodGet, path, nil)
	r.SetBasicAuth(DefaultUsername, DefaultPassword)
	r.Header.Set("Accept", "application/json")
	rec := httptest.NewRecorder()
	h.ServeHTTP(rec, r)
	if rec.Code != http.StatusOK {
		b.Fatalf("GET %s: %d %s", path, rec.Code, rec.Body.String())
	}
}

// Paging through a list of 10,000 contacts: one page deep in the list, at
// the default and the largest page size.
func BenchmarkContactPage(b *testing.B) {
	s, path := benchList(b, 10_000)
	for _, size := range []int{defaultPageSize, maxPageSize} {
		b.Run(fmt.Sprintf("pageSize=%d", size), func(b *testing.B) {
			p := fmt.Sprintf("%s?page=%d&pageSize=%d", path, 5000/size, size)
			b.ReportAllocs()
			for b.Loop() {
				serveBench(b, s, p)
			}
		})
	}
}

// Reading one contact of a list of 10,000: what each refresh of an
// rms_contact costs the emulator.
func BenchmarkGetContact(b *testing.B) {
	s, path := benchList(b, 10_000)
	p := path + "/customer-5000"
	b.ReportAllocs()
	for b.Loop() {
		serveBench(b, s, p)
	}
}
