package client

import (
	"context"
	"fmt"
	"net/http/httptest"
	"strconv"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"

	"github.com/rms-labs/terraform-provider-rms/internal/emulator"
)

// Under the emulator's faults, the listing with its window hands on what
// the listing read one page at a time does: the same contacts, statuses
// and properties, in the same order, however the pages' failures and
// retries interleave.
func TestStreamContactsWindowUnderFaults(t *testing.T) {
	t.Parallel()
	const n = 5500
	contacts := make([]emulator.Contact, n)
	for i := range contacts {
		contacts[i] = emulator.Contact{OriginalID: fmt.Sprintf("c-%d", i), Properties: map[string]string{
			"email": fmt.Sprintf("c%d@example.com", i), "firstname": fmt.Sprintf("Ada %d", i%7),
		}}
		switch i % 5 {
		case 0:
			contacts[i].Status = StatusUnsubscribed
		case 1:
			contacts[i].MobileStatus = StatusUnsubscribed
		}
	}
	tests := []struct {
		name   string
		faults emulator.FaultOptions
	}{
		// 500 is not retried (checkRetry), so it is not among them.
		{name: "502 and 504", faults: emulator.FaultOptions{Rate: 0.3, Kinds: []string{emulator.FaultBadGateway, emulator.FaultGatewayTimeout}}},
		// Retry-After is a second at least: fewer of them keep the test short.
		{name: "429 and 503", faults: emulator.FaultOptions{Rate: 0.1, Kinds: []string{emulator.FaultTooManyRequests, emulator.FaultUnavailable}}},
		{name: "dropped connections", faults: emulator.FaultOptions{Rate: 0.3, Kinds: []string{emulator.FaultDrop}}},
		{name: "slow pages", faults: emulator.FaultOptions{Latency: 20 * time.Millisecond}},
		{name: "slow and failing", faults: emulator.FaultOptions{Rate: 0.2, Kinds: []string{emulator.FaultBadGateway, emulator.FaultDrop}, Latency: 10 * time.Millisecond}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			faults := tt.faults
			faults.Methods = []string{"GET"}
			faults.PathPrefix = "lists"
			faults.Seed = 7
			s := emulator.New(emulator.Options{Faults: faults})
			srv := httptest.NewServer(s)
			t.Cleanup(srv.Close)
			o := s.Options()
			c, err := New(Config{
				BaseURL: srv.URL, CustomerID: o.CustomerID, Auth: BasicAuth{Username: o.Username, Password: o.Password},
				MaxRetries: 8, RetryWaitMin: time.Millisecond, RetryWaitMax: 5 * time.Millisecond,
			})
			if err != nil {
				t.Fatal(err)
			}
			ctx := context.Background()
			list, err := c.Lists.Create(ctx, ListInput{Name: "faults"})
			if err != nil {
				t.Fatal(err)
			}
			id, _ := strconv.ParseInt(list.ID.String(), 10, 64)
			if err := s.UpsertContacts(id, contacts); err != nil {
				t.Fatal(err)
			}
			read := func(concurrency int) []ListedContact {
				t.Helper()
				var got []ListedContact
				// Pages of 500: eleven of them, so that the window has
				// pages to fetch ahead and faults to meet.
				err := c.Contacts.Stream(ctx, list.ID.String(), ListingOptions{PageSize: 500, Concurrency: concurrency}, func(chunk []ListedContact) error {
					got = append(got, chunk...)
					return nil
				})
				if err != nil {
					t.Fatalf("Concurrency %d: %v", concurrency, err)
				}
				return got
			}
			want := read(1)
			if len(want) != n {
				t.Fatalf("one page at a time read %d contacts, want %d", len(want), n)
			}
			for i, lc := range want {
				if lc.OriginalID != contacts[i].OriginalID || lc.Properties["email"] != contacts[i].Properties["email"] {
					t.Fatalf("one page at a time: contact %d is %+v, want %s", i, lc, contacts[i].OriginalID)
				}
			}
			for _, concurrency := range []int{0, DefaultListingWindow} {
				if diff := cmp.Diff(want, read(concurrency)); diff != "" {
					t.Errorf("Concurrency %d differs from the listing one page at a time (-want +got):\n%s", concurrency, diff)
				}
			}
			injected := int64(0)
			for _, k := range s.Faults().Injected {
				injected += k
			}
			if faults.Rate > 0 && injected == 0 {
				t.Errorf("no fault was injected")
			}
		})
	}
}
