package emulator

import (
	"encoding/json"
	"net/http"
	"strings"
	"testing"
	"testing/synctest"
	"time"

	"github.com/google/go-cmp/cmp"

	"github.com/rms-labs/terraform-provider-rms/internal/emulator/apierr"
)

func TestProjectCRUDRoundTrip(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		t0 := time.Now()
		s := New(Options{})

		// Create: 201, whole entity, Location; server-set keys in the body ignored.
		rec := do(t, s, http.MethodPost, "/rest/1000/projects", map[string]any{
			"name": "Spring", "colour": "green", "id": 999, "dateCreated": "1999-01-01T00:00:00Z",
		})
		wantStatus(t, rec, http.StatusCreated)
		created := decodeObject(t, rec)
		id := idOf(t, created)
		if id == "999" {
			t.Fatal("id taken from the body")
		}
		if got, want := rec.Header().Get("Location"), "/rest/1000/projects/"+id; got != want {
			t.Errorf("Location = %q, want %q", got, want)
		}
		if ct := rec.Header().Get("Content-Type"); ct != "application/json; charset=utf-8" {
			t.Errorf("Content-Type = %q", ct)
		}
		wantCreated := map[string]any{
			"id": json.Number(id), "name": "Spring", "colour": "green",
			"dateCreated": rfc3339(t0), "dateModified": rfc3339(t0),
		}
		if diff := cmp.Diff(wantCreated, created); diff != "" {
			t.Errorf("created (-want +got):\n%s", diff)
		}

		// Read back one and all.
		rec = do(t, s, http.MethodGet, "/rest/1000/projects/"+id, nil)
		wantStatus(t, rec, http.StatusOK)
		if diff := cmp.Diff(created, decodeObject(t, rec)); diff != "" {
			t.Errorf("get one (-created +got):\n%s", diff)
		}
		rec = do(t, s, http.MethodGet, "/rest/1000/projects", nil)
		wantStatus(t, rec, http.StatusOK)
		if diff := cmp.Diff([]map[string]any{created}, decodeArray(t, rec)); diff != "" {
			t.Errorf("get all (-want +got):\n%s", diff)
		}

		// Merge-PUT: given keys replace, null removes, left-out keys stay.
		advance(90 * time.Second)
		rec = do(t, s, http.MethodPut, "/rest/1000/projects/"+id, map[string]any{
			"colour": nil, "size": 3, "id": 5, "dateModified": "1999-01-01T00:00:00Z",
		})
		wantStatus(t, rec, http.StatusOK)
		wantUpdated := map[string]any{
			"id": json.Number(id), "name": "Spring", "size": json.Number("3"),
			"dateCreated": rfc3339(t0), "dateModified": rfc3339(t0.Add(90 * time.Second)),
		}
		if diff := cmp.Diff(wantUpdated, decodeObject(t, rec)); diff != "" {
			t.Errorf("updated (-want +got):\n%s", diff)
		}
		rec = do(t, s, http.MethodGet, "/rest/1000/projects/"+id, nil)
		if diff := cmp.Diff(wantUpdated, decodeObject(t, rec)); diff != "" {
			t.Errorf("get after update (-want +got):\n%s", diff)
		}

		// Delete, then it is gone everywhere.
		rec = do(t, s, http.MethodDelete, "/rest/1000/projects/"+id, nil)
		wantStatus(t, rec, http.StatusNoContent)
		if rec.Body.Len() != 0 {
			t.Errorf("204 with body %q", rec.Body.String())
		}
		wantErrorCode(t, do(t, s, http.MethodGet, "/rest/1000/projects/"+id, nil), http.StatusNotFound, CodeNotFound)
		wantErrorCode(t, do(t, s, http.MethodPut, "/rest/1000/projects/"+id, map[string]any{"name": "x"}), http.StatusNotFound, CodeNotFound)
		wantErrorCode(t, do(t, s, http.MethodDelete, "/rest/1000/projects/"+id, nil), http.StatusNotFound, CodeNotFound)
		rec = do(t, s, http.MethodGet, "/rest/1000/projects", nil)
		if got := rec.Body.String(); strings.TrimSpace(got) != "[]" {
			t.Errorf("empty collection = %q, want []", got)
		}
	})
}

func TestIDsIncreaseAcrossCollections(t *testing.T) {
	s := New(Options{})
	var last int64
	for _, coll := range []string{"projects", "lists", "campaigns", "projects"} {
		e := mustCreate(t, s, "/rest/1000/"+coll, map[string]any{"name": "n"})
		n, err := e["id"].(json.Number).Int64()
		if err != nil || n <= last {
			t.Fatalf("id %v after %d in %s: not increasing", e["id"], last, coll)
		}
		last = n
	}
}

func TestEveryGenericDomainFollowsThePattern(t *testing.T) {
	s := New(Options{})
	for coll := range genericDomains {
		t.Run(coll, func(t *testing.T) {
			e := mustCreate(t, s, "/rest/1000/"+coll, map[string]any{"name": "n", "x": true})
			path := "/rest/1000/" + coll + "/" + idOf(t, e)
			wantStatus(t, do(t, s, http.MethodGet, path, nil), http.StatusOK)
			wantStatus(t, do(t, s, http.MethodPut, path, map[string]any{"x": false}), http.StatusOK)
			wantStatus(t, do(t, s, http.MethodDelete, path, nil), http.StatusNoContent)
		})
	}
}

func TestValidationErrors(t *testing.T) {
	s := New(Options{})
	project := mustCreate(t, s, "/rest/1000/projects", map[string]any{"name": "p"})
	projectPath := "/rest/1000/projects/" + idOf(t, project)
	mandatory := ErrorBody{Status: 400, Code: CodeValidation, Message: "name is mandatory", Field: "name"}
	tests := []struct {
		name   string
		method string
		path   string
		body   any
		want   ErrorBody
	}{
		{"project without name", http.MethodPost, "/rest/1000/projects", map[string]any{"colour": "red"}, mandatory},
		{"project with empty name", http.MethodPost, "/rest/1000/projects", map[string]any{"name": ""}, mandatory},
		{"project with null name", http.MethodPost, "/rest/1000/projects", map[string]any{"name": nil}, mandatory},
		{"list without name", http.MethodPost, "/rest/1000/lists", map[string]any{}, mandatory},
		{"project with numeric name", http.MethodPost, "/rest/1000/projects", map[string]any{"name": 5},
			ErrorBody{Status: 400, Code: CodeValidation, Message: "name must be a string", Field: "name"}},
		{"put nulling the name", http.MethodPut, projectPath, map[string]any{"name": nil}, mandatory},
		{"put emptying the name", http.MethodPut, projectPath, map[string]any{"name": ""}, mandatory},
		{"array body", http.MethodPost, "/rest/1000/campaigns", "[1,2]",
			ErrorBody{Status: 400, Code: CodeValidation, Message: "request body must be a JSON object"}},
		{"string body", http.MethodPut, projectPath, `"x"`,
			ErrorBody{Status: 400, Code: CodeValidation, Message: "request body must be a JSON object"}},
		{"empty body", http.MethodPost, "/rest/1000/campaigns", "",
			ErrorBody{Status: 400, Code: CodeValidation, Message: "request body is empty; a JSON object is required"}},
		{"trailing data", http.MethodPost, "/rest/1000/campaigns", `{} {}`,
			ErrorBody{Status: 400, Code: CodeValidation, Message: "request body holds data after the JSON value"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			wantError(t, do(t, s, tt.method, tt.path, tt.body), tt.want)
		})
	}
	// A failed PUT changes nothing.
	rec := do(t, s, http.MethodGet, projectPath, nil)
	if got := decodeObject(t, rec)["name"]; got != "p" {
		t.Errorf("name after refused PUTs = %v, want p", got)
	}
	// Malformed JSON is a validation error too.
	wantErrorCode(t, do(t, s, http.MethodPost, "/rest/1000/campaigns", `{"a":`), http.StatusBadRequest, CodeValidation)
}

func TestNullOnCreateIsAbsent(t *testing.T) {
	s := New(Options{})
	e := mustCreate(t, s, "/rest/1000/forms", map[string]any{"a": nil, "b": 1})
	if _, ok := e["a"]; ok {
		t.Errorf("null key stored on create: %v", e)
	}
}

func TestInternalAndUnknownDomains(t *testing.T) {
	s := New(Options{})
	tests := []struct {
		method, path, wantMsg string
	}{
		{http.MethodGet, "/rest/1000/ping", "Ping is an internal-only domain with no public interface"},
		{http.MethodGet, "/rest/1000/Systeminfo", "Systeminfo is an internal-only domain with no public interface"},
		{http.MethodPost, "/rest/1000/FTPACCOUNTS", "FtpAccounts is an internal-only domain with no public interface"},
		{http.MethodDelete, "/rest/1000/maintenance/1", "Maintenance is an internal-only domain with no public interface"},
		{http.MethodGet, "/rest/1000/features/1/x/2", "Features is an internal-only domain with no public interface"},
		{http.MethodGet, "/rest/1000/nosuch", `no collection "nosuch"`},
		// A wrong method on an unknown collection is 404, not 405.
		{http.MethodPost, "/rest/1000/nosuch/1", `no collection "nosuch"`},
		// Domains outside the generic pattern.
		{http.MethodGet, "/rest/1000/authentication", `no collection "authentication"`},
		// Public domains are matched by their lower-case name only.
		{http.MethodGet, "/rest/1000/Projects", `no collection "Projects"`},
		{http.MethodGet, "/rest/1000", "no such path: /rest/1000"},
		{http.MethodGet, "/rest/1000/projects/1/a/2/b", "no such path: /rest/1000/projects/1/a/2/b"},
		{http.MethodGet, "/nothing", "no such path: /nothing"},
	}
	for _, tt := range tests {
		t.Run(tt.method+" "+tt.path, func(t *testing.T) {
			var body any
			if tt.method == http.MethodPost {
				body = map[string]any{}
			}
			wantError(t, do(t, s, tt.method, tt.path, body), ErrorBody{Status: 404, Code: CodeNotFound, Message: tt.wantMsg})
		})
	}
}

func TestBadIDs(t *testing.T) {
	s := New(Options{})
	for _, path := range []string{"/rest/1000/projects/abc", "/rest/1000/projects/0", "/rest/1000/projects/-1", "/rest/1000/projects/99"} {
		wantErrorCode(t, do(t, s, http.MethodGet, path, nil), http.StatusNotFound, CodeNotFound)
	}
}

func TestNumbersRoundTripExactly(t *testing.T) {
	s := New(Options{})
	body := `{"name":"n","big":12345678901234567890,"half":1.5,"tiny":1e-30,"neg":-0.1,"nested":{"n":[9007199254740993,2.50]}}`
	rec := do(t, s, http.MethodPost, "/rest/1000/projects", body)
	wantStatus(t, rec, http.StatusCreated)
	path := rec.Header().Get("Location")
	do(t, s, http.MethodPut, path, `{"other":1}`)
	got := do(t, s, http.MethodGet, path, nil).Body.String()
	for _, lit := range []string{`"big":12345678901234567890`, `"half":1.5`, `"tiny":1e-30`, `"neg":-0.1`, `"n":[9007199254740993,2.50]`} {
		if !strings.Contains(got, lit) {
			t.Errorf("response %s lacks %s", got, lit)
		}
	}
}

func TestNestedCollections(t *testing.T) {
	s := New(Options{})
	parent := mustCreate(t, s, "/rest/1000/campaigns", map[string]any{"title": "c"})
	base := "/rest/1000/campaigns/" + idOf(t, parent) + "/notes"

	rec := do(t, s, http.MethodPost, base, map[string]any{"text": "hello"})
	wantStatus(t, rec, http.StatusCreated)
	note := decodeObject(t, rec)
	notePath := base + "/" + idOf(t, note)
	if got := rec.Header().Get("Location"); got != notePath {
		t.Errorf("Location = %q, want %q", got, notePath)
	}
	rec = do(t, s, http.MethodGet, base, nil)
	wantStatus(t, rec, http.StatusOK)
	if got := decodeArray(t, rec); len(got) != 1 || got[0]["text"] != "hello" {
		t.Errorf("nested list = %v", got)
	}
	if rec.Header().Get("X-Total-Count") != "1" {
		t.Errorf("X-Total-Count = %q", rec.Header().Get("X-Total-Count"))
	}
	rec = do(t, s, http.MethodPut, notePath, map[string]any{"text": "bye"})
	wantStatus(t, rec, http.StatusOK)
	if got := decodeObject(t, rec)["text"]; got != "bye" {
		t.Errorf("text after PUT = %v", got)
	}
	wantStatus(t, do(t, s, http.MethodGet, notePath, nil), http.StatusOK)

	// Another parent's nested collection of the same name is separate.
	other := mustCreate(t, s, "/rest/1000/campaigns", map[string]any{})
	otherBase := "/rest/1000/campaigns/" + idOf(t, other) + "/notes"
	if got := decodeArray(t, do(t, s, http.MethodGet, otherBase, nil)); len(got) != 0 {
		t.Errorf("other parent sees %v", got)
	}
	wantErrorCode(t, do(t, s, http.MethodGet, otherBase+"/"+idOf(t, note), nil), http.StatusNotFound, CodeNotFound)

	// A missing parent is 404 for every method.
	for _, m := range []string{http.MethodGet, http.MethodPost} {
		wantErrorCode(t, do(t, s, m, "/rest/1000/campaigns/999/notes", map[string]any{}), http.StatusNotFound, CodeNotFound)
	}
	wantErrorCode(t, do(t, s, http.MethodGet, "/rest/1000/campaigns/abc/notes", nil), http.StatusNotFound, CodeNotFound)

	// Deleting the parent deletes its nested entities.
	wantStatus(t, do(t, s, http.MethodDelete, "/rest/1000/campaigns/"+idOf(t, parent), nil), http.StatusNoContent)
	wantErrorCode(t, do(t, s, http.MethodGet, notePath, nil), http.StatusNotFound, CodeNotFound)
	wantErrorCode(t, do(t, s, http.MethodGet, base, nil), http.StatusNotFound, CodeNotFound)
	if _, kept, _ := s.store.Page(nil, "campaigns/"+idOf(t, parent)+"/notes", 0, 1); kept != 0 {
		t.Error("nested collection survives its parent in the store")
	}
}

func TestNestedMandatoryFields(t *testing.T) {
	s := New(Options{})
	// Later work adds entries to the table; a server copies it at New.
	s.mandatory["campaigns/notes"] = []string{"text"}
	parent := mustCreate(t, s, "/rest/1000/campaigns", map[string]any{})
	base := "/rest/1000/campaigns/" + idOf(t, parent) + "/notes"
	wantError(t, do(t, s, http.MethodPost, base, map[string]any{"x": 1}),
		ErrorBody{Status: 400, Code: CodeValidation, Message: "text is mandatory", Field: "text"})
	mustCreate(t, s, base, map[string]any{"text": "t"})
	// The rule is keyed by collection/sub: other subs are free.
	mustCreate(t, s, "/rest/1000/campaigns/"+idOf(t, parent)+"/other", map[string]any{"x": 1})
	if _, ok := New(Options{}).mandatory["campaigns/notes"]; ok {
		t.Error("servers share their mandatory-field table")
	}
}

// Explicit routes of later work claim their sub-collection: the generic
// nested handlers must not serve the methods those routes lack.
func TestExplicitRoutesWinOverGeneric(t *testing.T) {
	s := New(Options{})
	s.handleJSON("GET /rest/{customerid}/projects/{id}/members", func(w http.ResponseWriter, r *http.Request) *apierr.Error {
		s.writeJSON(w, http.StatusOK, []string{"explicit"})
		return nil
	})
	s.handleJSON("GET /rest/{customerid}/widgets/{widgetId}", func(w http.ResponseWriter, r *http.Request) *apierr.Error {
		s.writeJSON(w, http.StatusOK, map[string]string{"widget": r.PathValue("widgetId")})
		return nil
	})
	project := mustCreate(t, s, "/rest/1000/projects", map[string]any{"name": "p"})
	contacts := "/rest/1000/projects/" + idOf(t, project) + "/members"

	rec := do(t, s, http.MethodGet, contacts, nil)
	wantStatus(t, rec, http.StatusOK)
	if !strings.Contains(rec.Body.String(), "explicit") {
		t.Errorf("explicit route not chosen: %s", rec.Body.String())
	}
	rec = do(t, s, http.MethodPost, contacts, map[string]any{})
	wantErrorCode(t, rec, http.StatusMethodNotAllowed, CodeMethodNotAllowed)
	if got := rec.Header().Get("Allow"); got != "GET, HEAD" {
		t.Errorf("Allow = %q, want GET, HEAD", got)
	}
	wantErrorCode(t, do(t, s, http.MethodDelete, contacts+"/7", nil), http.StatusMethodNotAllowed, CodeMethodNotAllowed)

	rec = do(t, s, http.MethodGet, "/rest/1000/widgets/12", nil)
	wantStatus(t, rec, http.StatusOK)
	if !strings.Contains(rec.Body.String(), `"widget":"12"`) {
		t.Errorf("widgets route: %s", rec.Body.String())
	}
	// widgets is now a known collection, but not a generic one: a path no
	// explicit route serves is 404, a method the explicit route lacks 405.
	wantError(t, do(t, s, http.MethodGet, "/rest/1000/widgets", nil),
		ErrorBody{Status: 404, Code: CodeNotFound, Message: "no such path: /rest/1000/widgets"})
	rec = do(t, s, http.MethodPut, "/rest/1000/widgets/12", map[string]any{})
	wantErrorCode(t, rec, http.StatusMethodNotAllowed, CodeMethodNotAllowed)
	if got := rec.Header().Get("Allow"); got != "GET, HEAD" {
		t.Errorf("Allow = %q, want GET, HEAD", got)
	}
}
