package provider_test

import (
	"fmt"
	"strconv"
	"strings"
	"testing"

	"github.com/rms-labs/terraform-provider-rms/internal/acctest"
	"github.com/rms-labs/terraform-provider-rms/internal/emulator"
)

// routeContactPages is the listing of a list's contacts, as the emulator
// counts it.
const routeContactPages = "GET /rest/{customerid}/lists/{id}/contacts"

// largeFileRow is row i of the file of TestAccListContactsLargeFile:
// version 1 changes the firstname of every changedEvery-th row.
func largeFileRow(i, version int) (id string, props map[string]string) {
	id = fmt.Sprintf("c%05d", i)
	first := "First " + strconv.Itoa(i)
	if version == 1 && i%largeChangedEvery == 0 {
		first += " (changed)"
	}
	return id, map[string]string{"email": id + "@example.com", "firstname": first, "lastname": "Last"}
}

const (
	largeRows         = 5000
	largeChangedEvery = 33 // 152 rows: above batch_threshold, so by import
)

func largeFile(version int) string {
	var b strings.Builder
	b.WriteString("originalId,email,firstname,lastname\n")
	for i := range largeRows {
		id, p := largeFileRow(i, version)
		fmt.Fprintf(&b, "%s,%s,%s,%s\n", id, p["email"], p["firstname"], p["lastname"])
	}
	return b.String()
}

// TestAccListContactsLargeFile runs a source file of 5,000 contacts
// through the paths of a large list, small: the listing is held against
// the file (only contacts that differ keep their properties), pages are
// read ahead, and a service that ignores paging answers the whole list at
// once (its answer is streamed). A no-change plan lists the list once,
// stopping at X-Total-Count without asking for a page past the end; an
// apply of a change written by import lists it twice in all (the plan's
// refresh, then the apply's own listing before it writes), never a third
// time after its import batches when they report every row done.
func TestAccListContactsLargeFile(t *testing.T) {
	acctest.SkipUnlessAcceptance(t)
	cases := []struct {
		name string
		wire string
		// pages of one listing: with X-Total-Count the listing stops at
		// the end; a service ignoring paging answers everything at page
		// 0, and page 1 (the same answer) shows it is all.
		pages int64
	}{
		{name: "paged", pages: largeRows / 1000},
		{name: "paging ignored", wire: emulator.WirePagingIgnored, pages: 2},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			var opts emulator.Options
			if c.wire != "" {
				w, err := emulator.ParseWire(c.wire)
				if err != nil {
					t.Fatal(err)
				}
				opts.Wire = w
			}
			env := acctest.NewEnv(t, opts)
			listID := newTestList(t, env)
			preload := make([]emulator.Contact, largeRows)
			for i := range preload {
				id, p := largeFileRow(i, 0)
				preload[i] = emulator.Contact{OriginalID: id, Properties: p}
			}
			n, _ := strconv.ParseInt(listID, 10, 64)
			if err := env.Emulator.UpsertContacts(n, preload); err != nil {
				t.Fatal(err)
			}
			ws := acctest.NewWorkspace(t)
			ws.Write("contacts.csv", largeFile(0))
			ws.Configure(env, fmt.Sprintf(`resource "rms_list_contacts" "all" {
  list_id     = %q
  source_file = "${path.module}/contacts.csv"
}
`, listID))
			pages := func() int64 { return env.Emulator.Requests().ByRoute[routeContactPages] }
			writes := func() int64 { r := env.Emulator.Requests(); return r.ByMethod["POST"] + r.ByMethod["PUT"] }

			before, wrote := pages(), writes()
			if out, code := ws.Run("apply", "-auto-approve", "-no-color"); code != 0 {
				t.Fatalf("first apply (exit %d):\n%s", code, out)
			}
			if w := writes() - wrote; w != 0 {
				t.Errorf("the first apply of a list already as the file wants it wrote %d times", w)
			}
			if got := pages() - before; got > 2*c.pages {
				t.Errorf("the first apply read %d pages, want at most %d (two listings)", got, 2*c.pages)
			}

			before = pages()
			if out, code := ws.Run("plan", "-detailed-exitcode", "-no-color"); code != 0 {
				t.Fatalf("the no-change plan is not empty (exit %d):\n%s", code, out)
			}
			if got := pages() - before; got != c.pages {
				t.Errorf("the no-change plan read %d pages, want %d (one listing)", got, c.pages)
			}

			ws.Write("contacts.csv", largeFile(1))
			before = pages()
			out, code := ws.Run("apply", "-auto-approve", "-no-color")
			if code != 0 || !acctest.Contains(out, "1 changed") {
				t.Fatalf("the apply of a 3 %% change (exit %d):\n%s", code, out)
			}
			if got := pages() - before; got != 2*c.pages {
				t.Errorf("the apply of a change read %d pages, want %d (the plan's listing and the apply's own, none after the import)", got, 2*c.pages)
			}
			for i := 0; i < largeRows; i += largeChangedEvery {
				id, p := largeFileRow(i, 1)
				if got := getContact(t, env, listID, id); got.Properties["firstname"] != p["firstname"] {
					t.Fatalf("contact %s has firstname %q after the apply, want %q", id, got.Properties["firstname"], p["firstname"])
				}
			}
			if out, code := ws.Run("plan", "-detailed-exitcode", "-no-color"); code != 0 {
				t.Fatalf("the plan after the change is not empty (exit %d):\n%s", code, out)
			}
		})
	}
}
