package contactsync

import (
	"fmt"
	"math/rand/v2"
	"slices"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/rms-labs/terraform-provider-rms/internal/client"
)

// The digests in state (desired_sha256, service_sha256) must not change
// with the way contacts are held: a state written by a provider that held
// them in maps plans empty with the packed book. The figures were computed
// by that provider (before the book) for these contacts.
func TestBookDigestsUnchanged(t *testing.T) {
	desired := []Desired{
		{ID: "c", Props: map[string]string{"email": "c@x", "firstname": "Cy", "lastname": "Ce"}},
		{ID: "a", Props: map[string]string{"email": "a@x", "firstname": "Ann", "lastname": ""}, Email: sub},
		{ID: "b", Props: map[string]string{"email": "b@x", "firstname": "", "lastname": "Bo"}, Mobile: unsub},
	}
	book := fileBook(t, []string{"lastname", "email", "firstname"}, desired)
	service := map[string]ServiceContact{
		"a": {Props: map[string]string{"email": "a@x", "firstname": "Ann", "other": "o"}, Email: sub},
		"b": {Props: map[string]string{"email": "b@y", "lastname": "Bo"}, Email: sub, Mobile: unsub},
	}
	if got, want := DesiredDigest(book), "4baa400ad7b6a08b49fda738ccd4152f24131eeac352b9d9675a80eb28308852"; got != want {
		t.Errorf("DesiredDigest = %s, want %s", got, want)
	}
	got := ServiceDigest(book, listAgainst(book, service), Record{File: true}.Lookup, func(string) bool { return false })
	if want := "75661cfa4dbb4a5912488ec898af997fe5cfdebb0994bbd525c76408af0644cb"; got != want {
		t.Errorf("ServiceDigest = %s, want %s", got, want)
	}
}

// A file's book with a listing held against it (properties kept only where
// they differ) gives the same diff, digests and counts as the same contacts
// held whole, for lists where every kind of difference occurs.
func TestBookMatchesContactsHeldWhole(t *testing.T) {
	cols := []string{"email", "firstname", "lastname"}
	statuses := []string{"", sub, unsub, "PENDING"}
	for seed := range uint64(40) {
		t.Run(fmt.Sprint("seed ", seed), func(t *testing.T) {
			rnd := rand.New(rand.NewPCG(seed, 7))
			value := func() string { return []string{"", "x", "y"}[rnd.IntN(3)] }
			var desired []Desired
			service := map[string]ServiceContact{}
			for i := range 60 {
				id := fmt.Sprintf("c%03d", rnd.IntN(200)+i*1000)
				w := Desired{ID: id, Props: map[string]string{}, Email: statuses[rnd.IntN(3)], Mobile: statuses[rnd.IntN(3)]}
				for _, c := range cols {
					w.Props[c] = value()
				}
				desired = append(desired, w)
				switch rnd.IntN(4) {
				case 0: // not in the list
				case 1: // as the file wants it, but maybe for statuses
					p := map[string]string{"other": value()}
					for k, v := range w.Props {
						if v != "" {
							p[k] = v
						}
					}
					service[id] = ServiceContact{Props: p, Email: statuses[rnd.IntN(4)], Mobile: statuses[rnd.IntN(4)]}
				default:
					p := map[string]string{}
					for _, c := range cols {
						if v := value(); v != "" {
							p[c] = v
						}
					}
					service[id] = ServiceContact{Props: p, Email: statuses[rnd.IntN(4)], Mobile: statuses[rnd.IntN(4)]}
				}
			}
			for i := range 20 { // contacts the file does not name
				service[fmt.Sprintf("u%02d", i)] = ServiceContact{Props: map[string]string{"email": value()}, Email: statuses[rnd.IntN(4)], Mobile: statuses[rnd.IntN(4)]}
			}
			book := fileBook(t, cols, desired)
			whole := BookOf(book.Contacts())
			compact, held := listAgainst(book, service), ServiceListOf(service)
			applied := Record{File: true, Contacts: map[string][2]string{desired[0].ID: {unsub, ""}}}
			for _, exclusive := range []bool{false, true} {
				opts := Options{Applied: applied.Lookup, Exclusive: exclusive, AllowResubscribe: seed%5 == 0}
				if diff := cmp.Diff(Compare(whole, held, opts), Compare(book, compact, opts)); diff != "" {
					t.Errorf("exclusive=%v: diff (-whole +book):\n%s", exclusive, diff)
				}
			}
			allow := func(id string) bool { return strings.HasSuffix(id, "7") }
			if a, b := serviceDigestWhole(whole.Contacts(), cols, service, applied.Lookup, allow), ServiceDigest(book, compact, applied.Lookup, allow); a != b {
				t.Errorf("ServiceDigest: whole %s, book %s", a, b)
			}
			if a, b := UnmanagedSubscribed(held, whole), UnmanagedSubscribed(compact, book); a != b {
				t.Errorf("UnmanagedSubscribed: whole %d, book %d", a, b)
			}
			if compact.Len() != len(service) {
				t.Errorf("Len = %d, want %d", compact.Len(), len(service))
			}
			n := 0
			for id, c := range compact.All() {
				n++
				want := service[id]
				if c.Email != want.Email || c.Mobile != want.Mobile {
					t.Errorf("All: %s has statuses %q/%q, want %q/%q", id, c.Email, c.Mobile, want.Email, want.Mobile)
				}
			}
			if n != len(service) {
				t.Errorf("All yielded %d contacts, want %d", n, len(service))
			}
		})
	}
}

// serviceDigestWhole is ServiceDigest as it was computed from contacts
// held whole (the properties of every contact), the reference the book's
// digest must equal.
func serviceDigestWhole(desired []Desired, columns []string, service map[string]ServiceContact, applied AppliedStatuses, allow func(string) bool) string {
	d := newContactsDigest(columns)
	for _, w := range desired {
		have, ok := service[w.ID]
		if !ok {
			d.absent(w.ID)
			continue
		}
		ae, am := applied(w.ID)
		d.add(w.ID, have.Props, EffectiveStatus(w.Email, ae, have.Email, allow(w.ID)), EffectiveStatus(w.Mobile, am, have.Mobile, allow(w.ID)))
	}
	return d.sum()
}

// A listing held against a book keeps the properties of the contacts that
// differ only.
func TestServiceListKeepsOnlyDifferences(t *testing.T) {
	book := fileBook(t, []string{"email"}, []Desired{
		{ID: "same", Props: map[string]string{"email": "s@x"}}, {ID: "drift", Props: map[string]string{"email": "d@x"}},
	})
	s := listAgainst(book, map[string]ServiceContact{
		"same":  {Props: map[string]string{"email": "s@x", "unmanaged": "u"}, Email: sub},
		"drift": {Props: map[string]string{"email": "other@x"}, Email: unsub},
		"other": {Props: map[string]string{"email": "o@x"}, Mobile: sub},
	})
	same, _ := s.Get("same")
	drift, _ := s.Get("drift")
	other, _ := s.Get("other")
	if !same.Same || same.Props != nil || same.Email != sub {
		t.Errorf("same = %+v, want Same, no properties, SUBSCRIBED", same)
	}
	if drift.Same || drift.Props["email"] != "other@x" || drift.Email != unsub {
		t.Errorf("drift = %+v, want its properties kept", drift)
	}
	if other.Props != nil || other.Mobile != sub {
		t.Errorf("other = %+v, want statuses only", other)
	}
	if got := s.Unnamed(book); !cmp.Equal(got, []string{"other"}) {
		t.Errorf("Unnamed = %v", got)
	}
}

func TestBookRefusesDuplicateRows(t *testing.T) {
	_, err := ParseSourceFile(t.Context(), strings.NewReader("originalId,email\nb,1\na,2\nb,3\n"), FileOptions{}, fakeAttributes{"1": "email"})
	if err == nil || !strings.Contains(err.Error(), `rows 2 and 4 both name contact "b"`) {
		t.Fatalf("error %v, want rows 2 and 4 named", err)
	}
}

func TestAfterImports(t *testing.T) {
	both := client.SubscriptionStatus{Status: unsub, MobileStatus: unsub}
	cases := []struct {
		name     string
		changes  []Change
		want     []Change
		needRead bool
	}{
		{name: "values and an e-mail unsubscription: the imports did them", changes: []Change{{ID: "a", Set: map[string]string{"email": "x"}, Status: client.SubscriptionStatus{Status: unsub}}}},
		{name: "a removal and statuses an import cannot make are left", changes: []Change{{ID: "a", Set: map[string]string{"email": "x"}, Remove: []string{"firstname"}, Status: client.SubscriptionStatus{Status: sub, MobileStatus: unsub}}},
			want: []Change{{ID: "a", Remove: []string{"firstname"}, Status: client.SubscriptionStatus{Status: sub, MobileStatus: unsub}}}},
		{name: "exclusive: e-mail by the import, mobile left", changes: []Change{{ID: "u", Unsubscribe: true}, {ID: "v", Unsubscribe: true, Status: client.SubscriptionStatus{Status: unsub}}},
			want: []Change{{ID: "u", Unsubscribe: true, Status: client.SubscriptionStatus{MobileStatus: unsub}}}},
		{name: "a create that must start unsubscribed is left whole", changes: []Change{{ID: "n", Create: true, Status: both}},
			want: []Change{{ID: "n", Create: true, Status: both}}},
		{name: "a create without statuses is done", changes: []Change{{ID: "n", Create: true, Set: map[string]string{"email": "x"}}}},
		{name: "a create with a status needs the list read back", changes: []Change{{ID: "n", Create: true, Status: client.SubscriptionStatus{Status: sub}}}, needRead: true},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			got, needRead := AfterImports(slices.Values(c.changes))
			if diff := cmp.Diff(c.want, got); diff != "" || needRead != c.needRead {
				t.Errorf("needRead %v, want %v; left (-want +got):\n%s", needRead, c.needRead, diff)
			}
		})
	}
}
