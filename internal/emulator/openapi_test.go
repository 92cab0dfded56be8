package emulator

import (
	"bytes"
	"context"
	"io"
	"net/http"
	"net/http/httptest"
	"regexp"
	"strings"
	"testing"

	"github.com/getkin/kin-openapi/openapi3"
	"github.com/getkin/kin-openapi/openapi3filter"
	"github.com/getkin/kin-openapi/routers/gorillamux"
)

// loadServedDocument fetches /mail/swagger from s and validates it.
func loadServedDocument(t *testing.T, s *Server) *openapi3.T {
	t.Helper()
	rec := do(t, s, http.MethodGet, "/mail/swagger", nil, withoutAuth())
	wantStatus(t, rec, http.StatusOK)
	if ct := rec.Header().Get("Content-Type"); ct != "application/json; charset=utf-8" {
		t.Errorf("Content-Type = %q", ct)
	}
	doc, err := openapi3.NewLoader().LoadFromData(rec.Body.Bytes())
	if err != nil {
		t.Fatalf("loading the OpenAPI document: %v", err)
	}
	if err := doc.Validate(context.Background()); err != nil {
		t.Fatalf("the OpenAPI document is invalid: %v", err)
	}
	return doc
}

func TestOpenAPIDocumentIsValid(t *testing.T) {
	doc := loadServedDocument(t, New(Options{}))
	if !strings.HasPrefix(doc.OpenAPI, "3.0") {
		t.Errorf("openapi = %q, want 3.0.x", doc.OpenAPI)
	}
	for _, name := range []string{"Project", "List", "Error", "Entity"} {
		if doc.Components.Schemas[name] == nil {
			t.Errorf("schema %s missing", name)
		}
	}
	if ss := doc.Components.SecuritySchemes["basicAuth"]; ss == nil || ss.Value.Scheme != "basic" {
		t.Error("Basic security scheme missing")
	}
	if !bytes.Equal(OpenAPIDocument(), openAPIDocument) {
		t.Error("OpenAPIDocument differs from the embedded document")
	}
}

// Every route the server registers is documented, and every documented
// operation is served: the document describes exactly what is implemented.
func TestOpenAPIDocumentsEveryRoute(t *testing.T) {
	s := New(Options{})
	doc := loadServedDocument(t, s)
	for _, route := range s.routes {
		method, path, _ := strings.Cut(route, " ")
		// The one exception: the console (console.go) is the emulator's
		// own page for people, not the service's interface, so the
		// document leaves it out. Only GET routes under /console qualify.
		if method == http.MethodGet && (path == consoleBase || strings.HasPrefix(path, consoleBase+"/")) {
			continue
		}
		item := doc.Paths.Value(path)
		if item == nil || item.GetOperation(method) == nil {
			t.Errorf("route %q is not documented", route)
		}
	}
	sample := strings.NewReplacer("{customerid}", "1000", "{collection}", "campaigns", "{id}", "1", "{sub}", "notes", "{subid}", "2", "{batchId}", "3", "{listId}", "1", "{token}", "0123456789abcdef0123456789abcdef")
	for path, item := range doc.Paths.Map() {
		for method := range item.Operations() {
			r := httptest.NewRequest(method, sample.Replace(path), nil)
			if _, pattern := s.mux.Handler(r); pattern == "" {
				t.Errorf("documented %s %s is not served", method, path)
			}
		}
	}
}

// Real responses of the emulator conform to its document.
func TestResponsesMatchOpenAPIDocument(t *testing.T) {
	s := New(Options{Retired: map[string]string{"sms": "replaced"}})
	doc := loadServedDocument(t, s)
	router, err := gorillamux.NewRouter(doc)
	if err != nil {
		t.Fatalf("building router: %v", err)
	}
	project := mustCreate(t, s, "/rest/1000/projects", map[string]any{"name": "p", "extra": []any{1, "a"}})
	list := mustCreate(t, s, "/rest/1000/lists", map[string]any{"name": "l"})
	campaign := mustCreate(t, s, "/rest/1000/campaigns", map[string]any{"subject": "s"})
	note := mustCreate(t, s, "/rest/1000/campaigns/"+idOf(t, campaign)+"/notes", map[string]any{"t": 1})
	projectPath := "/rest/1000/projects/" + idOf(t, project)
	contactsPath := "/rest/1000/lists/" + idOf(t, list) + "/contacts"
	mustCreate(t, s, contactsPath, map[string]any{"originalId": "c1", "properties": map[string]any{"email": "a@example.com"}})
	notePath := "/rest/1000/campaigns/" + idOf(t, campaign) + "/notes/" + idOf(t, note)

	tests := []struct {
		name         string
		method, path string
		body         string
		opts         []reqOption
		wantStatus   int
		wantOpID     string
	}{
		{"swagger", http.MethodGet, "/mail/swagger", "", nil, 200, "getOpenAPIDocument"},
		{"list projects", http.MethodGet, "/rest/1000/projects?page=0&pageSize=10", "", nil, 200, "listProjects"},
		{"create project", http.MethodPost, "/rest/1000/projects", `{"name":"q","n":1.5}`, nil, 201, "createProject"},
		{"get project", http.MethodGet, projectPath, "", nil, 200, "getProject"},
		{"update project", http.MethodPut, projectPath, `{"extra":null}`, nil, 200, "updateProject"},
		{"project without name", http.MethodPost, "/rest/1000/projects", `{"x":1}`, nil, 400, "createProject"},
		{"bad pageSize", http.MethodGet, "/rest/1000/lists?pageSize=0", "", nil, 400, "listLists"},
		{"get list", http.MethodGet, "/rest/1000/lists/" + idOf(t, list), "", nil, 200, "getList"},
		{"unauthorized", http.MethodGet, "/rest/1000/lists", "", []reqOption{withoutAuth()}, 401, "listLists"},
		{"forbidden", http.MethodGet, "/rest/1001/lists", "", nil, 403, "listLists"},
		{"not acceptable", http.MethodGet, "/rest/1000/lists", "", []reqOption{withHeader("Accept", "text/plain")}, 406, "listLists"},
		{"create contact", http.MethodPost, contactsPath, `{"originalId":"c2","properties":{"3":"Ada"},"status":"UNSUBSCRIBED"}`, nil, 201, "createContact"},
		{"duplicate contact", http.MethodPost, contactsPath, `{"originalId":"c2"}`, nil, 409, "createContact"},
		{"contact unknown attribute", http.MethodPost, contactsPath, `{"originalId":"c3","properties":{"nosuch":"x"}}`, nil, 400, "createContact"},
		{"list contacts", http.MethodGet, contactsPath + "?page=0&pageSize=1", "", nil, 200, "listContacts"},
		{"get contact", http.MethodGet, contactsPath + "/c1", "", nil, 200, "getContact"},
		{"missing contact", http.MethodGet, contactsPath + "/nobody", "", nil, 404, "getContact"},
		{"update contact", http.MethodPut, contactsPath + "/c1", `{"properties":{"firstname":"A","email":null}}`, nil, 200, "updateContact"},
		{"subscription status", http.MethodPut, contactsPath + "/c1/subscriptionstatus", `{"mobileStatus":"UNSUBSCRIBED"}`, nil, 200, "putSubscriptionStatus"},
		{"bad subscription status", http.MethodPut, contactsPath + "/c1/subscriptionstatus", `{"status":"NO"}`, nil, 400, "putSubscriptionStatus"},
		{"list properties", http.MethodGet, "/rest/1000/properties", "", nil, 200, "listProperties"},
		{"duplicate property", http.MethodPost, "/rest/1000/properties", `{"name":"email"}`, nil, 409, "createProperty"},
		{"generic list", http.MethodGet, "/rest/1000/campaigns", "", nil, 200, "listEntities"},
		{"generic create", http.MethodPost, "/rest/1000/triggers", `{"a":{"b":[1]}}`, nil, 201, "createEntity"},
		{"generic missing", http.MethodGet, "/rest/1000/forms/99999", "", nil, 404, "getEntity"},
		{"retired", http.MethodGet, "/rest/1000/sms", "", nil, 410, "listEntities"},
		{"nested list", http.MethodGet, "/rest/1000/campaigns/" + idOf(t, campaign) + "/notes", "", nil, 200, "listNestedEntities"},
		{"nested update", http.MethodPut, notePath, `{"t":2}`, nil, 200, "updateNestedEntity"},
		{"too large", http.MethodPost, "/rest/1000/forms", `{"p":"` + strings.Repeat("x", maxJSONBody) + `"}`, nil, 413, "createEntity"},
		{"wrong media type", http.MethodPut, projectPath, `{}`, []reqOption{withHeader("Content-Type", "text/plain")}, 415, "updateProject"},
		{"nested delete", http.MethodDelete, notePath, "", nil, 204, "deleteNestedEntity"},
		{"delete project", http.MethodDelete, projectPath, "", nil, 204, "deleteProject"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			var body any
			if tt.body != "" {
				body = tt.body
			}
			rec := do(t, s, tt.method, tt.path, body, tt.opts...)
			wantStatus(t, rec, tt.wantStatus)

			// Rebuild the request as sent, to find its route in the document.
			req := httptest.NewRequest(tt.method, tt.path, strings.NewReader(tt.body))
			route, params, err := router.FindRoute(req)
			if err != nil {
				t.Fatalf("no documented route for %s %s: %v", tt.method, tt.path, err)
			}
			if route.Operation.OperationID != tt.wantOpID {
				t.Errorf("routed to %s, want %s", route.Operation.OperationID, tt.wantOpID)
			}
			input := &openapi3filter.ResponseValidationInput{
				RequestValidationInput: &openapi3filter.RequestValidationInput{
					Request: req, PathParams: params, Route: route,
				},
				Status:  rec.Code,
				Header:  rec.Header(),
				Body:    io.NopCloser(bytes.NewReader(rec.Body.Bytes())),
				Options: &openapi3filter.Options{IncludeResponseStatus: true},
			}
			if err := openapi3filter.ValidateResponse(context.Background(), input); err != nil {
				t.Errorf("response does not match the document: %v\nbody: %.300s", err, rec.Body.String())
			}
		})
	}

	// The validation above has teeth: a project without its name, or an
	// error without its code, does not pass.
	for _, bad := range []struct{ path, body string }{
		{"/rest/1000/projects/1", `{"id":1,"dateCreated":"2026-11-22T10:00:00Z","dateModified":"2026-11-22T10:00:00Z"}`},
		{"/rest/1000/nosuch/1/2/3/4", `{"status":404,"message":"m"}`},
	} {
		req := httptest.NewRequest(http.MethodGet, bad.path, nil)
		route, params, err := router.FindRoute(req)
		if err != nil {
			// The unknown path has no route; validate against getProject's 404.
			req = httptest.NewRequest(http.MethodGet, "/rest/1000/projects/1", nil)
			if route, params, err = router.FindRoute(req); err != nil {
				t.Fatal(err)
			}
		}
		status := http.StatusOK
		if strings.Contains(bad.body, `"status":404`) {
			status = http.StatusNotFound
		}
		err = openapi3filter.ValidateResponse(context.Background(), &openapi3filter.ResponseValidationInput{
			RequestValidationInput: &openapi3filter.RequestValidationInput{Request: req, PathParams: params, Route: route},
			Status:                 status,
			Header:                 http.Header{"Content-Type": {jsonContentType}},
			Body:                   io.NopCloser(strings.NewReader(bad.body)),
		})
		if err == nil {
			t.Errorf("malformed response %s passed validation", bad.body)
		}
	}
}

// Requests a well-behaved client sends validate against the document, and a
// request the server refuses is refused by the document too.
func TestRequestsMatchOpenAPIDocument(t *testing.T) {
	s := New(Options{})
	doc := loadServedDocument(t, s)
	router, err := gorillamux.NewRouter(doc)
	if err != nil {
		t.Fatalf("building router: %v", err)
	}
	validate := func(method, path, body string) error {
		req := httptest.NewRequest(method, path, strings.NewReader(body))
		req.SetBasicAuth(DefaultUsername, DefaultPassword)
		req.Header.Set("Content-Type", "application/json")
		route, params, err := router.FindRoute(req)
		if err != nil {
			return err
		}
		return openapi3filter.ValidateRequest(context.Background(), &openapi3filter.RequestValidationInput{
			Request: req, PathParams: params, Route: route,
			Options: &openapi3filter.Options{AuthenticationFunc: openapi3filter.NoopAuthenticationFunc},
		})
	}
	for _, tc := range []struct{ method, path, body string }{
		{http.MethodPost, "/rest/1000/projects", `{"name":"p"}`},
		{http.MethodPut, "/rest/1000/lists/3", `{"description":"d"}`},
		{http.MethodGet, "/rest/1000/campaigns?page=2&pageSize=1000", ""},
		{http.MethodPost, "/rest/1000/campaigns/1/notes", `{}`},
		{http.MethodPost, "/rest/1000/lists/1/contacts", `{"originalId":"c","properties":{"3":"Ada","email":null},"mobileStatus":"UNSUBSCRIBED"}`},
		{http.MethodPut, "/rest/1000/lists/1/contacts/c", `{"properties":{"firstname":"A"}}`},
		{http.MethodPut, "/rest/1000/lists/1/contacts/c/subscriptionstatus", `{"status":"SUBSCRIBED"}`},
		{http.MethodPost, "/rest/1000/properties", `{"name":"city"}`},
	} {
		if err := validate(tc.method, tc.path, tc.body); err != nil {
			t.Errorf("%s %s: valid request refused by the document: %v", tc.method, tc.path, err)
		}
	}
	for _, tc := range []struct{ method, path, body string }{
		{http.MethodPost, "/rest/1000/projects", `{"colour":"red"}`},
		{http.MethodGet, "/rest/1000/campaigns?pageSize=1001", ""},
		{http.MethodPost, "/rest/1000/lists/1/contacts", `{"properties":{}}`},
		{http.MethodPut, "/rest/1000/lists/1/contacts/c/subscriptionstatus", `{"status":"OFF"}`},
		{http.MethodPost, "/rest/1000/properties", `{"name":"12"}`},
		{http.MethodGet, "/rest/1000/ping", ""},
	} {
		err := validate(tc.method, tc.path, tc.body)
		if err == nil {
			t.Errorf("%s %s: the document accepts a request the emulator refuses", tc.method, tc.path)
		}
	}
}

// The document's paths use the same wildcard names as the mux patterns, so
// that the coverage test above can compare them textually.
func TestOpenAPIPathTemplatesMatchMuxSyntax(t *testing.T) {
	s := New(Options{})
	wildcard := regexp.MustCompile(`\{[a-zA-Z]+\}`)
	for _, route := range s.routes {
		_, path, _ := strings.Cut(route, " ")
		if stripped := wildcard.ReplaceAllString(path, ""); strings.ContainsAny(stripped, "{}.") {
			t.Errorf("pattern %q uses wildcard syntax the document cannot express", route)
		}
	}
}
