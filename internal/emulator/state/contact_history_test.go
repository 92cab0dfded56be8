package state

import (
	"fmt"
	"slices"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/google/go-cmp/cmp/cmpopts"
)

// newListStore is a store with the standard attributes and one empty list.
func newListStore(t *testing.T) (*Store, int64) {
	t.Helper()
	st := NewStore()
	st.PreloadProperties("2026-01-01T00:00:00Z")
	e, _, err := st.Create(nil, ListsKey, map[string]any{"name": "news"}, "2026-01-01T00:00:00Z", nil)
	if err != nil {
		t.Fatal(err)
	}
	return st, e["id"].(int64)
}

func stampAt(minute int) string { return fmt.Sprintf("2026-01-01T10:%02d:00Z", minute) }

// A contact remembers its last HistoryLen status changes, newest first,
// each with its time, channel, states and cause; older ones are dropped,
// and a write that changes no state adds nothing.
func TestHistoryKeepsTheLastChanges(t *testing.T) {
	st, list := newListStore(t)
	cs := st.Contacts
	creator := &Cause{Kind: CauseCall, UserAgent: "Terraform/1.11.4 terraform-provider-rms/0.1.0", Call: "POST /rest/1000/lists/5/contacts"}
	if _, err := cs.Create(list, ContactInput{OriginalID: "ada"}, stampAt(0), creator); err != nil {
		t.Fatal(err)
	}
	h, err := cs.History(list, "ada")
	if err != nil {
		t.Fatal(err)
	}
	wantBirth := []StatusChange{
		{At: stampOf(stampAt(0)), Channel: ChannelMobile, From: "", To: StatusSubscribed, By: creator},
		{At: stampOf(stampAt(0)), Channel: ChannelEmail, From: "", To: StatusSubscribed, By: creator},
	}
	if diff := cmp.Diff(wantBirth, h.Changes); diff != "" {
		t.Fatalf("history of a new contact (-want +got):\n%s", diff)
	}

	crm := &Cause{Kind: CauseCall, UserAgent: "crm-sync/2.0"}
	unchanged := &Cause{Kind: CauseCall, UserAgent: "same-state"}
	states := []string{StatusUnsubscribed, StatusSubscribed}
	for i := range 30 {
		if _, err := cs.SetStatus(list, "ada", states[i%2], "", stampAt(i+1), crm); err != nil {
			t.Fatal(err)
		}
		// Setting the state the contact already has is no change.
		if _, err := cs.SetStatus(list, "ada", states[i%2], "", stampAt(i+1), unchanged); err != nil {
			t.Fatal(err)
		}
	}
	h, err = cs.History(list, "ada")
	if err != nil {
		t.Fatal(err)
	}
	if len(h.Changes) != HistoryLen {
		t.Fatalf("%d changes remembered, want %d", len(h.Changes), HistoryLen)
	}
	for i, c := range h.Changes {
		n := 30 - i // the newest is the 30th change
		want := StatusChange{At: stampOf(stampAt(n)), Channel: ChannelEmail, From: states[n%2], To: states[(n-1)%2], By: crm}
		if diff := cmp.Diff(want, c); diff != "" {
			t.Errorf("change %d (-want +got):\n%s", i, diff)
		}
	}
}

// A write that changes both channels adds a change for each; the contacts
// a bulk write creates the same way share one history, and a REPLACE
// keeps a contact's history and adds what it changed.
func TestHistoryOfBulkWrites(t *testing.T) {
	st, list := newListStore(t)
	cs := st.Contacts
	seed := &Cause{Kind: CauseGoAPI}
	for i := range 1000 {
		if _, _, err := cs.Upsert(list, ContactInput{OriginalID: fmt.Sprint("c", i)}, stampAt(0), true, seed); err != nil {
			t.Fatal(err)
		}
	}
	first, last := cs.Ref(list, "c0"), cs.Ref(list, "c999")
	if first.hist == nil || first.hist != last.hist {
		t.Errorf("contacts created alike hold histories %p and %p, want one shared", first.hist, last.hist)
	}

	imp := &Cause{Kind: CauseImport, ImportID: 7, ImportType: "REPLACE", BatchID: 8}
	err := cs.Replace(list, []ContactInput{{OriginalID: "c0", Status: StatusUnsubscribed, MobileStatus: StatusUnsubscribed}, {OriginalID: "new"}}, stampAt(1), imp)
	if err != nil {
		t.Fatal(err)
	}
	h, err := cs.History(list, "c0")
	if err != nil {
		t.Fatal(err)
	}
	got := make([]string, len(h.Changes))
	for i, c := range h.Changes {
		got[i] = fmt.Sprintf("%s %s->%s by %s", c.Channel, c.From, c.To, c.By.Kind)
	}
	want := []string{
		"mobile SUBSCRIBED->UNSUBSCRIBED by import",
		"email SUBSCRIBED->UNSUBSCRIBED by import",
		"mobile ->SUBSCRIBED by go-api",
		"email ->SUBSCRIBED by go-api",
	}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("history after a REPLACE (-want +got):\n%s", diff)
	}
	if _, err := cs.History(list, "c1"); err == nil {
		t.Error("a contact the REPLACE left out still has a history")
	}
	if h, _ := cs.History(list, "new"); len(h.Changes) != 2 || h.Changes[0].By != imp {
		t.Errorf("a contact the REPLACE created: %+v, want its two initial states by the import", h.Changes)
	}
}

// The console's reads: lists counted by status, a list's contacts found by
// originalId or e-mail address, a page at a time.
func TestConsoleReads(t *testing.T) {
	st, list := newListStore(t)
	cs := st.Contacts
	by := &Cause{Kind: CauseGoAPI}
	email := func(s string) map[string]*string { return map[string]*string{"email": &s} }
	for _, in := range []ContactInput{
		{OriginalID: "ada", Props: email("Ada@Example.com")},
		{OriginalID: "adam", Props: email("adam@example.com"), Status: StatusUnsubscribed},
		{OriginalID: "bob", Props: email("ada.b@example.com"), MobileStatus: StatusUnsubscribed},
		{OriginalID: "carol", InitialStatus: StatusPending},
	} {
		if _, err := cs.Create(list, in, stampAt(0), by); err != nil {
			t.Fatal(err)
		}
	}
	lists, total := cs.Overview(0, 10)
	want := []ListOverview{{ID: list, Name: "news", Contacts: 4,
		Email:  ChannelCounts{Subscribed: 2, Unsubscribed: 1, Pending: 1},
		Mobile: ChannelCounts{Subscribed: 3, Unsubscribed: 1}}}
	if diff := cmp.Diff(want, lists); diff != "" || total != 1 {
		t.Errorf("overview of %d lists (-want +got):\n%s", total, diff)
	}

	for _, tc := range []struct {
		query         string
		offset, limit int
		want          []string
		matched       int
	}{
		{"", 0, 10, []string{"ada", "adam", "bob", "carol"}, 4},
		{"", 1, 2, []string{"adam", "bob"}, 4},
		{"ada", 0, 10, []string{"ada"}, 1},               // the originalId, exactly
		{"ADA@example.COM", 0, 10, []string{"ada"}, 1},   // an e-mail address in any case
		{"ada.b@example.com", 0, 10, []string{"bob"}, 1}, // by e-mail only
		{"ad", 0, 10, nil, 0},                            // no prefix match
		{"CAROL", 0, 10, nil, 0},                         // originalIds as written
		{"adam@example.com", 1, 10, nil, 1},              // past the matches
	} {
		rows, err := cs.FindContacts(list, tc.query, tc.offset, tc.limit)
		if err != nil {
			t.Fatal(err)
		}
		var got []string
		for _, r := range rows.Rows {
			got = append(got, r.OriginalID)
		}
		if diff := cmp.Diff(tc.want, got); diff != "" || rows.Matched != tc.matched {
			t.Errorf("FindContacts(%q, %d, %d): %d matched, want %d (-want +got):\n%s", tc.query, tc.offset, tc.limit, rows.Matched, tc.matched, diff)
		}
	}
}

// The counts and the e-mail index a list keeps equal what its contacts
// say after every kind of write, a REPLACE and a restore from a snapshot
// included.
func TestListIndexFollowsWrites(t *testing.T) {
	st, list := newListStore(t)
	cs := st.Contacts
	by := &Cause{Kind: CauseGoAPI}
	email := func(s string) map[string]*string { return map[string]*string{"email": &s} }
	check := func(step string) {
		t.Helper()
		lc := cs.lists[list]
		var want listIndex
		wantByEmail, gotByEmail := map[string][]string{}, map[string][]string{}
		for i := range lc.Len() {
			c := lc.At(i)
			want.count(c, 1)
			if e := emailOf(c); e != "" {
				wantByEmail[e] = append(wantByEmail[e], c.OriginalID)
			}
			if lc.Get(c.OriginalID) != c {
				t.Errorf("%s: originalId %q finds %+v, not the contact at %d", step, c.OriginalID, lc.Get(c.OriginalID), i)
			}
		}
		for e := range wantByEmail {
			for _, c := range lc.byEmail(e) {
				gotByEmail[e] = append(gotByEmail[e], c.OriginalID)
			}
			slices.Sort(wantByEmail[e])
			slices.Sort(gotByEmail[e])
		}
		held := 0
		for _, ids := range wantByEmail {
			held += len(ids)
		}
		if diff := cmp.Diff(wantByEmail, gotByEmail, cmpopts.EquateEmpty()); diff != "" || want.email != lc.idx.email || want.mobile != lc.idx.mobile || held != lc.idx.byEmail.n {
			t.Errorf("%s: index %+v %+v, want %+v %+v; e-mail table holds %d, want %d; e-mail index (-want +got):\n%s", step, lc.idx.email, lc.idx.mobile, want.email, want.mobile, lc.idx.byEmail.n, held, diff)
		}
	}
	for i := range 50 {
		if _, err := cs.Create(list, ContactInput{OriginalID: fmt.Sprint("c", i), Props: email(fmt.Sprintf("U%d@x.org", i%7))}, stampAt(0), by); err != nil {
			t.Fatal(err)
		}
	}
	check("created")
	for i := range 20 {
		if _, err := cs.SetStatus(list, fmt.Sprint("c", i), StatusUnsubscribed, []string{"", StatusUnsubscribed}[i%2], stampAt(1), by); err != nil {
			t.Fatal(err)
		}
		if _, err := cs.UpdateProperties(list, fmt.Sprint("c", i*2), email(fmt.Sprint("new", i, "@x.org")), stampAt(1)); err != nil {
			t.Fatal(err)
		}
	}
	if _, _, err := cs.Upsert(list, ContactInput{OriginalID: "c3", Props: map[string]*string{"email": nil}, Status: StatusSubscribed}, stampAt(2), true, by); err != nil {
		t.Fatal(err)
	}
	check("changed")
	if rows, _ := cs.FindContacts(list, "u1@X.org", 0, 50); rows.Matched != 4 { // c1, c15, c29, c43: c8, c22, c36 have new addresses
		t.Errorf("%d contacts found by u1@X.org, want 4", rows.Matched)
	}
	if err := cs.Replace(list, []ContactInput{{OriginalID: "c5", Props: email("five@x.org")}, {OriginalID: "z", Props: email("five@x.org")}, {OriginalID: "c5", Status: StatusUnsubscribed}}, stampAt(3), by); err != nil {
		t.Fatal(err)
	}
	check("replaced")
	if rows, _ := cs.FindContacts(list, "five@x.org", 0, 50); rows.Matched != 2 || rows.Rows[0].OriginalID != "c5" {
		t.Errorf("found by five@x.org: %+v, want c5 then z", rows)
	}
}
