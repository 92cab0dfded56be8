package emulator

import (
	"net/http"
	"net/url"
	"strconv"
	"strings"

	"github.com/rms-labs/terraform-provider-rms/internal/emulator/state"
)

// The console's pages: each reads what it shows through the state's read
// methods (state/contacts_overview.go) and hands it to its template. None
// changes anything.

// consolePager is where a page stands among the pages of a table.
type consolePager struct {
	Page, Pages int
	Prev, Next  string // links; "" at either end
}

// pageOf reads ?page= (from 1) and returns it with its offset.
func pageOf(r *http.Request) (page, offset int) {
	page, err := strconv.Atoi(r.URL.Query().Get("page"))
	if err != nil || page < 1 {
		page = 1
	}
	return page, (page - 1) * consolePageSize
}

// pager links the pages of total items around page, keeping the other
// parameters of the request.
func pager(r *http.Request, page, total int) consolePager {
	pages := max(1, (total+consolePageSize-1)/consolePageSize)
	link := func(p int) string {
		q := r.URL.Query()
		q.Set("page", strconv.Itoa(p))
		return r.URL.Path + "?" + q.Encode()
	}
	p := consolePager{Page: page, Pages: pages}
	if page > 1 {
		p.Prev = link(min(page-1, pages))
	}
	if page < pages {
		p.Next = link(page + 1)
	}
	return p
}

type listsData struct {
	consoleFrame
	Lists []listRow
	Total int
	Pager consolePager
}

type listRow struct {
	state.ListOverview
	Link string
}

// listsPage shows the account's lists with their contacts by status.
func (s *consoleAPI) listsPage(r *http.Request) consolePage {
	page, offset := pageOf(r)
	lists, total := s.store.Contacts.Overview(offset, consolePageSize)
	d := listsData{consoleFrame: s.frame("Lists"), Total: total, Pager: pager(r, page, total)}
	for _, l := range lists {
		d.Lists = append(d.Lists, listRow{ListOverview: l, Link: s.listLink(l.ID)})
	}
	return consolePage{name: "lists", data: d}
}

func (s *consoleAPI) listLink(listID int64) string {
	return consoleBase + "/" + strconv.FormatInt(s.opts.CustomerID, 10) + "/lists/" + strconv.FormatInt(listID, 10)
}

func (s *consoleAPI) contactLink(listID int64, originalID string) string {
	return s.listLink(listID) + "/contact?" + url.Values{"originalId": {originalID}}.Encode()
}

type listData struct {
	consoleFrame
	List     state.ListOverview
	Query    string
	Contacts []contactRow
	Matched  int
	Pager    consolePager
}

type contactRow struct {
	state.ContactRow
	Link string
}

// pathList is the list the path names ({id}), or the page that says why
// there is none.
func (s *consoleAPI) pathList(r *http.Request) (int64, state.ListOverview, *consolePage) {
	listID, ok := parseID(r.PathValue("id"))
	if !ok {
		p := consoleError(http.StatusNotFound, "There is no list %q.", r.PathValue("id"))
		return 0, state.ListOverview{}, &p
	}
	list, err := s.store.Contacts.ListOverview(listID)
	if err != nil {
		p := consoleError(err.Status, "%s.", err.Message)
		return 0, state.ListOverview{}, &p
	}
	return listID, list, nil
}

// listPage shows a list's contacts a page at a time, all of them or the
// one whose originalId, or e-mail address in any letter case, is ?q=.
func (s *consoleAPI) listPage(r *http.Request) consolePage {
	listID, list, failed := s.pathList(r)
	if failed != nil {
		return *failed
	}
	query := strings.TrimSpace(r.URL.Query().Get("q"))
	page, offset := pageOf(r)
	rows, err := s.store.Contacts.FindContacts(listID, query, offset, consolePageSize)
	if err != nil {
		return consoleError(err.Status, "%s.", err.Message)
	}
	d := listData{consoleFrame: s.frame(list.Name), List: list, Query: query, Matched: rows.Matched, Pager: pager(r, page, rows.Matched)}
	for _, c := range rows.Rows {
		d.Contacts = append(d.Contacts, contactRow{ContactRow: c, Link: s.contactLink(listID, c.OriginalID)})
	}
	return consolePage{name: "list", data: d}
}

type contactData struct {
	consoleFrame
	List       state.ListOverview
	ListLink   string
	Contact    state.ContactHistory
	HistoryLen int
}

// contactPage shows one contact (?originalId=, which may hold any
// character, slashes and dots included) and its last status changes.
func (s *consoleAPI) contactPage(r *http.Request) consolePage {
	listID, list, failed := s.pathList(r)
	if failed != nil {
		return *failed
	}
	h, err := s.store.Contacts.History(listID, r.URL.Query().Get("originalId"))
	if err != nil {
		return consoleError(err.Status, "%s.", err.Message)
	}
	return consolePage{name: "contact", data: contactData{
		consoleFrame: s.frame(h.Row.OriginalID), List: list, ListLink: s.listLink(listID),
		Contact: h, HistoryLen: state.HistoryLen,
	}}
}

type requestsData struct {
	consoleFrame
	Requests []ServedRequest
	Held     int
}

// requestsPage shows the last requests served, newest first.
func (s *consoleAPI) requestsPage(*http.Request) consolePage {
	return consolePage{name: "requests", data: requestsData{consoleFrame: s.frame("Last requests"), Requests: s.served.last(), Held: requestLogLen}}
}
