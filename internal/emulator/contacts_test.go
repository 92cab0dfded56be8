package emulator

import (
	"fmt"
	"net/http"
	"testing"
	"testing/synctest"
	"time"

	"github.com/google/go-cmp/cmp"
)

// newList creates a list and returns the base path of its contacts.
func newList(t *testing.T, s *Server) (listID, contacts string) {
	t.Helper()
	id := idOf(t, mustCreate(t, s, "/rest/1000/lists", map[string]any{"name": "l"}))
	return id, "/rest/1000/lists/" + id + "/contacts"
}

func TestContactCreateGetShape(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		t0 := time.Now()
		s := New(Options{})
		listID, base := newList(t, s)

		rec := do(t, s, http.MethodPost, base, map[string]any{
			"originalId": "c/1", "properties": map[string]any{"3": "Ada", "email": "ada@example.com", "lastname": nil},
			"id": 77, "unknown": "ignored",
		})
		wantStatus(t, rec, http.StatusCreated)
		if got, want := rec.Header().Get("Location"), "/rest/1000/lists/"+listID+"/contacts/c%2F1"; got != want {
			t.Errorf("Location = %q, want %q", got, want)
		}
		created := decodeObject(t, rec)
		if created["id"] == "77" {
			t.Error("id taken from the body")
		}
		delete(created, "id")
		want := map[string]any{
			"originalId":   "c/1",
			"properties":   map[string]any{"firstname": "Ada", "email": "ada@example.com"},
			"status":       "SUBSCRIBED",
			"mobileStatus": "SUBSCRIBED",
			"dateCreated":  rfc3339(t0), "dateModified": rfc3339(t0),
		}
		if diff := cmp.Diff(want, created); diff != "" {
			t.Errorf("created (-want +got):\n%s", diff)
		}

		rec = do(t, s, http.MethodGet, base+"/c%2F1", nil)
		wantStatus(t, rec, http.StatusOK)
		got := decodeObject(t, rec)
		delete(got, "id")
		if diff := cmp.Diff(want, got); diff != "" {
			t.Errorf("read back (-want +got):\n%s", diff)
		}

		// A create body may set the initial states.
		rec = do(t, s, http.MethodPost, base, map[string]any{"originalId": "c2", "status": "UNSUBSCRIBED"})
		wantStatus(t, rec, http.StatusCreated)
		if c := decodeObject(t, rec); c["status"] != "UNSUBSCRIBED" || c["mobileStatus"] != "SUBSCRIBED" {
			t.Errorf("states = %v / %v, want UNSUBSCRIBED / SUBSCRIBED", c["status"], c["mobileStatus"])
		}
	})
}

func TestContactErrors(t *testing.T) {
	s := New(Options{})
	listID, base := newList(t, s)
	mustCreate(t, s, base, map[string]any{"originalId": "taken", "properties": map[string]any{"email": "a@example.com"}})

	tests := []struct {
		name         string
		method, path string
		body         any
		want         ErrorBody
	}{
		{"missing originalId", http.MethodPost, base, map[string]any{"properties": map[string]any{}},
			ErrorBody{400, CodeValidation, "originalId is mandatory", "originalId"}},
		{"empty originalId", http.MethodPost, base, map[string]any{"originalId": ""},
			ErrorBody{400, CodeValidation, "originalId is mandatory", "originalId"}},
		{"numeric originalId", http.MethodPost, base, map[string]any{"originalId": 5},
			ErrorBody{400, CodeValidation, "originalId must be a string", "originalId"}},
		{"duplicate originalId", http.MethodPost, base, map[string]any{"originalId": "taken"},
			ErrorBody{409, CodeConflict, `a contact with originalId "taken" already exists in list ` + listID, "originalId"}},
		{"unknown attribute name", http.MethodPost, base, map[string]any{"originalId": "n", "properties": map[string]any{"colour": "red"}},
			ErrorBody{400, CodeValidation, `unknown contact attribute "colour": give the name or the id of a property of the account (GET /properties lists them)`, "properties.colour"}},
		{"unknown attribute id", http.MethodPut, base + "/taken", map[string]any{"properties": map[string]any{"999": "x"}},
			ErrorBody{400, CodeValidation, `unknown contact attribute "999": give the name or the id of a property of the account (GET /properties lists them)`, "properties.999"}},
		{"one attribute twice", http.MethodPut, base + "/taken", map[string]any{"properties": map[string]any{"firstname": "A", "3": "B"}},
			ErrorBody{400, CodeValidation, `properties "3" and "firstname" name the same attribute (id 3); give it once`, "properties.firstname"}},
		{"non-string value", http.MethodPost, base, map[string]any{"originalId": "n", "properties": map[string]any{"email": 5}},
			ErrorBody{400, CodeValidation, `the value of property "email" must be a string`, "properties.email"}},
		{"properties not an object", http.MethodPost, base, map[string]any{"originalId": "n", "properties": []any{}},
			ErrorBody{400, CodeValidation, "properties must be an object from attribute name or id to a string value", "properties"}},
		{"invalid initial status", http.MethodPost, base, map[string]any{"originalId": "n", "status": "subscribed"},
			ErrorBody{400, CodeValidation, `status must be SUBSCRIBED or UNSUBSCRIBED, got "subscribed"`, "status"}},
		{"invalid initial mobile status", http.MethodPost, base, map[string]any{"originalId": "n", "mobileStatus": "OFF"},
			ErrorBody{400, CodeValidation, `mobileStatus must be SUBSCRIBED or UNSUBSCRIBED, got "OFF"`, "mobileStatus"}},
		{"changing originalId", http.MethodPut, base + "/taken", map[string]any{"originalId": "other"},
			ErrorBody{400, CodeValidation, `originalId identifies the contact and cannot be changed (path "taken", body "other")`, "originalId"}},
		{"unknown list on create", http.MethodPost, "/rest/1000/lists/99999/contacts", map[string]any{"originalId": "n"},
			ErrorBody{404, CodeNotFound, "no list with id 99999", ""}},
		{"not a list id", http.MethodGet, "/rest/1000/lists/abc/contacts", nil,
			ErrorBody{404, CodeNotFound, `no list with id "abc"`, ""}},
		{"unknown contact", http.MethodGet, base + "/nobody", nil,
			ErrorBody{404, CodeNotFound, `no contact with originalId "nobody" in list ` + listID, ""}},
		{"update unknown contact", http.MethodPut, base + "/nobody", map[string]any{"properties": map[string]any{}},
			ErrorBody{404, CodeNotFound, `no contact with originalId "nobody" in list ` + listID, ""}},
		{"bad page size", http.MethodGet, base + "?pageSize=1001", nil,
			ErrorBody{400, CodeValidation, `pageSize must be an integer from 1 to 1000, got "1001"`, "pageSize"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			wantError(t, do(t, s, tt.method, tt.path, tt.body), tt.want)
		})
	}
	// No refused request changed anything.
	rec := do(t, s, http.MethodGet, base, nil)
	wantStatus(t, rec, http.StatusOK)
	all := decodeArray(t, rec)
	if len(all) != 1 || all[0]["originalId"] != "taken" || len(all[0]["properties"].(map[string]any)) != 1 {
		t.Errorf("contacts after refused requests: %v", all)
	}
	// There is no DELETE of one contact.
	rec = do(t, s, http.MethodDelete, base+"/taken", nil)
	wantErrorCode(t, rec, http.StatusMethodNotAllowed, CodeMethodNotAllowed)
	if got := rec.Header().Get("Allow"); got != "GET, HEAD, PUT" {
		t.Errorf("Allow = %q", got)
	}
}

// Every transition of the interface's subscription table, for e-mail and
// mobile separately, plus same-state writes, partial bodies and bad values.
func TestSubscriptionStatusTransitions(t *testing.T) {
	type states struct{ email, mobile string }
	const S, U = "SUBSCRIBED", "UNSUBSCRIBED"
	tests := []struct {
		name string
		from states
		body map[string]any
		want states
	}{
		{"email re-subscribe", states{U, S}, map[string]any{"status": S}, states{S, S}},
		{"email opt out", states{S, S}, map[string]any{"status": U}, states{U, S}},
		{"mobile re-subscribe", states{S, U}, map[string]any{"mobileStatus": S}, states{S, S}},
		{"mobile opt out", states{S, S}, map[string]any{"mobileStatus": U}, states{S, U}},
		{"both at once", states{S, S}, map[string]any{"status": U, "mobileStatus": U}, states{U, U}},
		{"both back", states{U, U}, map[string]any{"status": S, "mobileStatus": S}, states{S, S}},
		{"email same state", states{U, U}, map[string]any{"status": U}, states{U, U}},
		{"mobile same state", states{S, S}, map[string]any{"mobileStatus": S}, states{S, S}},
		{"null keeps", states{U, S}, map[string]any{"status": nil, "mobileStatus": U}, states{U, U}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			synctest.Test(t, func(t *testing.T) {
				t0 := time.Now()
				s := New(Options{})
				_, base := newList(t, s)
				mustCreate(t, s, base, map[string]any{"originalId": "c", "status": tt.from.email, "mobileStatus": tt.from.mobile})
				advance(time.Minute)
				rec := do(t, s, http.MethodPut, base+"/c/subscriptionstatus", tt.body)
				wantStatus(t, rec, http.StatusOK)
				got := decodeObject(t, rec)
				if got["status"] != tt.want.email || got["mobileStatus"] != tt.want.mobile {
					t.Errorf("answer: %v / %v, want %v", got["status"], got["mobileStatus"], tt.want)
				}
				if want := rfc3339(t0.Add(time.Minute)); got["dateModified"] != want {
					t.Errorf("dateModified = %v, want %s", got["dateModified"], want)
				}
				rec = do(t, s, http.MethodGet, base+"/c", nil)
				got = decodeObject(t, rec)
				if got["status"] != tt.want.email || got["mobileStatus"] != tt.want.mobile {
					t.Errorf("read back: %v / %v, want %v", got["status"], got["mobileStatus"], tt.want)
				}
			})
		})
	}

	s := New(Options{})
	listID, base := newList(t, s)
	mustCreate(t, s, base, map[string]any{"originalId": "c"})
	for _, tc := range []struct {
		body any
		want ErrorBody
	}{
		{map[string]any{}, ErrorBody{400, CodeValidation, "give status, mobileStatus or both (SUBSCRIBED or UNSUBSCRIBED)", "status"}},
		{map[string]any{"status": "OPTED_OUT"}, ErrorBody{400, CodeValidation, `status must be SUBSCRIBED or UNSUBSCRIBED, got "OPTED_OUT"`, "status"}},
		{map[string]any{"status": "SUBSCRIBED", "mobileStatus": "no"}, ErrorBody{400, CodeValidation, `mobileStatus must be SUBSCRIBED or UNSUBSCRIBED, got "no"`, "mobileStatus"}},
		{map[string]any{"mobileStatus": true}, ErrorBody{400, CodeValidation, "mobileStatus must be a string", "mobileStatus"}},
	} {
		wantError(t, do(t, s, http.MethodPut, base+"/c/subscriptionstatus", tc.body), tc.want)
	}
	wantError(t, do(t, s, http.MethodPut, base+"/x/subscriptionstatus", map[string]any{"status": "SUBSCRIBED"}),
		ErrorBody{404, CodeNotFound, `no contact with originalId "x" in list ` + listID, ""})

	// PUT of a contact ignores states: they change only through
	// subscriptionstatus.
	rec := do(t, s, http.MethodPut, base+"/c", map[string]any{"status": "UNSUBSCRIBED", "properties": map[string]any{}})
	wantStatus(t, rec, http.StatusOK)
	if got := decodeObject(t, rec); got["status"] != "SUBSCRIBED" {
		t.Errorf("PUT changed status to %v", got["status"])
	}

	// "any -> UNSUBSCRIBED by an unsubscribe import": the store call imports
	// use, from either state.
	id := mustInt(t, listID)
	for _, from := range []string{S, U} {
		if _, err := s.store.Contacts.SetStatus(id, "c", from, "", s.now(), nil); err != nil {
			t.Fatal(err)
		}
		c, err := s.store.Contacts.SetStatus(id, "c", U, U, s.now(), nil)
		if err != nil || c.Status != U || c.MobileStatus != U {
			t.Errorf("unsubscribe from %s: %+v, %v", from, c, err)
		}
	}
}

func mustInt(t *testing.T, s string) int64 {
	t.Helper()
	id, ok := parseID(s)
	if !ok {
		t.Fatalf("not an id: %q", s)
	}
	return id
}

func TestContactPropertiesByNameOrID(t *testing.T) {
	s := New(Options{})
	_, base := newList(t, s)
	mustCreate(t, s, base, map[string]any{"originalId": "c", "properties": map[string]any{"3": "Ada", "lastname": "Lovelace", "1": "ada@example.com"}})

	update := func(props map[string]any) map[string]any {
		t.Helper()
		rec := do(t, s, http.MethodPut, base+"/c", map[string]any{"properties": props})
		wantStatus(t, rec, http.StatusOK)
		return decodeObject(t, rec)["properties"].(map[string]any)
	}
	// By name, then by id, of the same attribute; null removes; others kept.
	if got := update(map[string]any{"firstname": "Bea"}); got["firstname"] != "Bea" || got["lastname"] != "Lovelace" {
		t.Errorf("by name: %v", got)
	}
	if got := update(map[string]any{"3": "Cleo"}); got["firstname"] != "Cleo" || got["3"] != nil {
		t.Errorf("by id: %v", got)
	}
	want := map[string]any{"firstname": "Cleo", "email": "ada@example.com"}
	if diff := cmp.Diff(want, update(map[string]any{"4": nil})); diff != "" {
		t.Errorf("after removing lastname by id (-want +got):\n%s", diff)
	}

	// A new attribute works by name and id; renaming it changes the
	// response key; deleting it drops its values.
	prop := mustCreate(t, s, "/rest/1000/properties", map[string]any{"name": "city"})
	pid := idOf(t, prop)
	if got := update(map[string]any{pid: "Paris"}); got["city"] != "Paris" {
		t.Errorf("new attribute by id: %v", got)
	}
	wantStatus(t, do(t, s, http.MethodPut, "/rest/1000/properties/"+pid, map[string]any{"name": "town"}), http.StatusOK)
	rec := do(t, s, http.MethodGet, base+"/c", nil)
	if got := decodeObject(t, rec)["properties"].(map[string]any); got["town"] != "Paris" || got["city"] != nil {
		t.Errorf("after rename: %v", got)
	}
	wantStatus(t, do(t, s, http.MethodDelete, "/rest/1000/properties/"+pid, nil), http.StatusNoContent)
	rec = do(t, s, http.MethodGet, base+"/c", nil)
	if diff := cmp.Diff(want, decodeObject(t, rec)["properties"]); diff != "" {
		t.Errorf("after deleting the attribute (-want +got):\n%s", diff)
	}
}

func TestPropertyRules(t *testing.T) {
	s := New(Options{})
	rec := do(t, s, http.MethodGet, "/rest/1000/properties", nil)
	wantStatus(t, rec, http.StatusOK)
	var names []any
	for _, p := range decodeArray(t, rec) {
		names = append(names, p["name"])
	}
	if diff := cmp.Diff([]any{"email", "mobile", "firstname", "lastname"}, names); diff != "" {
		t.Errorf("preloaded properties (-want +got):\n%s", diff)
	}
	wantError(t, do(t, s, http.MethodPost, "/rest/1000/properties", map[string]any{"name": "email"}),
		ErrorBody{409, CodeConflict, `a property named "email" already exists (id 1)`, "name"})
	wantError(t, do(t, s, http.MethodPut, "/rest/1000/properties/2", map[string]any{"name": "email"}),
		ErrorBody{409, CodeConflict, `a property named "email" already exists (id 1)`, "name"})
	wantError(t, do(t, s, http.MethodPost, "/rest/1000/properties", map[string]any{"name": "42"}),
		ErrorBody{400, CodeValidation, `a property name must not consist of digits only ("42"): a contact property key of digits names an attribute by id`, "name"})
	// Renaming to its own name is no clash.
	wantStatus(t, do(t, s, http.MethodPut, "/rest/1000/properties/1", map[string]any{"name": "email"}), http.StatusOK)
}

func TestListFields(t *testing.T) {
	s := New(Options{})
	l := mustCreate(t, s, "/rest/1000/lists", map[string]any{"name": "n", "description": "d", "senderName": "News", "senderEmail": "news@example.com"})
	if l["senderEmail"] != "news@example.com" || l["senderName"] != "News" || l["description"] != "d" {
		t.Errorf("list = %v", l)
	}
	wantError(t, do(t, s, http.MethodPost, "/rest/1000/lists", map[string]any{"name": "n", "senderEmail": "News <news@example.com>"}),
		ErrorBody{400, CodeValidation, `senderEmail must be a bare e-mail address such as news@example.com, got "News <news@example.com>"`, "senderEmail"})
	wantError(t, do(t, s, http.MethodPut, "/rest/1000/lists/"+idOf(t, l), map[string]any{"description": 5}),
		ErrorBody{400, CodeValidation, "description must be a string", "description"})
}

func TestContactPaging(t *testing.T) {
	s := New(Options{})
	listID, base := newList(t, s)
	const n = 2345
	seed := make([]Contact, n)
	for i := range seed {
		seed[i] = Contact{OriginalID: fmt.Sprintf("c%05d", n-i), Properties: map[string]string{"email": fmt.Sprintf("r%d@example.com", i)}}
	}
	if err := s.UpsertContacts(mustInt(t, listID), seed); err != nil {
		t.Fatal(err)
	}
	var got []string
	for page := 0; ; page++ {
		rec := do(t, s, http.MethodGet, fmt.Sprintf("%s?page=%d&pageSize=1000", base, page), nil)
		wantStatus(t, rec, http.StatusOK)
		wantTotal := n + min(page, 1) // "late" counts from page 1 on
		if tc := rec.Header().Get("X-Total-Count"); tc != fmt.Sprint(wantTotal) {
			t.Fatalf("X-Total-Count = %q", tc)
		}
		items := decodeArray(t, rec)
		for _, c := range items {
			got = append(got, c["originalId"].(string))
		}
		if page == 0 {
			// A contact created while paging goes to the end: pages
			// already read are not shifted.
			mustCreate(t, s, base, map[string]any{"originalId": "late"})
		}
		if len(items) < 1000 {
			break
		}
	}
	var want []string
	for _, c := range seed {
		want = append(want, c.OriginalID)
	}
	want = append(want, "late")
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("paged originalIds, in creation order (-want +got):\n%s", diff)
	}
	// Default page size.
	if items := decodeArray(t, do(t, s, http.MethodGet, base, nil)); len(items) != 100 {
		t.Errorf("default page holds %d contacts", len(items))
	}
}

func TestListDeletionRemovesContacts(t *testing.T) {
	s := New(Options{})
	listID, base := newList(t, s)
	otherID, other := newList(t, s)
	mustCreate(t, s, base, map[string]any{"originalId": "c"})
	mustCreate(t, s, other, map[string]any{"originalId": "c"}) // originalId is unique per list only
	wantStatus(t, do(t, s, http.MethodDelete, "/rest/1000/lists/"+listID, nil), http.StatusNoContent)
	wantError(t, do(t, s, http.MethodGet, base+"/c", nil), ErrorBody{404, CodeNotFound, "no list with id " + listID, ""})
	wantError(t, do(t, s, http.MethodGet, base, nil), ErrorBody{404, CodeNotFound, "no list with id " + listID, ""})
	if s.store.Contacts.ListHolder(mustInt(t, listID)) != nil {
		t.Error("the deleted list's contacts are still stored")
	}
	wantStatus(t, do(t, s, http.MethodGet, other+"/c", nil), http.StatusOK)
	_ = otherID
}

func TestSeedingAPI(t *testing.T) {
	s := New(Options{})
	listID, base := newList(t, s)
	id := mustInt(t, listID)
	if err := s.UpsertContacts(id, []Contact{
		{OriginalID: "a", Properties: map[string]string{"email": "a@example.com"}},
		{OriginalID: "b", Properties: map[string]string{"email": "b@example.com"}, MobileStatus: "UNSUBSCRIBED"},
	}); err != nil {
		t.Fatal(err)
	}
	// Upsert merges into an existing contact.
	if err := s.UpsertContacts(id, []Contact{{OriginalID: "a", Properties: map[string]string{"firstname": "A"}, Status: "UNSUBSCRIBED"}}); err != nil {
		t.Fatal(err)
	}
	a := decodeObject(t, do(t, s, http.MethodGet, base+"/a", nil))
	if diff := cmp.Diff(map[string]any{"email": "a@example.com", "firstname": "A"}, a["properties"]); diff != "" || a["status"] != "UNSUBSCRIBED" {
		t.Errorf("after upsert: %v %s", a, diff)
	}
	// Replace keeps b's identity and states, drops a, adds c.
	bBefore := decodeObject(t, do(t, s, http.MethodGet, base+"/b", nil))
	if err := s.ReplaceContacts(id, []Contact{{OriginalID: "b", Properties: map[string]string{"lastname": "B"}}, {OriginalID: "c"}}); err != nil {
		t.Fatal(err)
	}
	var ids []any
	for _, c := range decodeArray(t, do(t, s, http.MethodGet, base, nil)) {
		ids = append(ids, c["originalId"])
	}
	if diff := cmp.Diff([]any{"b", "c"}, ids); diff != "" {
		t.Errorf("after replace (-want +got):\n%s", diff)
	}
	b := decodeObject(t, do(t, s, http.MethodGet, base+"/b", nil))
	if b["id"] != bBefore["id"] || b["mobileStatus"] != "UNSUBSCRIBED" || cmp.Diff(map[string]any{"lastname": "B"}, b["properties"]) != "" {
		t.Errorf("b after replace: %v", b)
	}
	// A bad contact changes nothing.
	if err := s.ReplaceContacts(id, []Contact{{OriginalID: "z", Properties: map[string]string{"nosuch": "x"}}}); err == nil {
		t.Error("replace with an unknown attribute succeeded")
	}
	if n := len(decodeArray(t, do(t, s, http.MethodGet, base, nil))); n != 2 {
		t.Errorf("a refused replace changed the list: %d contacts", n)
	}
	if err := s.UpsertContacts(99999, []Contact{{OriginalID: "a"}}); err == nil {
		t.Error("upsert into an unknown list succeeded")
	}
}
