package emulator

import (
	"bytes"
	"context"
	"io"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"

	"github.com/getkin/kin-openapi/openapi3filter"
	"github.com/getkin/kin-openapi/routers/gorillamux"
)

func TestWebhookLifecycle(t *testing.T) {
	s := New(Options{})
	defer s.Close()
	created := mustCreate(t, s, "/rest/1000/webhooks", map[string]any{
		"url": "https://hooks.example.com/rms", "events": []string{"message.sent", "import.finished"}, "secret": "k1",
	})
	if created["active"] != true || created["hasSecret"] != true {
		t.Errorf("created = %v; want active true and hasSecret true", created)
	}
	if _, leaked := created["secret"]; leaked {
		t.Fatal("the secret was returned by POST")
	}
	path := "/rest/1000/webhooks/" + idOf(t, created)

	// A PUT without the secret keeps it; null removes it and the description.
	rec := do(t, s, http.MethodPut, path, map[string]any{"active": false, "description": "d"})
	wantStatus(t, rec, http.StatusOK)
	got := decodeObject(t, rec)
	if got["active"] != false || got["hasSecret"] != true || got["description"] != "d" {
		t.Errorf("after PUT: %v", got)
	}
	rec = do(t, s, http.MethodPut, path, map[string]any{"secret": nil, "description": nil, "hasSecret": true, "id": 99})
	wantStatus(t, rec, http.StatusOK)
	got = decodeObject(t, rec)
	if got["hasSecret"] != false || got["description"] != nil {
		t.Errorf("after null PUT: %v", got)
	}
	if stored, _ := s.store.Get(webhooksKey, mustInt(t, idOf(t, created))); stored["secret"] != nil {
		t.Error("the secret is still stored after null")
	}

	rec = do(t, s, http.MethodGet, "/rest/1000/webhooks", nil)
	wantStatus(t, rec, http.StatusOK)
	if all := decodeArray(t, rec); len(all) != 1 || all[0]["hasSecret"] != false {
		t.Errorf("list = %v", all)
	}
	wantStatus(t, do(t, s, http.MethodDelete, path, nil), http.StatusNoContent)
	wantErrorCode(t, do(t, s, http.MethodGet, path, nil), http.StatusNotFound, CodeNotFound)
	wantErrorCode(t, do(t, s, http.MethodDelete, path, nil), http.StatusNotFound, CodeNotFound)
	// Webhooks are not a generic domain: no nested collections under them.
	wantErrorCode(t, do(t, s, http.MethodGet, path+"/notes", nil), http.StatusNotFound, CodeNotFound)
}

func TestWebhookValidation(t *testing.T) {
	s := New(Options{})
	defer s.Close()
	tests := []struct {
		name, body, field string
	}{
		{"no url", `{"events":["message.sent"]}`, "url"},
		{"relative url", `{"url":"/hook","events":["message.sent"]}`, "url"},
		{"plain http elsewhere", `{"url":"http://hooks.example.com/x","events":["message.sent"]}`, "url"},
		{"ftp", `{"url":"ftp://127.0.0.1/x","events":["message.sent"]}`, "url"},
		{"a space in the url", `{"url":"https://hooks.example.com/a b","events":["message.sent"]}`, "url"},
		{"no events", `{"url":"https://h.example.com"}`, "events"},
		{"empty events", `{"url":"https://h.example.com","events":[]}`, "events"},
		{"unknown event", `{"url":"https://h.example.com","events":["message.exploded"]}`, "events"},
		{"duplicate event", `{"url":"https://h.example.com","events":["message.sent","message.sent"]}`, "events"},
		{"active not bool", `{"url":"https://h.example.com","events":["message.sent"],"active":"yes"}`, "active"},
		{"empty secret", `{"url":"https://h.example.com","events":["message.sent"],"secret":""}`, "secret"},
		{"unknown field", `{"url":"https://h.example.com","events":["message.sent"],"colour":"red"}`, "colour"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got := wantErrorCode(t, do(t, s, http.MethodPost, "/rest/1000/webhooks", tt.body), http.StatusBadRequest, CodeValidation)
			if got.Field != tt.field {
				t.Errorf("field = %q, want %q (%s)", got.Field, tt.field, got.Message)
			}
		})
	}
	for _, ok := range []string{"http://127.0.0.1:8080/x", "http://localhost/x", "http://[::1]:9/x", "https://h.example.com/x"} {
		mustCreate(t, s, "/rest/1000/webhooks", map[string]any{"url": ok, "events": []string{"contact.subscribed"}})
	}
	// A PUT that would leave the webhook invalid is refused and changes nothing.
	e := mustCreate(t, s, "/rest/1000/webhooks", map[string]any{"url": "https://h.example.com", "events": []string{"message.sent"}})
	got := wantErrorCode(t, do(t, s, http.MethodPut, "/rest/1000/webhooks/"+idOf(t, e), `{"events":null}`), http.StatusBadRequest, CodeValidation)
	if got.Field != "events" {
		t.Errorf("field = %q, want events", got.Field)
	}
}

// Webhook and send responses conform to the served OpenAPI document.
func TestWebhookAndTriggerResponsesMatchOpenAPIDocument(t *testing.T) {
	s := New(Options{})
	defer s.Close()
	doc := loadServedDocument(t, s)
	router, err := gorillamux.NewRouter(doc)
	if err != nil {
		t.Fatal(err)
	}
	hook := mustCreate(t, s, "/rest/1000/webhooks", map[string]any{"url": "https://h.example.com", "events": []string{"export.finished"}, "secret": "x"})
	trigger := mustCreate(t, s, "/rest/1000/triggers", map[string]any{"name": "order", "channel": "SMS"})
	hookPath := "/rest/1000/webhooks/" + idOf(t, hook)
	send := "/rest/1000/triggers/" + idOf(t, trigger) + "/messages"
	tests := []struct {
		method, path, body string
		status             int
		opID               string
	}{
		{"GET", "/rest/1000/webhooks?pageSize=5", "", 200, "listWebhooks"},
		{"POST", "/rest/1000/webhooks", `{"url":"https://a.example.com","events":["message.sent"],"active":false}`, 201, "createWebhook"},
		{"POST", "/rest/1000/webhooks", `{"url":"http://a.example.com","events":["message.sent"]}`, 400, "createWebhook"},
		{"GET", hookPath, "", 200, "getWebhook"},
		{"PUT", hookPath, `{"description":"x","secret":null}`, 200, "updateWebhook"},
		{"DELETE", hookPath, "", 204, "deleteWebhook"},
		{"GET", hookPath, "", 404, "getWebhook"},
		{"POST", send, `{"recipient":{"mobile":"+4915112345678"},"properties":{"a":"b"},"orderRows":[{"sku":"A","qty":2}]}`, 201, "sendTransactionalMessage"},
		{"POST", send, `{"recipient":{"email":"a@example.com"}}`, 400, "sendTransactionalMessage"},
		{"POST", "/rest/1000/triggers/99999/messages", `{"recipient":{"email":"a@example.com"}}`, 404, "sendTransactionalMessage"},
	}
	for _, tt := range tests {
		t.Run(tt.opID+" "+tt.method, func(t *testing.T) {
			var body any
			if tt.body != "" {
				body = tt.body
			}
			rec := do(t, s, tt.method, tt.path, body)
			wantStatus(t, rec, tt.status)
			req := httptest.NewRequest(tt.method, tt.path, strings.NewReader(tt.body))
			req.Header.Set("Content-Type", "application/json")
			route, params, err := router.FindRoute(req)
			if err != nil {
				t.Fatalf("no documented route: %v", err)
			}
			if route.Operation.OperationID != tt.opID {
				t.Errorf("routed to %s, want %s", route.Operation.OperationID, tt.opID)
			}
			in := &openapi3filter.RequestValidationInput{Request: req, PathParams: params, Route: route,
				Options: &openapi3filter.Options{AuthenticationFunc: openapi3filter.NoopAuthenticationFunc}}
			if tt.status < 300 {
				if err := openapi3filter.ValidateRequest(context.Background(), in); err != nil {
					t.Errorf("accepted request does not match the document: %v", err)
				}
			}
			err = openapi3filter.ValidateResponse(context.Background(), &openapi3filter.ResponseValidationInput{
				RequestValidationInput: in, Status: rec.Code, Header: rec.Header(),
				Body: io.NopCloser(bytes.NewReader(rec.Body.Bytes())), Options: &openapi3filter.Options{IncludeResponseStatus: true},
			})
			if err != nil {
				t.Errorf("response does not match the document: %v\n%s", err, rec.Body.String())
			}
		})
	}
}
