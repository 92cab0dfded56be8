package client

import (
	"context"
	"errors"
	"net/http"
	"strings"
	"testing"
)

func TestPathSafeID(t *testing.T) {
	tests := []struct {
		id   string
		want bool
	}{
		{"", false},
		{".", false},
		{"..", false},
		{"...", true}, // no dot segment: RFC 3986 names only "." and ".."
		{".a", true},
		{"a.", true},
		{"a/..", true}, // escaped to a%2F..: one segment
		{"%2E", true},  // escaped to %252E
		{"%2E%2E", true},
		{" .", true},
		{"c-1", true},
	}
	for _, tt := range tests {
		if got := PathSafeID(tt.id); got != tt.want {
			t.Errorf("PathSafeID(%q) = %v, want %v", tt.id, got, tt.want)
		}
	}
}

// TestPathUnsafeIDsAreNeverSent checks that every single-contact call with
// an id a path cannot carry fails with ErrPathUnsafeID before sending
// anything, and that a create of such an id completes a bare answer from
// the listing, never by a GET of the contact's path.
func TestPathUnsafeIDsAreNeverSent(t *testing.T) {
	ctx := context.Background()
	for _, id := range []string{".", ".."} {
		t.Run(id, func(t *testing.T) {
			srv := &scriptedServer{answers: map[string]func(http.ResponseWriter, *http.Request){}}
			c, _ := newTestClient(t, srv, noRetries)
			calls := []struct {
				name string
				call func() error
			}{
				{"Contacts.Get", func() error { _, err := c.Contacts.Get(ctx, "5", id); return err }},
				{"Contacts.UpdateProperties", func() error {
					_, err := c.Contacts.UpdateProperties(ctx, "5", id, map[string]*string{"firstname": nil})
					return err
				}},
				{"SetSubscriptionStatus", func() error {
					_, err := c.Contacts.SetSubscriptionStatus(ctx, "5", id, SubscriptionStatus{Status: StatusUnsubscribed})
					return err
				}},
			}
			for _, cl := range calls {
				err := cl.call()
				if !errors.Is(err, ErrPathUnsafeID) {
					t.Errorf("%s(%q): err = %v, want ErrPathUnsafeID", cl.name, id, err)
				}
				if err != nil && !strings.Contains(err.Error(), `"`+id+`"`) {
					t.Errorf("%s(%q): the error does not name the id: %v", cl.name, id, err)
				}
			}
			if len(srv.calls) != 0 {
				t.Fatalf("requests sent: %+v", srv.calls)
			}

			// A create answered with the id alone is completed from the
			// listing: the POST and one page, no GET of a contact path.
			listed := `[{"id":3,"originalId":"a"},{"id":17,"originalId":"` + id + `","status":"SUBSCRIBED","dateCreated":"2099-01-01T00:00:00Z"}]`
			srv.answers["POST /rest/1000/lists/5/contacts"] = answer(201, `{"id":17}`)
			srv.answers["GET /rest/1000/lists/5/contacts"] = answer(200, listed)
			got, err := c.Contacts.CreateOnce(ctx, "5", ContactInput{OriginalID: id})
			if err != nil {
				t.Fatalf("Contacts.CreateOnce(%q): %v", id, err)
			}
			if got.OriginalID != id || got.ID != "17" {
				t.Errorf("created %+v", got)
			}
			for _, r := range srv.calls {
				if r.path != "/rest/1000/lists/5/contacts" {
					t.Errorf("a request to %s %s", r.method, r.path)
				}
			}
			if len(srv.calls) != 2 {
				t.Errorf("requests %+v, want the POST and one page", srv.calls)
			}

			// Contacts.Lookup reads from the listing; one the list lacks is
			// ErrNotFound.
			if _, err := c.Contacts.Lookup(ctx, "5", id); err != nil {
				t.Errorf("Contacts.Lookup(%q): %v", id, err)
			}
			srv.answers["GET /rest/1000/lists/5/contacts"] = answer(200, `[{"id":3,"originalId":"a"}]`)
			if _, err := c.Contacts.Lookup(ctx, "5", id); !errors.Is(err, ErrNotFound) {
				t.Errorf("Contacts.Lookup(%q) of a list without it: err = %v, want ErrNotFound", id, err)
			}
		})
	}
}
