package contactsync

import (
	"context"
	"slices"
	"sort"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/rms-labs/terraform-provider-rms/internal/client"
)

// sub and unsub are declared in contact_consent_test.go.

func TestDiffContacts(t *testing.T) {
	applied := func(e, m string) AppliedStatuses { return func(string) (string, string) { return e, m } }
	cases := []struct {
		name    string
		desired []Desired
		service map[string]ServiceContact
		opts    Options
		want    Diff
	}{
		{
			name:    "new contact: created with its non-empty values and statuses",
			desired: []Desired{{ID: "a", Props: map[string]string{"email": "a@x", "firstname": ""}, Email: unsub}},
			want:    Diff{Changes: []Change{{ID: "a", Create: true, Set: map[string]string{"email": "a@x"}, Status: client.SubscriptionStatus{Status: unsub}}}},
		},
		{
			name:    "equal contact: nothing",
			desired: []Desired{{ID: "a", Props: map[string]string{"email": "a@x"}, Email: sub}},
			service: map[string]ServiceContact{"a": {Props: map[string]string{"email": "a@x", "other": "kept"}, Email: sub}},
		},
		{
			name:    "changed and removed values",
			desired: []Desired{{ID: "a", Props: map[string]string{"email": "new@x", "lastname": ""}}},
			service: map[string]ServiceContact{"a": {Props: map[string]string{"email": "a@x", "lastname": "L"}}},
			want:    Diff{Changes: []Change{{ID: "a", Set: map[string]string{"email": "new@x"}, Remove: []string{"lastname"}}}},
		},
		{
			name:    "opt-out made elsewhere is honoured",
			desired: []Desired{{ID: "a", Email: sub}},
			service: map[string]ServiceContact{"a": {Email: unsub}},
			opts:    Options{Applied: applied(sub, "")},
			want:    Diff{OptedOut: []string{"a"}},
		},
		{
			name:    "opt-out undone with allow_resubscribe",
			desired: []Desired{{ID: "a", Email: sub}},
			service: map[string]ServiceContact{"a": {Email: unsub}},
			opts:    Options{Applied: applied(sub, ""), AllowResubscribe: true},
			want:    Diff{Changes: []Change{{ID: "a", Status: client.SubscriptionStatus{Status: sub}}}, Resubscribed: map[string]Channels{"a": {Email: true}}},
		},
		{
			name:    "re-subscription the configuration asks for",
			desired: []Desired{{ID: "a", Email: sub}},
			service: map[string]ServiceContact{"a": {Email: unsub}},
			opts:    Options{Applied: applied(unsub, "")},
			want:    Diff{Changes: []Change{{ID: "a", Status: client.SubscriptionStatus{Status: sub}}}},
		},
		{
			name:    "a contact an import just created takes the desired status",
			desired: []Desired{{ID: "a", Email: sub}},
			service: map[string]ServiceContact{"a": {Email: unsub}},
			opts:    Options{Fresh: map[string]bool{"a": true}},
			want:    Diff{Changes: []Change{{ID: "a", Status: client.SubscriptionStatus{Status: sub}}}},
		},
		{
			name:    "exclusive unsubscribes unnamed subscribed contacts only, on the channels still subscribed",
			desired: []Desired{{ID: "a"}},
			service: map[string]ServiceContact{"a": {Email: sub}, "b": {Email: sub, Mobile: unsub}, "c": {Email: unsub, Mobile: unsub}, "d": {Email: unsub}},
			opts:    Options{Exclusive: true},
			want: Diff{Changes: []Change{
				{ID: "b", Unsubscribe: true, Status: client.SubscriptionStatus{Status: unsub}},
				{ID: "d", Unsubscribe: true, Status: client.SubscriptionStatus{MobileStatus: unsub}},
			}},
		},
		{
			name: "opt-outs of a replaced list: a new contact starts unsubscribed on the channels it had left",
			desired: []Desired{
				{ID: "e", Email: sub, Mobile: sub}, {ID: "b", Email: sub}, {ID: "m"}, {ID: "u", Email: unsub}, {ID: "s", Email: sub},
			},
			service: map[string]ServiceContact{"s": {Email: sub}},
			opts:    Options{KeptOptOuts: map[string][2]bool{"e": {true, false}, "b": {true, true}, "m": {false, true}, "u": {true, false}, "s": {true, false}}},
			want: Diff{Changes: []Change{
				{ID: "e", Create: true, Set: map[string]string{}, Status: client.SubscriptionStatus{Status: unsub, MobileStatus: sub}},
				{ID: "b", Create: true, Set: map[string]string{}, Status: client.SubscriptionStatus{Status: unsub, MobileStatus: unsub}},
				{ID: "m", Create: true, Set: map[string]string{}, Status: client.SubscriptionStatus{MobileStatus: unsub}},
				{ID: "u", Create: true, Set: map[string]string{}, Status: client.SubscriptionStatus{Status: unsub}},
			}, Kept: []string{"e", "b", "m"}},
		},
		{
			name:    "opt-outs of a replaced list give way to allow_resubscribe",
			desired: []Desired{{ID: "e", Email: sub}},
			opts:    Options{KeptOptOuts: map[string][2]bool{"e": {true, true}}, AllowResubscribe: true},
			want:    Diff{Changes: []Change{{ID: "e", Create: true, Set: map[string]string{}, Status: client.SubscriptionStatus{Status: sub}}}},
		},
		{
			name:    "not exclusive: unnamed contacts are left alone",
			desired: []Desired{{ID: "a"}},
			service: map[string]ServiceContact{"a": {}, "b": {Email: sub}},
		},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			got := Compare(BookOf(c.desired), ServiceListOf(c.service), c.opts)
			if diff := cmp.Diff(c.want, got); diff != "" {
				t.Errorf("diff (-want +got):\n%s", diff)
			}
		})
	}
}

func TestImportPlan(t *testing.T) {
	changes := []Change{
		{ID: "new", Create: true, Set: map[string]string{"email": "n@x"}, Status: client.SubscriptionStatus{Status: sub}},
		{ID: "new-unsub", Create: true, Status: client.SubscriptionStatus{Status: unsub}},
		{ID: "changed", Set: map[string]string{"firstname": "F"}, Remove: []string{"lastname"}},
		{ID: "opted", Status: client.SubscriptionStatus{Status: unsub}},
		{ID: "mobile", Status: client.SubscriptionStatus{MobileStatus: unsub}},
		{ID: "stranger", Unsubscribe: true, Status: client.SubscriptionStatus{Status: unsub, MobileStatus: unsub}},
		// E-mail unsubscribed already (an apply cut short after its
		// import): no second import row, its mobile goes by a single call.
		{ID: "half-done", Unsubscribe: true, Status: client.SubscriptionStatus{MobileStatus: unsub}},
	}
	rows, unsubscribe := ImportPlan(slices.Values(changes))
	created := CreatedBy(slices.Values(changes))
	var addIDs []string
	for _, c := range changes {
		if row, ok := addRow(c); ok {
			addIDs = append(addIDs, row.ID)
		}
	}
	if diff := cmp.Diff([]string{"new", "changed"}, addIDs); diff != "" || rows != len(addIDs) {
		t.Errorf("ADD rows (-want +got):\n%s", diff)
	}
	if diff := cmp.Diff([]string{"opted", "stranger"}, unsubscribe); diff != "" {
		t.Errorf("UNSUBSCRIBE rows (-want +got):\n%s", diff)
	}
	if diff := cmp.Diff(map[string]bool{"new": true}, created); diff != "" {
		t.Errorf("created (-want +got):\n%s", diff)
	}
}

func TestContactDigests(t *testing.T) {
	desired := []Desired{{ID: "a", Props: map[string]string{"email": "a@x", "firstname": ""}, Email: sub}}
	cols := []string{"email", "firstname"}
	book := fileBook(t, cols, desired)
	want := DesiredDigest(book)
	cases := []struct {
		name    string
		service map[string]ServiceContact
		applied AppliedStatuses
		equal   bool
	}{
		{"in line", map[string]ServiceContact{"a": {Props: map[string]string{"email": "a@x", "other": "x"}, Email: sub}}, nil, true},
		{"honoured opt-out is in line", map[string]ServiceContact{"a": {Props: map[string]string{"email": "a@x"}, Email: unsub}}, Record{File: true}.Lookup, true},
		{"status not shown is in line", map[string]ServiceContact{"a": {Props: map[string]string{"email": "a@x"}}}, nil, true},
		{"value drift", map[string]ServiceContact{"a": {Props: map[string]string{"email": "b@x"}, Email: sub}}, nil, false},
		{"value that should be empty", map[string]ServiceContact{"a": {Props: map[string]string{"email": "a@x", "firstname": "F"}, Email: sub}}, nil, false},
		{"absent", map[string]ServiceContact{}, nil, false},
		{"unsubscribed by the file, then wanted again", map[string]ServiceContact{"a": {Props: map[string]string{"email": "a@x"}, Email: unsub}},
			Record{File: true, Contacts: map[string][2]string{"a": {unsub, ""}}}.Lookup, false},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			got := ServiceDigest(book, listAgainst(book, c.service), c.applied, func(string) bool { return false })
			if (got == want) != c.equal {
				t.Errorf("service digest equal to desired = %v, want %v", got == want, c.equal)
			}
		})
	}
}

// fakeAttributes are an account's attributes (id -> name) for the file
// reader, as the attribute cache resolves them.
type fakeAttributes map[string]string

func (f fakeAttributes) NameOf(_ context.Context, key string) (string, bool, error) { //nolint:unparam // the interface's signature
	if IsAttributeID(key) {
		n, ok := f[key]
		return n, ok, nil
	}
	return key, true, nil
}

func (f fakeAttributes) AttributeOf(ctx context.Context, key string) (string, bool, error) {
	if IsAttributeID(key) {
		return f.NameOf(ctx, key)
	}
	for _, n := range f {
		if n == key {
			return key, true, nil
		}
	}
	return "", false, nil
}

func (f fakeAttributes) Spelling(_ context.Context, name string) (string, error) {
	for _, n := range f {
		if n != name && strings.EqualFold(n, name) {
			return n, nil
		}
	}
	return "", nil
}

func (f fakeAttributes) Known(context.Context) ([]string, error) {
	ids := make([]string, 0, len(f))
	for id := range f {
		ids = append(ids, id)
	}
	sort.Slice(ids, func(i, j int) bool { return len(ids[i]) < len(ids[j]) || len(ids[i]) == len(ids[j]) && ids[i] < ids[j] })
	out := make([]string, len(ids))
	for i, id := range ids {
		out[i] = f[id]
	}
	return out, nil
}

func TestParseSourceFile(t *testing.T) {
	nameOf := fakeAttributes{"1": "email", "3": "firstname", "4": "lastname"}
	cases := []struct {
		name, file string
		opts       FileOptions
		attrs      fakeAttributes // nameOf when nil
		want       FileContacts
		// wantUnknown are the columns of no attribute, kept under their
		// own name (the apply confirms them before its first write).
		wantUnknown []string
		wantErr     string
	}{
		{
			name: "columns by name and id, statuses, rows sorted",
			file: "originalId;email;3;email_status\nb;b@x;B;unsubscribed\na;a@x;;\n",
			opts: FileOptions{Delimiter: ";"},
			want: FileContacts{Columns: []string{"email", "firstname"}, Contacts: []Desired{
				{ID: "a", Props: map[string]string{"email": "a@x", "firstname": ""}},
				{ID: "b", Props: map[string]string{"email": "b@x", "firstname": "B"}, Email: unsub},
			}},
		},
		{
			name: "identity column by name",
			file: "\ufeffkey,email\nk1,k@x\n",
			opts: FileOptions{IdentityColumn: "key"},
			want: FileContacts{Columns: []string{"email"}, Contacts: []Desired{{ID: "k1", Props: map[string]string{"email": "k@x"}}}},
		},
		{
			name: "identity column that is an attribute is written as it",
			file: "email,3\na@x,Ann\nb@x,\n",
			opts: FileOptions{IdentityColumn: "email"},
			want: FileContacts{Columns: []string{"email", "firstname"}, Contacts: []Desired{
				{ID: "a@x", Props: map[string]string{"email": "a@x", "firstname": "Ann"}},
				{ID: "b@x", Props: map[string]string{"email": "b@x", "firstname": ""}},
			}},
		},
		{
			name: "identity column by attribute id",
			file: "1\na@x\n",
			opts: FileOptions{IdentityColumn: "1"},
			want: FileContacts{Columns: []string{"email"}, Contacts: []Desired{{ID: "a@x", Props: map[string]string{"email": "a@x"}}}},
		},
		{name: "identity attribute named again", file: "email,1\na@x,b@x\n", opts: FileOptions{IdentityColumn: "email"}, wantErr: `column "1" names attribute "email" a second time`},
		{name: "no identity column", file: "email\nx@x\n", wantErr: `no identity column "originalId"`},
		{name: "wrong delimiter", file: "originalId;email\na;x@x\n", wantErr: `no identity column "originalId" under delimiter "," (its columns: originalId;email); with delimiter = ";" it has: set delimiter = ";"`},
		{name: "tab delimiter hint", file: "originalId\temail\na\tx@x\n", opts: FileOptions{Delimiter: ";"}, wantErr: `set delimiter = "\t"`},
		{name: "not UTF8", file: "originalId,lastname\na,M\xfcller\n", opts: FileOptions{Path: "c.csv"}, wantErr: `the file "c.csv" is not valid UTF8: line 2 holds bytes that are not UTF8 text; nothing was sent to the service. If it was saved by Excel or another Windows program, set encoding = "ANSI"`},
		{name: "duplicate contact", file: "originalId\na\na\n", wantErr: `rows 2 and 3 both name contact "a"`},
		{name: "empty identity", file: "originalId,email\n,x@x\n", wantErr: "row 2 has an empty identity"},
		{name: "bad status", file: "originalId,email_status\na,MAYBE\n", wantErr: `status "MAYBE"`},
		{
			name: "unknown attribute id", file: "originalId,99\na,x\n", wantUnknown: []string{"99"},
			want: FileContacts{Columns: []string{"99"}, Contacts: []Desired{{ID: "a", Props: map[string]string{"99": "x"}}}},
		},
		{name: "same attribute twice", file: "originalId,firstname,3\na,x,y\n", wantErr: `names attribute "firstname" a second time`},
		{name: "empty file", file: "", wantErr: "the file is empty"},
		// Column names are matched exactly, as the service matches them: a
		// column differing only in case is refused, naming the spelling.
		{name: "status column in another case", file: "originalId,Email_Status\na,SUBSCRIBED\n", wantErr: `column "Email_Status" is not the status column "email_status" (column names are matched exactly, in letter case too, as the service matches them): rename the column to "email_status"`},
		{name: "mobile status column in another case", file: "originalId,MOBILE_STATUS\na,\n", wantErr: `rename the column to "mobile_status"`},
		{
			name: "attribute in another case", file: "originalId,FirstName\na,Ann\n", wantUnknown: []string{"FirstName"},
			want: FileContacts{Columns: []string{"FirstName"}, Contacts: []Desired{{ID: "a", Props: map[string]string{"FirstName": "Ann"}}}},
		},
		{name: "identity column in another case", file: "OriginalID,email\na,a@x\n", wantErr: `the header row has no identity column "originalId": column "OriginalID" differs only in letter case (column names are matched exactly, in letter case too, as the service matches them); rename the column to "originalId", or set identity_column = "OriginalID"`},
		// A column that is no attribute of the account (nor one in
		// another case) is kept under its own name: the attribute may be
		// made earlier in the apply, which refuses the file if it is not.
		{
			name: "no such attribute", file: "originalId,firstname,shoe_size,hat_size\na,Ann,42,\n", wantUnknown: []string{"shoe_size", "hat_size"},
			want: FileContacts{Columns: []string{"firstname", "hat_size", "shoe_size"}, Contacts: []Desired{{ID: "a", Props: map[string]string{"firstname": "Ann", "hat_size": "", "shoe_size": "42"}}}},
		},
		{name: "column named twice", file: "originalId,email_status,email_status\na,,\n", wantErr: `names column "email_status" twice`},
		{name: "status column that is also an attribute", file: "originalId,email_status\na,SUBSCRIBED\n", attrs: fakeAttributes{"1": "email", "7": "email_status"}, wantErr: `column "email_status" is ambiguous`},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			attrs := nameOf
			if c.attrs != nil {
				attrs = c.attrs
			}
			book, err := ParseSourceFile(context.Background(), strings.NewReader(c.file), c.opts, attrs)
			if c.wantErr != "" {
				if err == nil || !strings.Contains(err.Error(), c.wantErr) {
					t.Fatalf("error %v, want one containing %q", err, c.wantErr)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			if diff := cmp.Diff(c.want, fileContactsOf(book)); diff != "" {
				t.Errorf("parsed (-want +got):\n%s", diff)
			}
			if diff := cmp.Diff(c.wantUnknown, book.UnknownColumns); diff != "" {
				t.Errorf("columns of no attribute (-want +got):\n%s", diff)
			}
		})
	}
}

// TestFirstApplyCreatesFromTheBook: a first apply from a source file holds
// as Changes only the creates a rule changed (a suppressed channel, an
// opt-out kept from a replaced list); All yields every create in the
// file's order, each as a map input's Compare would decide it.
func TestFirstApplyCreatesFromTheBook(t *testing.T) {
	rows := []Desired{
		{ID: "a", Props: map[string]string{"email": "a@example.com"}},
		{ID: "b", Props: map[string]string{"email": "b@example.com"}, Email: sub},
		{ID: "c", Props: map[string]string{"email": "c@example.com"}},
		{ID: "d", Props: map[string]string{"email": "d@example.com"}, Email: unsub},
		{ID: "e", Props: map[string]string{"email": "e@example.com"}},
	}
	opts := Options{
		Suppressed:  func(b *Book, i int) Channels { return Channels{Email: b.ID(i) == "b"} },
		KeptOptOuts: map[string][2]bool{"e": {true, false}},
	}
	file := Compare(fileBook(t, []string{"email"}, rows), NewServiceList(nil, false), opts)
	whole := Compare(BookOf(rows), NewServiceList(nil, false), opts)
	if file.Len() != 5 || len(file.Changes) != 2 || file.Changes[0].ID != "b" || file.Changes[1].ID != "e" {
		t.Fatalf("the first apply holds %d changes of %d (%v), want only b and e of 5", len(file.Changes), file.Len(), describeChanges(file.Changes))
	}
	if !slices.EqualFunc(file.List(), whole.List(), Change.Equal) {
		t.Errorf("the creates from the book:\n%s\nwant, as a map input decides them:\n%s", describeChanges(file.List()), describeChanges(whole.List()))
	}
	var ids []string
	for c := range file.All() {
		ids = append(ids, c.ID)
		if c.ID == "c" && c.Values()["email"] != "c@example.com" {
			t.Errorf("c's values %v, want the book's", c.Values())
		}
	}
	if !slices.Equal(ids, []string{"a", "b", "c", "d", "e"}) {
		t.Errorf("All yields %v, want the file's order", ids)
	}
	if add, change, unsubscribe := file.Counts(); add != 5 || change != 0 || unsubscribe != 0 {
		t.Errorf("counts %d, %d, %d; want 5 creates", add, change, unsubscribe)
	}
	if rest := file.withChanges(nil); rest.Len() != 0 {
		t.Errorf("with its changes replaced the diff still yields %d", rest.Len())
	}
}
