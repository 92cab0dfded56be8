package state

import (
	"fmt"
	"slices"
	"strconv"
	"testing"
)

// rec is a contact record of list 9 as a snapshot or a journal holds it.
func rec(id int64, oid, email, status string) *ContactRecord {
	props := map[string]string{"2": "name of " + oid}
	if email != "" {
		props[strconv.Itoa(EmailAttributeID)] = email
	}
	return &ContactRecord{ID: id, OriginalID: oid, Properties: props, Status: status, MobileStatus: StatusSubscribed,
		DateCreated: "2026-01-02T15:04:05Z", DateModified: "2026-01-02T15:04:0" + strconv.FormatInt(id%10, 10) + "Z"}
}

// listDump is what a list answers: its order with each contact's fields,
// each contact found by originalId and by e-mail address, and its counts.
func listDump(t *testing.T, lc *ListContacts) string {
	t.Helper()
	var s string
	for pos, c := range lc.order {
		if got := lc.Get(c.OriginalID); got != c {
			t.Errorf("Get(%q) = %v, want the contact at position %d", c.OriginalID, got, pos)
		}
		if email := emailOf(c); email != "" && !slices.Contains(lc.byEmail(email), c) {
			t.Errorf("byEmail(%q) lacks %q", email, c.OriginalID)
		}
		s += fmt.Sprintf("%d %s %s %s/%s %s %s\n", c.ID, c.OriginalID, c.Props, c.Status(), c.MobileStatus(), c.DateCreated(), c.DateModified())
	}
	return s + fmt.Sprintf("counts %+v %+v, by e-mail %d, by id %d", lc.idx.email, lc.idx.mobile, lc.idx.byEmail.n, lc.byID.n)
}

// A journal replayed by appending, its tables built once at the end, gives
// the list that putting each record in turn gives (put's place and
// replacement rules), whatever the snapshot before it held.
func TestJournalReplayEqualsPuttingEachRecord(t *testing.T) {
	for _, tt := range []struct {
		name     string
		snapshot []*ContactRecord
		journal  []*ContactRecord
	}{
		{"journal only", nil, []*ContactRecord{rec(1, "a", "a@x", StatusSubscribed), rec(2, "b", "", StatusSubscribed), rec(3, "c", "C@x", StatusUnsubscribed)}},
		{"snapshot only", []*ContactRecord{rec(1, "a", "a@x", StatusSubscribed), rec(2, "b", "b@x", StatusUnsubscribed)}, nil},
		{"status changes of snapshot contacts", []*ContactRecord{rec(1, "a", "a@x", StatusSubscribed), rec(2, "b", "b@x", StatusSubscribed)},
			[]*ContactRecord{rec(2, "b", "b@x", StatusUnsubscribed), rec(1, "a", "a@x", StatusUnsubscribed), rec(2, "b", "b@x", StatusSubscribed)}},
		{"address changed, removed and shared", []*ContactRecord{rec(1, "a", "a@x", StatusSubscribed), rec(2, "b", "b@x", StatusSubscribed), rec(3, "c", "", StatusSubscribed)},
			[]*ContactRecord{rec(1, "a", "new@x", StatusSubscribed), rec(2, "b", "", StatusSubscribed), rec(3, "c", "new@x", StatusSubscribed), rec(4, "d", "b@x", StatusSubscribed)}},
		{"new contacts between changes", []*ContactRecord{rec(1, "a", "a@x", StatusSubscribed)},
			[]*ContactRecord{rec(5, "e", "e@x", StatusSubscribed), rec(1, "a", "a@x", StatusUnsubscribed), rec(6, "f", "", StatusSubscribed), rec(5, "e", "E2@x", StatusUnsubscribed)}},
		{"mostly replacements", nil, slices.Concat(
			[]*ContactRecord{rec(1, "a", "a@x", StatusSubscribed), rec(2, "b", "b@x", StatusSubscribed)},
			slices.Repeat([]*ContactRecord{rec(1, "a", "a@x", StatusUnsubscribed), rec(2, "b", "b@x", StatusUnsubscribed), rec(1, "a", "a@x", StatusSubscribed)}, 5))},
	} {
		t.Run(tt.name, func(t *testing.T) {
			want := &ListContacts{}
			b := NewBuilder()
			for i, r := range tt.snapshot {
				f := FieldsOf(r)
				if err := b.AppendContact("9", i, &f); err != nil {
					t.Fatal(err)
				}
				want.put(mustContact(t, b, r))
			}
			for _, r := range tt.journal {
				f := FieldsOf(r)
				if err := b.PutContact(9, &f, func() string { return "journal" }); err != nil {
					t.Fatal(err)
				}
				want.put(mustContact(t, b, r))
			}
			got := b.Contacts[9]
			if err := b.buildTables(9, got); err != nil {
				t.Fatal(err)
			}
			if g, w := listDump(t, got), listDump(t, want); g != w {
				t.Errorf("replayed:\n%s\nput in turn:\n%s", g, w)
			}
		})
	}
}

func mustContact(t *testing.T, b *Builder, r *ContactRecord) *Contact {
	t.Helper()
	f := FieldsOf(r)
	c, err := b.contactOf(&f, func() string { return r.OriginalID })
	if err != nil {
		t.Fatal(err)
	}
	return c
}

// An originalId repeated within a snapshot is an error still; the same
// originalId again in the journal is a change.
func TestSnapshotRepeatedOriginalIDIsAnError(t *testing.T) {
	for _, tt := range []struct {
		name     string
		snapshot []string
		journal  []string
		wantErr  bool
	}{
		{"repeated in the snapshot", []string{"a", "b", "a"}, nil, true},
		{"repeated in the snapshot, journal after", []string{"a", "a"}, []string{"b"}, true},
		{"repeated in the journal", []string{"a"}, []string{"a", "a"}, false},
	} {
		t.Run(tt.name, func(t *testing.T) {
			b := NewBuilder()
			for i, oid := range tt.snapshot {
				f := FieldsOf(rec(int64(i+1), oid, "", StatusSubscribed))
				if err := b.AppendContact("9", i, &f); err != nil {
					t.Fatal(err)
				}
			}
			for i, oid := range tt.journal {
				f := FieldsOf(rec(int64(i+10), oid, "", StatusSubscribed))
				if err := b.PutContact(9, &f, func() string { return "journal" }); err != nil {
					t.Fatal(err)
				}
			}
			err := b.buildTables(9, b.Contacts[9])
			if (err != nil) != tt.wantErr {
				t.Errorf("buildTables: %v, want an error: %v", err, tt.wantErr)
			}
		})
	}
}
