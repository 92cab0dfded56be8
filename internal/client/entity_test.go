package client

import (
	"context"
	"encoding/json"
	"errors"
	"io"
	"net/http"
	"sync"
	"testing"

	"github.com/google/go-cmp/cmp"
)

// recorder answers every request with a fixed status and body and keeps
// what it received.
type recorder struct {
	mu     sync.Mutex
	status int
	body   string
	got    []recorded
}

type recorded struct {
	method, path, query, body string
}

func (rec *recorder) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	b, _ := io.ReadAll(r.Body)
	rec.mu.Lock()
	rec.got = append(rec.got, recorded{r.Method, r.URL.EscapedPath(), r.URL.RawQuery, string(b)})
	status, body := rec.status, rec.body
	rec.mu.Unlock()
	writeJSON(w, status, body)
}

func TestCollectionPath(t *testing.T) {
	for in, want := range map[string]string{
		"campaigns":          "campaigns",
		"/lists/12/notes/":   "lists/12/notes",
		"forms/a b":          "forms/a%20b",
		"filters/x?y=1":      "filters/x%3Fy=1",
		"lists/12/things/%2": "lists/12/things/%252",
	} {
		if got := CollectionPath(in); got != want {
			t.Errorf("CollectionPath(%q) = %q, want %q", in, got, want)
		}
	}
}

// Generic entity calls reach the nested path and send the body with its
// numbers exact.
func TestEntityCalls(t *testing.T) {
	rec := &recorder{status: 200, body: `{"id":7,"n":123456789012345678901234567890,"nested":{"ok":true}}`}
	c, _ := newTestClient(t, rec)
	ctx := context.Background()

	body := Entity{"n": json.Number("123456789012345678901234567890"), "nested": map[string]any{"ok": true}}
	e, err := c.Entities.Update(ctx, "lists/12/notes", "7", body)
	if err != nil {
		t.Fatal(err)
	}
	if EntityID(e) != "7" || e["n"] != json.Number("123456789012345678901234567890") {
		t.Errorf("decoded entity = %v", e)
	}
	if _, err := c.Entities.Get(ctx, "campaigns", "7"); err != nil {
		t.Fatal(err)
	}
	rec.body = `[]`
	all, err := c.Entities.List(ctx, "forms")
	if err != nil || all == nil || len(all) != 0 {
		t.Errorf("Entities.List = %v, %v; want an empty, non-nil slice", all, err)
	}
	want := []recorded{
		{"PUT", "/rest/1000/lists/12/notes/7", "", `{"n":123456789012345678901234567890,"nested":{"ok":true}}`},
		{"GET", "/rest/1000/campaigns/7", "", ""},
		{"GET", "/rest/1000/forms", "page=0&pageSize=500", ""},
	}
	if diff := cmp.Diff(want, rec.got, cmp.AllowUnexported(recorded{})); diff != "" {
		t.Errorf("requests (-want +got):\n%s", diff)
	}
}

func TestEntityIDForms(t *testing.T) {
	for _, tc := range []struct {
		e    Entity
		want string
	}{
		{Entity{"id": json.Number("42")}, "42"},
		{Entity{"id": "abc"}, "abc"},
		{Entity{"id": float64(9)}, "9"},
		{Entity{}, ""},
	} {
		if got := EntityID(tc.e); got != tc.want {
			t.Errorf("EntityID(%v) = %q, want %q", tc.e, got, tc.want)
		}
	}
}

// The webhook body leaves the secret out unless it is set or cleared.
func TestWebhookInputBody(t *testing.T) {
	s := "k"
	for name, tc := range map[string]struct {
		in   WebhookInput
		want string
	}{
		"keep secret":  {WebhookInput{URL: "https://x", Events: []string{"message.sent"}, Active: true}, `{"active":true,"description":null,"events":["message.sent"],"url":"https://x"}`},
		"set secret":   {WebhookInput{URL: "https://x", Events: []string{}, Secret: &s}, `{"active":false,"description":null,"events":[],"secret":"k","url":"https://x"}`},
		"clear secret": {WebhookInput{URL: "https://x", Events: []string{}, ClearSecret: true}, `{"active":false,"description":null,"events":[],"secret":null,"url":"https://x"}`},
	} {
		t.Run(name, func(t *testing.T) {
			b, _ := json.Marshal(tc.in.body())
			if string(b) != tc.want {
				t.Errorf("body = %s, want %s", b, tc.want)
			}
		})
	}
}

// A send is one POST to the trigger's messages; a 5xx is not retried (the
// service may have sent the message), and a missing trigger is ErrNotFound.
func TestSendTransactionalMessage(t *testing.T) {
	rec := &recorder{status: 201, body: `{"id":3,"triggerId":5,"channel":"EMAIL","status":"SENT","sentAt":"2026-11-22T10:00:00Z","recipient":{"email":"a@example.com"}}`}
	c, _ := newTestClient(t, rec)
	ctx := context.Background()
	msg := TransactionalMessage{
		Recipient:  Recipient{Email: "a@example.com"},
		Properties: map[string]string{"firstname": "Ada"},
		OrderRows:  []map[string]any{{"sku": "A1", "qty": json.Number("2")}},
	}
	got, err := c.Triggers.Send(ctx, "5", msg)
	if err != nil {
		t.Fatal(err)
	}
	if got.ID != "3" || got.Status != "SENT" || got.TriggerID != "5" {
		t.Errorf("answer = %+v", got)
	}
	wantBody := `{"recipient":{"email":"a@example.com"},"properties":{"firstname":"Ada"},"orderRows":[{"qty":2,"sku":"A1"}]}`
	if len(rec.got) != 1 || rec.got[0].path != "/rest/1000/triggers/5/messages" || rec.got[0].body != wantBody {
		t.Errorf("requests = %+v", rec.got)
	}

	rec.status, rec.body = 500, `{"status":500,"code":"INTERNAL_ERROR","message":"boom"}`
	if _, err := c.Triggers.Send(ctx, "5", msg); err == nil {
		t.Error("a 500 was not reported")
	}
	if len(rec.got) != 2 {
		t.Errorf("a failed send was retried: %d requests", len(rec.got))
	}
	rec.status, rec.body = 404, `{"status":404,"code":"NOT_FOUND","message":"no trigger 5"}`
	if _, err := c.Triggers.Send(ctx, "5", msg); !errors.Is(err, ErrNotFound) {
		t.Errorf("err = %v, want ErrNotFound", err)
	}
}

// A message the service accepted (2xx) is sent: whatever the answer says,
// or fails to say, Triggers.Send returns what it knows and
// never an error that could lead to a second send.
func TestSendTransactionalMessageAnswers(t *testing.T) {
	const path = "/rest/1000/triggers/5/messages"
	msg := TransactionalMessage{Recipient: Recipient{Email: "a@example.com"}}
	base := SentMessage{TriggerID: "5", Recipient: msg.Recipient}
	with := func(f func(*SentMessage)) SentMessage { m := base; f(&m); return m }
	tests := []struct {
		name   string
		answer func(http.ResponseWriter, *http.Request)
		want   SentMessage
	}{
		{name: "empty 200", answer: answer(200, ""), want: base},
		{name: "204", answer: answer(204, ""), want: base},
		{name: "202 with {}", answer: answer(202, `{}`), want: base},
		{name: "garbled", answer: answer(200, `{"id":3,"sta`), want: base},
		{name: "not an object", answer: answer(200, `["queued"]`), want: base},
		{name: "text", answer: func(w http.ResponseWriter, _ *http.Request) {
			w.Header().Set("Content-Type", "text/plain")
			_, _ = w.Write([]byte("Accepted"))
		}, want: base},
		{name: "an object of the wrong shape", answer: answer(200, `{"id":{"x":1},"status":"SENT"}`), want: base},
		{name: "id from Location", answer: withLocation(201, "/rest/1000/triggers/5/messages/77", ""), want: with(func(m *SentMessage) { m.ID = "77" })},
		{name: "garbled with a Location", answer: withLocation(201, "{host}/rest/1000/triggers/5/messages/78", `{"id`), want: with(func(m *SentMessage) { m.ID = "78" })},
		{name: "body id wins over Location", answer: withLocation(201, "/rest/1000/triggers/5/messages/77", `{"id":"m-3","status":"QUEUED"}`),
			want: with(func(m *SentMessage) { m.ID = "m-3"; m.Status = "QUEUED" })},
		{name: "sentAt in epoch ms", answer: answer(200, `{"id":3,"sentAt":1795341600000}`),
			want: with(func(m *SentMessage) { m.ID = "3"; m.SentAt = Timestamp{refInstant} })},
		{name: "sentAt unreadable", answer: answer(200, `{"id":3,"sentAt":"soon"}`), want: with(func(m *SentMessage) { m.ID = "3" })},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			srv := &scriptedServer{answers: map[string]func(http.ResponseWriter, *http.Request){"POST " + path: tt.answer}}
			c, _ := newTestClient(t, srv)
			got, err := c.Triggers.Send(context.Background(), "5", msg)
			if err != nil {
				t.Fatalf("Triggers.Send: %v", err)
			}
			if diff := cmp.Diff(&tt.want, got); diff != "" {
				t.Errorf("sent message (-want +got):\n%s", diff)
			}
			if diff := cmp.Diff([]string{"POST " + path}, srv.requests()); diff != "" {
				t.Errorf("requests (-want +got):\n%s", diff)
			}
		})
	}
}
