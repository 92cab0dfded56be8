package emulator

import (
	"crypto/hmac"
	"encoding/json"
	"fmt"
	"net/http"
	"strings"
	"testing"
)

var contactEventKinds = []string{"contact.created", "contact.updated", "contact.deleted", "contact.subscribed", "contact.unsubscribed"}

// contactEvent is one received delivery: its kind and data.
type contactEvent struct {
	Kind string
	Data map[string]any
}

func (e contactEvent) String() string {
	return fmt.Sprintf("%s %v/%v %v%v", e.Kind, e.Data["originalId"], e.Data["channel"], e.Data["source"], map[bool]string{true: " summary"}[e.Data["summary"] == true])
}

// finishBatch reads a batch, which brings it up to the clock (the default
// options finish every batch at once).
func finishBatch(t *testing.T, s *Server, batchID string) {
	t.Helper()
	rec := do(t, s, http.MethodGet, "/rest/1000/batches/"+batchID, nil)
	wantStatus(t, rec, http.StatusOK)
	if b := decodeObject(t, rec); b["status"] != "FINISHED" {
		t.Fatalf("batch %s is %v", batchID, b["status"])
	}
}

// Every path that changes a contact sends its contact.* events to a
// subscribed webhook, end to end: a signed POST to a loopback receiver.
func TestContactEventsDelivered(t *testing.T) {
	seed := func(t *testing.T, s *Server, list string) {
		for _, c := range []map[string]any{
			{"originalId": "a", "properties": map[string]string{"firstname": "Ada"}},
			{"originalId": "b", "properties": map[string]string{"firstname": "Bob"}, "mobileStatus": "SUBSCRIBED"},
		} {
			mustCreate(t, s, "/rest/1000/lists/"+list+"/contacts", c)
		}
	}
	csv := func(lines ...string) []byte { return []byte(strings.Join(lines, "\n") + "\n") }
	tests := []struct {
		name   string
		change func(t *testing.T, s *Server, list string)
		want   []string // kind originalId/channel source
	}{
		{
			name: "create",
			change: func(t *testing.T, s *Server, list string) {
				mustCreate(t, s, "/rest/1000/lists/"+list+"/contacts", map[string]any{"originalId": "c", "properties": map[string]string{"firstname": "Cy"}})
			},
			want: []string{"contact.created c/<nil> api"},
		},
		{
			name: "properties changed, then the same again",
			change: func(t *testing.T, s *Server, list string) {
				for range 2 {
					wantStatus(t, do(t, s, http.MethodPut, "/rest/1000/lists/"+list+"/contacts/a", map[string]any{"properties": map[string]string{"firstname": "Adele"}}), http.StatusOK)
				}
			},
			want: []string{"contact.updated a/<nil> api"},
		},
		{
			name: "subscription status, e-mail and mobile",
			change: func(t *testing.T, s *Server, list string) {
				path := "/rest/1000/lists/" + list + "/contacts/"
				wantStatus(t, do(t, s, http.MethodPut, path+"a/subscriptionstatus", map[string]any{"status": "UNSUBSCRIBED"}), http.StatusOK)
				wantStatus(t, do(t, s, http.MethodPut, path+"a/subscriptionstatus", map[string]any{"status": "UNSUBSCRIBED"}), http.StatusOK) // no change
				wantStatus(t, do(t, s, http.MethodPut, path+"a/subscriptionstatus", map[string]any{"status": "SUBSCRIBED"}), http.StatusOK)
				wantStatus(t, do(t, s, http.MethodPut, path+"b/subscriptionstatus", map[string]any{"mobileStatus": "UNSUBSCRIBED"}), http.StatusOK)
			},
			want: []string{"contact.unsubscribed a/email api", "contact.subscribed a/email api", "contact.unsubscribed b/mobile api"},
		},
		{
			name: "ADD import",
			change: func(t *testing.T, s *Server, list string) {
				finishBatch(t, s, runImport(t, s, list, map[string]any{"delimiter": "44", "encoding": "UTF8", "type": "ADD"},
					csv("originalId,firstname", "a,Ada", "b,Bobby", "d,Dee")))
			},
			want: []string{"contact.updated b/<nil> import", "contact.created d/<nil> import"},
		},
		{
			name: "UNSUBSCRIBE import",
			change: func(t *testing.T, s *Server, list string) {
				finishBatch(t, s, runImport(t, s, list, map[string]any{"delimiter": "44", "encoding": "UTF8", "type": "UNSUBSCRIBE"},
					csv("originalId", "b", "nobody")))
			},
			want: []string{"contact.unsubscribed b/email import"},
		},
		{
			name: "REPLACE import",
			change: func(t *testing.T, s *Server, list string) {
				finishBatch(t, s, runImport(t, s, list, map[string]any{"delimiter": "44", "encoding": "UTF8", "type": "REPLACE"},
					csv("originalId,firstname", "b,Bob", "e,Eve")))
			},
			// b stays with its properties (firstname only): no update.
			want: []string{"contact.created e/<nil> import", "contact.deleted a/<nil> import"},
		},
		{
			name: "list deleted",
			change: func(t *testing.T, s *Server, list string) {
				wantStatus(t, do(t, s, http.MethodDelete, "/rest/1000/lists/"+list, nil), http.StatusNoContent)
			},
			want: []string{"contact.deleted a/<nil> list.deleted", "contact.deleted b/<nil> list.deleted"},
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			rc := newReceiver()
			s := New(Options{})
			defer s.Close()
			list := newImportList(t, s)
			seed(t, s, list)
			mustCreate(t, s, "/rest/1000/webhooks", map[string]any{"url": rc.listen(t) + "/hook", "events": contactEventKinds, "secret": "s3"})

			tt.change(t, s, list)

			// Deliveries are registered when the event happens; wait for
			// that many to arrive.
			got := rc.wait(t, len(s.Deliveries()))
			var events []string
			for _, g := range got {
				ts := g.header.Get("X-RMS-Timestamp")
				if sig := g.header.Get("X-RMS-Signature"); !hmac.Equal([]byte(sig), []byte(WebhookSignature("s3", ts, g.body))) {
					t.Errorf("delivery %s: bad signature %q", g.header.Get("X-RMS-Delivery"), sig)
				}
				var p struct {
					Event string         `json:"event"`
					Data  map[string]any `json:"data"`
				}
				if err := json.Unmarshal(g.body, &p); err != nil {
					t.Fatal(err)
				}
				if p.Event != g.header.Get("X-RMS-Event") || p.Data["listId"] != list {
					t.Errorf("delivery %s: event %q, data %v", g.header.Get("X-RMS-Event"), p.Event, p.Data)
				}
				events = append(events, contactEvent{p.Event, p.Data}.String())
			}
			if !sameElements(events, tt.want) {
				t.Errorf("events %q, want %q", events, tt.want)
			}
		})
	}
}

func sameElements(a, b []string) bool {
	if len(a) != len(b) {
		return false
	}
	count := map[string]int{}
	for _, x := range a {
		count[x]++
	}
	for _, x := range b {
		count[x]--
	}
	for _, n := range count {
		if n != 0 {
			return false
		}
	}
	return true
}

// An import sends at most contactEventsPerBatch events of each kind one by
// one, then one summary event of that kind with the counts: a million rows
// never queue a million deliveries.
func TestContactEventsBoundedPerBatch(t *testing.T) {
	s := New(Options{})
	defer s.Close()
	list := newImportList(t, s)
	// An unreachable receiver: only what is queued is counted here.
	mustCreate(t, s, "/rest/1000/webhooks", map[string]any{"url": "http://127.0.0.1:1/hook", "events": contactEventKinds})
	rows := contactEventsPerBatch*3 + 7
	lines := []string{"originalId"}
	for i := range rows {
		lines = append(lines, fmt.Sprintf("c%d", i))
	}
	finishBatch(t, s, runImport(t, s, list, map[string]any{"delimiter": "44", "encoding": "UTF8", "type": "ADD"}, []byte(strings.Join(lines, "\n")+"\n")))

	var single, summaries int
	for _, d := range s.Deliveries() {
		var p struct {
			Event string         `json:"event"`
			Data  map[string]any `json:"data"`
		}
		if err := json.Unmarshal(d.Body, &p); err != nil {
			t.Fatal(err)
		}
		if p.Event != "contact.created" {
			t.Errorf("unexpected event %s", p.Event)
			continue
		}
		if p.Data["summary"] != true {
			single++
			continue
		}
		summaries++
		if p.Data["count"] != float64(rows) || p.Data["omitted"] != float64(rows-contactEventsPerBatch) || p.Data["importId"] == nil {
			t.Errorf("summary data %v; want count %d, omitted %d and the import id", p.Data, rows, rows-contactEventsPerBatch)
		}
	}
	if single != contactEventsPerBatch || summaries != 1 {
		t.Errorf("%d single events and %d summaries, want %d and 1", single, summaries, contactEventsPerBatch)
	}
}
