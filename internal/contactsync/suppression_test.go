package contactsync

import (
	"context"
	"testing"

	"github.com/rms-labs/terraform-provider-rms/internal/client"
	"github.com/rms-labs/terraform-provider-rms/internal/emulator"
)

// suppressionEnv is an emulator whose list (the listing env's) serves as
// the suppression list, holding:
//
//	s-1 ADA@example.com  unsubscribed on e-mail
//	s-2 bob@example.com  unsubscribed on both
//	s-3 cy@example.com   subscribed on both (held, suppresses nothing)
func suppressionEnv(t *testing.T, wire string) (*listingEnv, *Run) {
	t.Helper()
	opts := emulator.Options{}
	if wire != "" {
		opts.Wire = emulator.MustParseWire(wire)
	}
	e := newListingEnvWith(t, opts, 0, nil)
	err := e.srv.UpsertContacts(mustID(t, e.listID), []emulator.Contact{
		{OriginalID: "s-1", Properties: map[string]string{"email": " ADA@example.com"}, Status: client.StatusUnsubscribed, MobileStatus: client.StatusSubscribed},
		{OriginalID: "s-2", Properties: map[string]string{"email": "bob@example.com"}, Status: client.StatusUnsubscribed, MobileStatus: client.StatusUnsubscribed},
		{OriginalID: "s-3", Properties: map[string]string{"email": "cy@example.com"}, Status: client.StatusSubscribed, MobileStatus: client.StatusSubscribed},
	})
	if err != nil {
		t.Fatal(err)
	}
	return e, NewRun(e.client, RunOptions{})
}

// TestSuppressionSuppressed: a recipient is suppressed on the channels the
// suppression list holds it unsubscribed on, by originalId or by e-mail
// address whatever its letter case and surrounding spaces; a held contact
// subscribed on both suppresses nothing; the list is read once per run,
// and properties keyed by attribute id read the same.
func TestSuppressionSuppressed(t *testing.T) {
	for _, wire := range []string{"", emulator.WirePropertiesByID} {
		t.Run("wire="+wire, func(t *testing.T) {
			e, run := suppressionEnv(t, wire)
			ctx := context.Background()
			s := run.Suppression(e.listID)
			if run.Suppression(e.listID) != s {
				t.Fatal("a second Suppression of the same list is another object")
			}
			for _, tc := range []struct {
				id, email string
				want      Channels
			}{
				{"s-1", "", Channels{Email: true}},
				{"other", "ada@EXAMPLE.com ", Channels{Email: true}},
				{"s-2", "", Channels{Email: true, Mobile: true}},
				{"x", "Bob@Example.com", Channels{Email: true, Mobile: true}},
				{"s-3", "cy@example.com", Channels{}},
				{"x", "", Channels{}},
				{"x", "nobody@example.com", Channels{}},
			} {
				got, err := s.Suppressed(ctx, tc.id, tc.email)
				if err != nil {
					t.Fatal(err)
				}
				if got != tc.want {
					t.Errorf("Suppressed(%q, %q) = %+v, want %+v", tc.id, tc.email, got, tc.want)
				}
			}
			if n := e.gets.Load(); n > 3 { // the listing, and the attributes at most
				t.Errorf("%d GETs for seven lookups, want the one listing (and the attributes)", n)
			}
		})
	}
}

// TestSuppressionRecord: Record creates a recipient the suppression list
// lacks with its originalId, e-mail and mobile values and UNSUBSCRIBED on
// its channels only, sets the status of one it holds on a channel it
// lacks, writes nothing for what it holds already (by id or address), and
// answers later lookups from its index; on a service that ignores the
// statuses of a create (double-opt-in answers with its own), the status
// is written after the create.
func TestSuppressionRecord(t *testing.T) {
	for _, wire := range []string{"", emulator.WireDoubleOptIn, emulator.WireStatusOther} {
		t.Run("wire="+wire, func(t *testing.T) {
			e, run := suppressionEnv(t, wire)
			ctx := context.Background()
			s := run.Suppression(e.listID)
			n, err := s.Record(ctx, []OptOut{
				{OriginalID: "n-1", Email: "new@example.com", Mobile: "+4911", Channels: Channels{Email: true}},
				{OriginalID: "n-2", Email: "both@example.com", Channels: Channels{Email: true, Mobile: true}},
				{OriginalID: "s-1", Channels: Channels{Mobile: true}},                          // held: its mobile is added
				{OriginalID: "s-9", Email: "ada@example.com", Channels: Channels{Email: true}}, // held by address
				{OriginalID: "s-2", Channels: Channels{Email: true}},                           // held by id
			})
			if err != nil {
				t.Fatal(err)
			}
			if n != 3 {
				t.Errorf("Record wrote %d recipients, want 3", n)
			}
			want := map[string][2]string{
				"n-1": {client.StatusUnsubscribed, ""},
				"n-2": {client.StatusUnsubscribed, client.StatusUnsubscribed},
				"s-1": {client.StatusUnsubscribed, client.StatusUnsubscribed},
			}
			for id, st := range want {
				c, err := e.client.Contacts.Get(ctx, e.listID, id)
				if err != nil {
					t.Fatal(err)
				}
				if c.Status != st[0] || (st[1] != "" && c.MobileStatus != st[1]) {
					t.Errorf("%s is %s/%s, want %s/%s", id, c.Status, c.MobileStatus, st[0], st[1])
				}
				if id == "n-1" && (c.Properties["email"] != "new@example.com" || c.Properties["mobile"] != "+4911") {
					if wire != emulator.WirePropertiesByID {
						t.Errorf("n-1 has properties %v, want its e-mail and mobile", c.Properties)
					}
				}
				if id == "n-1" && wire == "" && c.MobileStatus == client.StatusUnsubscribed {
					t.Error("n-1 was unsubscribed on mobile, which it did not opt out of")
				}
			}
			if _, err := e.client.Contacts.Get(ctx, e.listID, "s-9"); err == nil {
				t.Error("s-9 was created, although its address is suppressed already")
			}
			got, err := s.Suppressed(ctx, "zzz", "NEW@example.com")
			if err != nil || got != (Channels{Email: true}) {
				t.Errorf("after Record, new@example.com is suppressed on %+v (%v), want e-mail", got, err)
			}
			again, err := s.Record(ctx, []OptOut{{OriginalID: "n-2", Channels: Channels{Email: true, Mobile: true}}})
			if err != nil || again != 0 {
				t.Errorf("recording n-2 again wrote %d (%v), want nothing", again, err)
			}
		})
	}
}

func TestChannels(t *testing.T) {
	both := Channels{Email: true, Mobile: true}
	for _, tc := range []struct {
		got, want Channels
	}{
		{both.Without(Channels{Email: true}), Channels{Mobile: true}},
		{Channels{Email: true}.Union(Channels{Mobile: true}), both},
		{UnsubscribedChannels(client.StatusUnsubscribed, "PENDING"), Channels{Email: true}},
	} {
		if tc.got != tc.want {
			t.Errorf("got %+v, want %+v", tc.got, tc.want)
		}
	}
	if both.String() != "e-mail and mobile" || (Channels{}).Any() {
		t.Error("String or Any is wrong")
	}
}
