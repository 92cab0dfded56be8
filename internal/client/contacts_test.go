package client

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net/http"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
)

// recordedCall is one request as the test server saw it.
type recordedCall struct {
	method, path, query, body string
}

// scriptedServer answers each request with the answer registered for its
// method and escaped path, and records every request.
type scriptedServer struct {
	mu      sync.Mutex
	calls   []recordedCall
	answers map[string]func(w http.ResponseWriter, r *http.Request)
}

func (s *scriptedServer) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	b, _ := io.ReadAll(r.Body)
	s.mu.Lock()
	s.calls = append(s.calls, recordedCall{r.Method, r.URL.EscapedPath(), r.URL.RawQuery, string(b)})
	h := s.answers[r.Method+" "+r.URL.EscapedPath()]
	s.mu.Unlock()
	if h == nil {
		writeError(w, 404, "NOT_FOUND", "no such path", "")
		return
	}
	h(w, r)
}

func answer(status int, body string) func(http.ResponseWriter, *http.Request) {
	return func(w http.ResponseWriter, _ *http.Request) {
		if body == "" {
			w.WriteHeader(status)
			return
		}
		writeJSON(w, status, body)
	}
}

const contactJSON = `{"id":17,"originalId":"a/b c","properties":{"email":"ada@example.com","firstname":"Ada"},"status":"SUBSCRIBED","mobileStatus":"UNSUBSCRIBED","dateCreated":"2026-11-22T10:00:00Z","dateModified":"2026-11-22T10:05:00Z","futureField":1}`

var wantContact = &Contact{
	ID: "17", OriginalID: "a/b c",
	Properties: map[string]string{"email": "ada@example.com", "firstname": "Ada"},
	Status:     StatusSubscribed, MobileStatus: StatusUnsubscribed,
	DateCreated: TimestampOf("2026-11-22T10:00:00Z"), DateModified: TimestampOf("2026-11-22T10:05:00Z"),
}

// The originalId is one escaped path segment, whatever it holds.
const escapedContact = "/rest/1000/lists/5/contacts/a%2Fb%20c"

func TestContactCalls(t *testing.T) {
	ctx := context.Background()
	firstname := "Ada"
	tests := []struct {
		name     string
		answers  map[string]func(http.ResponseWriter, *http.Request)
		call     func(*Client) (*Contact, error)
		want     *Contact
		wantCall recordedCall
	}{
		{
			name:    "create",
			answers: map[string]func(http.ResponseWriter, *http.Request){"POST /rest/1000/lists/5/contacts": answer(201, strings.ReplaceAll(contactJSON, `"dateCreated":"2026-11-22T10:00:00Z"`, `"dateCreated":null`))},
			call: func(c *Client) (*Contact, error) {
				return c.Contacts.Create(ctx, "5", ContactInput{OriginalID: "a/b c", Properties: map[string]string{"3": "Ada"}, MobileStatus: StatusUnsubscribed})
			},
			want:     &Contact{ID: wantContact.ID, OriginalID: wantContact.OriginalID, Properties: wantContact.Properties, Status: wantContact.Status, MobileStatus: wantContact.MobileStatus, DateModified: wantContact.DateModified},
			wantCall: recordedCall{"POST", "/rest/1000/lists/5/contacts", "", `{"originalId":"a/b c","properties":{"3":"Ada"},"mobileStatus":"UNSUBSCRIBED"}`},
		},
		{
			name:     "get",
			answers:  map[string]func(http.ResponseWriter, *http.Request){"GET " + escapedContact: answer(200, contactJSON)},
			call:     func(c *Client) (*Contact, error) { return c.Contacts.Get(ctx, "5", "a/b c") },
			want:     wantContact,
			wantCall: recordedCall{"GET", escapedContact, "", ""},
		},
		{
			name:    "update properties: a nil value is sent as null",
			answers: map[string]func(http.ResponseWriter, *http.Request){"PUT " + escapedContact: answer(200, contactJSON)},
			call: func(c *Client) (*Contact, error) {
				return c.Contacts.UpdateProperties(ctx, "5", "a/b c", map[string]*string{"firstname": &firstname, "lastname": nil})
			},
			want:     wantContact,
			wantCall: recordedCall{"PUT", escapedContact, "", `{"properties":{"firstname":"Ada","lastname":null}}`},
		},
		{
			name:    "update with no properties sends an empty object",
			answers: map[string]func(http.ResponseWriter, *http.Request){"PUT " + escapedContact: answer(200, contactJSON)},
			call: func(c *Client) (*Contact, error) {
				return c.Contacts.UpdateProperties(ctx, "5", "a/b c", nil)
			},
			want:     wantContact,
			wantCall: recordedCall{"PUT", escapedContact, "", `{"properties":{}}`},
		},
		{
			name:    "subscription status answered with the contact",
			answers: map[string]func(http.ResponseWriter, *http.Request){"PUT " + escapedContact + "/subscriptionstatus": answer(200, contactJSON)},
			call: func(c *Client) (*Contact, error) {
				return c.Contacts.SetSubscriptionStatus(ctx, "5", "a/b c", SubscriptionStatus{MobileStatus: StatusUnsubscribed})
			},
			want:     wantContact,
			wantCall: recordedCall{"PUT", escapedContact + "/subscriptionstatus", "", `{"mobileStatus":"UNSUBSCRIBED"}`},
		},
		{
			name:    "subscription status answered with no body",
			answers: map[string]func(http.ResponseWriter, *http.Request){"PUT " + escapedContact + "/subscriptionstatus": answer(204, "")},
			call: func(c *Client) (*Contact, error) {
				return c.Contacts.SetSubscriptionStatus(ctx, "5", "a/b c", SubscriptionStatus{Status: StatusSubscribed, MobileStatus: StatusSubscribed})
			},
			want:     nil,
			wantCall: recordedCall{"PUT", escapedContact + "/subscriptionstatus", "", `{"status":"SUBSCRIBED","mobileStatus":"SUBSCRIBED"}`},
		},
		{
			name:    "subscription status answered with the status alone",
			answers: map[string]func(http.ResponseWriter, *http.Request){"PUT " + escapedContact + "/subscriptionstatus": answer(200, `{"status":"SUBSCRIBED"}`)},
			call: func(c *Client) (*Contact, error) {
				return c.Contacts.SetSubscriptionStatus(ctx, "5", "a/b c", SubscriptionStatus{Status: StatusSubscribed})
			},
			want:     nil,
			wantCall: recordedCall{"PUT", escapedContact + "/subscriptionstatus", "", `{"status":"SUBSCRIBED"}`},
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			srv := &scriptedServer{answers: tt.answers}
			c, _ := newTestClient(t, srv)
			got, err := tt.call(c)
			if err != nil {
				t.Fatal(err)
			}
			if diff := cmp.Diff(tt.want, got); diff != "" {
				t.Errorf("contact (-want +got):\n%s", diff)
			}
			if diff := cmp.Diff([]recordedCall{tt.wantCall}, srv.calls, cmp.AllowUnexported(recordedCall{})); diff != "" {
				t.Errorf("requests (-want +got):\n%s", diff)
			}
		})
	}
}

func TestContactErrors(t *testing.T) {
	ctx := context.Background()
	srv := &scriptedServer{answers: map[string]func(http.ResponseWriter, *http.Request){
		"POST /rest/1000/lists/5/contacts": func(w http.ResponseWriter, _ *http.Request) {
			writeError(w, 409, "CONFLICT", `a contact with originalId "x" already exists in list 5`, "originalId")
		},
		"PUT /rest/1000/lists/5/contacts/x": func(w http.ResponseWriter, _ *http.Request) {
			writeError(w, 400, "VALIDATION_ERROR", `unknown contact attribute "colour"`, "properties.colour")
		},
		"PUT /rest/1000/lists/5/contacts/x/subscriptionstatus": func(w http.ResponseWriter, _ *http.Request) {
			writeError(w, 400, "VALIDATION_ERROR", "status must be SUBSCRIBED or UNSUBSCRIBED", "status")
		},
	}}
	c, _ := newTestClient(t, srv, noRetries)

	_, err := c.Contacts.Create(ctx, "5", ContactInput{OriginalID: "x"})
	if !errors.Is(err, ErrConflict) {
		t.Errorf("duplicate create: %v, want ErrConflict", err)
	}
	mustContain(t, fmt.Sprint(err), `creating contact "x" in list 5`)

	v := "red"
	_, err = c.Contacts.UpdateProperties(ctx, "5", "x", map[string]*string{"colour": &v})
	if apiErr, ok := AsAPIError(err); !ok || !errors.Is(err, ErrValidation) || apiErr.Field != "properties.colour" {
		t.Errorf("unknown key: %v", err)
	}
	_, err = c.Contacts.SetSubscriptionStatus(ctx, "5", "x", SubscriptionStatus{Status: "NO"})
	if apiErr, ok := AsAPIError(err); !ok || apiErr.Field != "status" {
		t.Errorf("bad status: %v", err)
	}
	_, err = c.Contacts.Get(ctx, "5", "nobody")
	if !IsNotFound(err) {
		t.Errorf("missing contact: %v, want ErrNotFound", err)
	}
}

func TestEachContactPage(t *testing.T) {
	const total = 7
	srv := &scriptedServer{answers: map[string]func(http.ResponseWriter, *http.Request){
		"GET /rest/1000/lists/5/contacts": func(w http.ResponseWriter, r *http.Request) {
			page, _ := strconv.Atoi(r.URL.Query().Get("page"))
			size, _ := strconv.Atoi(r.URL.Query().Get("pageSize"))
			items := []Contact{}
			for i := page * size; i < min((page+1)*size, total); i++ {
				items = append(items, Contact{OriginalID: fmt.Sprint("c", i)})
			}
			b, _ := json.Marshal(items)
			writeJSON(w, 200, string(b))
		},
	}}
	c, _ := newTestClient(t, srv)
	var got []string
	var pages int
	err := c.Contacts.EachPage(context.Background(), "5", 3, func(page []Contact) error {
		pages++
		for _, ct := range page {
			got = append(got, ct.OriginalID)
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	if diff := cmp.Diff([]string{"c0", "c1", "c2", "c3", "c4", "c5", "c6"}, got); diff != "" || pages != 3 {
		t.Errorf("pages %d, contacts (-want +got):\n%s", pages, diff)
	}
	var queries []string
	for _, call := range srv.calls {
		queries = append(queries, call.query)
	}
	if diff := cmp.Diff([]string{"page=0&pageSize=3", "page=1&pageSize=3", "page=2&pageSize=3"}, queries); diff != "" {
		t.Errorf("queries (-want +got):\n%s", diff)
	}

	// An error of fn stops the paging; an API error names the list.
	stop := errors.New("stop")
	if err := c.Contacts.EachPage(context.Background(), "5", 3, func([]Contact) error { return stop }); !errors.Is(err, stop) {
		t.Errorf("fn error: %v", err)
	}
	err = c.Contacts.EachPage(context.Background(), "6", 0, func([]Contact) error { return nil })
	if !IsNotFound(err) {
		t.Errorf("unknown list: %v", err)
	}
	mustContain(t, fmt.Sprint(err), "reading the contacts of list 6")
	mustContain(t, srv.calls[len(srv.calls)-1].query, "pageSize=500")
}

func TestListCalls(t *testing.T) {
	ctx := context.Background()
	const listJSON = `{"id":5,"name":"News","description":"d","senderName":null,"senderEmail":"n@example.com","dateCreated":"2026-11-22T10:00:00Z","dateModified":"2026-11-22T10:00:00Z"}`
	srv := &scriptedServer{answers: map[string]func(http.ResponseWriter, *http.Request){
		"POST /rest/1000/lists":     answer(201, listJSON),
		"GET /rest/1000/lists/5":    answer(200, listJSON),
		"PUT /rest/1000/lists/5":    answer(200, listJSON),
		"DELETE /rest/1000/lists/5": answer(204, ""),
		"GET /rest/1000/lists":      answer(200, "["+listJSON+"]"),
		"GET /rest/1000/properties": answer(200, `[{"id":1,"name":"email","dateCreated":"2026-11-22T10:00:00Z"},{"id":"3","name":"firstname"}]`),
	}}
	c, _ := newTestClient(t, srv)
	d, e := "d", "n@example.com"
	want := &List{ID: "5", Name: "News", Description: &d, SenderEmail: &e, DateCreated: TimestampOf("2026-11-22T10:00:00Z"), DateModified: TimestampOf("2026-11-22T10:00:00Z")}
	in := ListInput{Name: "News", Description: &d, SenderEmail: &e}

	got, err := c.Lists.Create(ctx, in)
	if err != nil || cmp.Diff(want, got) != "" {
		t.Errorf("create: %v %s", err, cmp.Diff(want, got))
	}
	if got, err = c.Lists.Get(ctx, "5"); err != nil || cmp.Diff(want, got) != "" {
		t.Errorf("get: %v %s", err, cmp.Diff(want, got))
	}
	if got, err = c.Lists.Update(ctx, "5", ListInput{Name: "News"}); err != nil || cmp.Diff(want, got) != "" {
		t.Errorf("update: %v", err)
	}
	all, err := c.Lists.List(ctx)
	if err != nil || len(all) != 1 || all[0].Name != "News" {
		t.Errorf("list: %v %v", all, err)
	}
	if err := c.Lists.Delete(ctx, "5"); err != nil {
		t.Errorf("delete: %v", err)
	}
	if err := c.Lists.Delete(ctx, "6"); err != nil {
		t.Errorf("delete of a list already gone: %v", err)
	}
	if _, err := c.Lists.Get(ctx, "6"); !IsNotFound(err) {
		t.Errorf("get gone: %v", err)
	}
	props, err := c.Properties.List(ctx)
	if diff := cmp.Diff([]Property{{ID: "1", Name: "email"}, {ID: "3", Name: "firstname"}}, props); err != nil || diff != "" {
		t.Errorf("properties: %v (-want +got):\n%s", err, diff)
	}
	// Optional fields left nil are sent as null, which removes them (PUT
	// merges).
	if body := srv.calls[2].body; body != `{"name":"News","description":null,"senderName":null,"senderEmail":null}` {
		t.Errorf("update body = %s", body)
	}
}

func TestContactCursor(t *testing.T) {
	withTotal := true
	srv := &scriptedServer{answers: map[string]func(http.ResponseWriter, *http.Request){
		"GET /rest/1000/lists/5/contacts": func(w http.ResponseWriter, r *http.Request) {
			if withTotal {
				w.Header().Set("X-Total-Count", "1201")
			}
			writeJSON(w, 200, "["+contactJSON+"]")
		},
	}}
	c, _ := newTestClient(t, srv)
	ctx := context.Background()
	cur := c.Contacts.Cursor("5", MaxPageSize)
	if cur.Total() != -1 || cur.Done() {
		t.Fatalf("before the first page: total %d, done %v", cur.Total(), cur.Done())
	}
	got, ok, err := cur.Next(ctx)
	if err != nil || !ok {
		t.Fatalf("Next: %v, %v", ok, err)
	}
	if diff := cmp.Diff([]Contact{*wantContact}, got); diff != "" {
		t.Errorf("page (-want +got):\n%s", diff)
	}
	if q := srv.calls[0].query; q != "page=0&pageSize=1000" {
		t.Errorf("query = %q", q)
	}
	// One contact while X-Total-Count says 1201: the service caps its
	// pages, so the cursor asks on; the same page again ends the listing
	// without handing it on twice.
	if cur.Total() != 1201 || cur.Done() {
		t.Errorf("after a capped page: total %d, done %v", cur.Total(), cur.Done())
	}
	if _, ok, err := cur.Next(ctx); ok || err != nil || !cur.Done() || len(srv.calls) != 2 {
		t.Errorf("Next after the repeat: %v, %v, done %v after %d calls", ok, err, cur.Done(), len(srv.calls))
	}
	// No X-Total-Count: the total is unknown, not zero.
	withTotal = false
	cur = c.Contacts.Cursor("5", 10)
	// A short page is the last one.
	if _, ok, err := cur.Next(ctx); err != nil || !ok || cur.Total() != -1 || !cur.Done() {
		t.Errorf("without the header: total %d, %v, %v, done %v", cur.Total(), ok, err, cur.Done())
	}
	_, ok, err = c.Contacts.Cursor("6", 10).Next(ctx)
	if !IsNotFound(err) || ok {
		t.Errorf("unknown list: %v, %v", ok, err)
	}
	mustContain(t, fmt.Sprint(err), "lists/6/contacts (page 0)")
}

// Contacts.Create never takes over an existing contact, whichever way the
// service reports one (409, a 400 while the contact exists, an upsert
// answer), and completes an answer that lacks the contact with a GET by
// originalId.
func TestCreateContactAnswers(t *testing.T) {
	const post = "POST /rest/1000/lists/5/contacts"
	now := time.Now().UTC()
	contactWith := func(created string) string {
		return `{"id":17,"originalId":"a/b c","properties":{"email":"ada@example.com"},"status":"SUBSCRIBED","dateCreated":` + created + `}`
	}
	fresh := contactWith(`"` + now.Format(time.RFC3339) + `"`)
	hourAgo := contactWith(`"` + now.Add(-time.Hour).Format(time.RFC3339) + `"`)
	tests := []struct {
		name         string
		post, get    func(http.ResponseWriter, *http.Request)
		wantConflict bool
		wantValid    bool   // errors.Is(err, ErrValidation)
		wantErr      string // any other error
		wantMadeID   bool
		wantReqs     []string
	}{
		{
			name: "409", post: func(w http.ResponseWriter, _ *http.Request) { writeError(w, 409, "CONFLICT", "exists", "originalId") },
			get: answer(200, fresh), wantConflict: true, wantReqs: []string{post},
		},
		{
			name: "400 while the contact exists", post: func(w http.ResponseWriter, _ *http.Request) {
				writeError(w, 400, "VALIDATION_ERROR", "originalId is taken", "originalId")
			},
			get: answer(200, hourAgo), wantConflict: true, wantValid: true, wantErr: "already exists in the list",
			wantReqs: []string{post, "GET " + escapedContact},
		},
		{
			name: "422 while the contact exists", post: func(w http.ResponseWriter, _ *http.Request) { writeError(w, 422, "VALIDATION_ERROR", "duplicate", "") },
			get: answer(200, hourAgo), wantConflict: true, wantValid: true,
			wantReqs: []string{post, "GET " + escapedContact},
		},
		{
			name: "400 while it does not exist", post: func(w http.ResponseWriter, _ *http.Request) {
				writeError(w, 400, "VALIDATION_ERROR", "email is malformed", "properties.email")
			},
			wantValid: true, wantErr: "email is malformed",
			wantReqs: []string{post, "GET " + escapedContact},
		},
		{
			name: "upsert answer: 200 with a contact created an hour ago", post: answer(200, hourAgo),
			wantConflict: true, wantErr: "already existed", wantReqs: []string{post},
		},
		{
			name: "upsert answer with dateCreated in epoch ms", post: answer(200, contactWith(fmt.Sprint(now.Add(-time.Hour).UnixMilli()))),
			wantConflict: true, wantReqs: []string{post},
		},
		{
			name: "upsert found by the read-back of an empty answer", post: answer(201, `{}`), get: answer(200, hourAgo),
			wantConflict: true, wantReqs: []string{post, "GET " + escapedContact},
		},
		{name: "a fresh contact", post: answer(201, fresh), wantReqs: []string{post}},
		{name: "a contact without dateCreated", post: answer(201, contactWith("null")), wantReqs: []string{post}},
		{name: "answer {}", post: answer(201, `{}`), get: answer(200, fresh), wantReqs: []string{post, "GET " + escapedContact}},
		{name: "204", post: answer(204, ""), get: answer(200, fresh), wantReqs: []string{post, "GET " + escapedContact}},
		{name: "only an id", post: answer(201, `{"id":17}`), get: answer(200, fresh), wantReqs: []string{post, "GET " + escapedContact}},
		{name: "garbled", post: answer(200, `{"originalId":"a/b`), get: answer(200, fresh), wantReqs: []string{post, "GET " + escapedContact}},
		{
			name: "empty answer and a failing read-back", post: answer(204, ""),
			get:        func(w http.ResponseWriter, _ *http.Request) { writeError(w, 500, "INTERNAL_ERROR", "down", "") },
			wantMadeID: true, wantErr: "down", wantReqs: []string{post, "GET " + escapedContact},
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			answers := map[string]func(http.ResponseWriter, *http.Request){post: tt.post}
			if tt.get != nil {
				answers["GET "+escapedContact] = tt.get
			}
			srv := &scriptedServer{answers: answers}
			c, _ := newTestClient(t, srv, noRetries)
			got, err := c.Contacts.Create(context.Background(), "5", ContactInput{OriginalID: "a/b c", Properties: map[string]string{"email": "ada@example.com"}})
			if diff := cmp.Diff(tt.wantReqs, srv.requests()); diff != "" {
				t.Errorf("requests (-want +got):\n%s", diff)
			}
			failing := tt.wantConflict || tt.wantValid || tt.wantErr != "" || tt.wantMadeID
			if !failing {
				if err != nil {
					t.Fatalf("Contacts.Create: %v", err)
				}
				if got.ID != "17" || got.OriginalID != "a/b c" || got.Properties["email"] != "ada@example.com" {
					t.Errorf("contact = %+v", got)
				}
				return
			}
			if err == nil {
				t.Fatalf("Contacts.Create = %+v, want an error", got)
			}
			if errors.Is(err, ErrConflict) != tt.wantConflict {
				t.Errorf("errors.Is(%v, ErrConflict) = %v, want %v", err, !tt.wantConflict, tt.wantConflict)
			}
			if errors.Is(err, ErrValidation) != tt.wantValid {
				t.Errorf("errors.Is(%v, ErrValidation) = %v, want %v", err, !tt.wantValid, tt.wantValid)
			}
			if tt.wantErr != "" {
				mustContain(t, err.Error(), tt.wantErr)
			}
			mustContain(t, err.Error(), `creating contact "a/b c" in list 5`)
			if id, ok := MadeID(err); ok != tt.wantMadeID || (ok && id != "a/b c") {
				t.Errorf("MadeID = %q, %v; want the originalId: %v", id, ok, tt.wantMadeID)
			}
		})
	}
}

// Properties are read whatever JSON type the service writes a value in,
// and whether they are keyed by attribute name or id.
func TestContactPropertyValues(t *testing.T) {
	body := `{"originalId":"x","properties":{"3":"Ada","4":42,"5":1.50,"6":true,"7":false,"8":null,"9":"","email":"caf\u00e9@example.com","10":-7e2}}`
	srv := &scriptedServer{answers: map[string]func(http.ResponseWriter, *http.Request){
		"GET /rest/1000/lists/5/contacts/x": answer(200, body),
	}}
	c, _ := newTestClient(t, srv)
	got, err := c.Contacts.Get(context.Background(), "5", "x")
	if err != nil {
		t.Fatal(err)
	}
	want := PropertyValues{"3": "Ada", "4": "42", "5": "1.50", "6": "true", "7": "false", "9": "", "email": "café@example.com", "10": "-7e2"}
	if diff := cmp.Diff(want, got.Properties); diff != "" {
		t.Errorf("properties (-want +got):\n%s", diff)
	}
	if _, ok := got.Properties["8"]; ok {
		t.Error("a null value was kept")
	}

	for _, tc := range []struct {
		json    string
		want    PropertyValues
		wantErr bool
	}{
		{json: `null`, want: nil},
		{json: `{}`, want: PropertyValues{}},
		{json: `{"a":null}`, want: PropertyValues{}},
		{json: `[]`, wantErr: true},
		{json: `"a=b"`, wantErr: true},
	} {
		var p PropertyValues
		err := json.Unmarshal([]byte(tc.json), &p)
		if (err != nil) != tc.wantErr {
			t.Errorf("Unmarshal(%s) error = %v, want error %v", tc.json, err, tc.wantErr)
			continue
		}
		if !tc.wantErr && !cmp.Equal(tc.want, p) {
			t.Errorf("Unmarshal(%s) = %#v, want %#v", tc.json, p, tc.want)
		}
	}
}
