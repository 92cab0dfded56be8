package emulator

import (
	"crypto/hmac"
	"encoding/json"
	"io"
	"net/http"
	"net/http/httptest"
	"strconv"
	"sync"
	"testing"
	"time"
)

// receiver is a loopback webhook endpoint that answers the statuses it is
// given in turn (then 204) and records what it received.
type receiver struct {
	mu       sync.Mutex
	statuses []int
	got      []receivedDelivery
	arrived  chan struct{}
}

type receivedDelivery struct {
	header http.Header
	body   []byte
}

func newReceiver(t *testing.T, statuses ...int) (*receiver, *httptest.Server) {
	rc := &receiver{statuses: statuses, arrived: make(chan struct{}, 100)}
	srv := httptest.NewServer(rc)
	t.Cleanup(srv.Close)
	return rc, srv
}

func (rc *receiver) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	body, _ := io.ReadAll(r.Body)
	rc.mu.Lock()
	rc.got = append(rc.got, receivedDelivery{r.Header.Clone(), body})
	status := http.StatusNoContent
	if len(rc.statuses) > 0 {
		status, rc.statuses = rc.statuses[0], rc.statuses[1:]
	}
	rc.mu.Unlock()
	w.WriteHeader(status)
	rc.arrived <- struct{}{}
}

func (rc *receiver) wait(t *testing.T, n int) []receivedDelivery {
	t.Helper()
	for range n {
		select {
		case <-rc.arrived:
		case <-time.After(10 * time.Second):
			t.Fatalf("timed out waiting for delivery")
		}
	}
	rc.mu.Lock()
	defer rc.mu.Unlock()
	return append([]receivedDelivery(nil), rc.got...)
}

// waitState waits until the delivery reaches a final state.
func waitState(t *testing.T, s *Server, idx int) Delivery {
	t.Helper()
	deadline := time.Now().Add(10 * time.Second)
	for time.Now().Before(deadline) {
		if ds := s.Deliveries(); len(ds) > idx && ds[idx].State != DeliveryPending {
			return ds[idx]
		}
		time.Sleep(5 * time.Millisecond)
	}
	t.Fatalf("delivery %d did not finish", idx)
	return Delivery{}
}

// A delivery arrives signed as the conventions guide says, and a failed
// attempt is retried with the same delivery id and a fresh signature.
func TestWebhookDeliverySignedAndRetried(t *testing.T) {
	rc, srv := newReceiver(t, http.StatusInternalServerError)
	s := New(Options{WebhookRetryWait: time.Millisecond})
	defer s.Close()
	mustCreate(t, s, "/rest/1000/webhooks", map[string]any{"url": srv.URL + "/hook", "events": []string{"message.sent"}, "secret": "top-secret"})
	mustCreate(t, s, "/rest/1000/webhooks", map[string]any{"url": srv.URL + "/other", "events": []string{"import.finished"}})
	mustCreate(t, s, "/rest/1000/webhooks", map[string]any{"url": srv.URL + "/off", "events": []string{"message.sent"}, "active": false})

	s.Emit("message.sent", map[string]any{"messageId": 7})
	got := rc.wait(t, 2)
	d := waitState(t, s, 0)
	if d.State != DeliveryDelivered || d.Attempts != 2 || d.LastStatus != http.StatusNoContent {
		t.Errorf("delivery = %+v; want delivered on the second attempt", d)
	}
	if n := len(s.Deliveries()); n != 1 {
		t.Errorf("%d deliveries; only the active webhook subscribed to message.sent should get one", n)
	}
	for i, g := range got {
		if g.header.Get("X-RMS-Delivery") != got[0].header.Get("X-RMS-Delivery") || g.header.Get("X-RMS-Delivery") == "" {
			t.Errorf("attempt %d: delivery id %q differs from the first attempt's", i, g.header.Get("X-RMS-Delivery"))
		}
		if g.header.Get("X-RMS-Event") != "message.sent" || g.header.Get("Content-Type") != "application/json" {
			t.Errorf("attempt %d: headers %v", i, g.header)
		}
		ts := g.header.Get("X-RMS-Timestamp")
		if _, err := strconv.ParseInt(ts, 10, 64); err != nil {
			t.Errorf("attempt %d: timestamp %q is not Unix seconds", i, ts)
		}
		want := WebhookSignature("top-secret", ts, g.body)
		if !hmac.Equal([]byte(g.header.Get("X-RMS-Signature")), []byte(want)) {
			t.Errorf("attempt %d: signature %q, want %q", i, g.header.Get("X-RMS-Signature"), want)
		}
		var payload map[string]any
		if err := json.Unmarshal(g.body, &payload); err != nil {
			t.Fatal(err)
		}
		if payload["id"] != g.header.Get("X-RMS-Delivery") || payload["event"] != "message.sent" || payload["occurredAt"] == "" {
			t.Errorf("payload = %v", payload)
		}
		if data, _ := payload["data"].(map[string]any); data["messageId"] != float64(7) {
			t.Errorf("payload data = %v", payload["data"])
		}
	}
}

// The signature is the documented HMAC, checked against a fixed vector.
func TestWebhookSignatureVector(t *testing.T) {
	// printf '%s' '1700000000.{"a":1}' | openssl dgst -sha256 -hmac secret
	got := WebhookSignature("secret", "1700000000", []byte(`{"a":1}`))
	want := "v1=49f24e537407743fa4a0242bb63b94b9a47ee99cbbe071ccd8a22550ae411686"
	if got != want {
		t.Fatalf("signature = %q, want %q", got, want)
	}
	if got == WebhookSignature("other", "1700000000", []byte(`{"a":1}`)) {
		t.Error("the key does not change the signature")
	}
	if got == WebhookSignature("secret", "1700000001", []byte(`{"a":1}`)) {
		t.Error("the timestamp does not change the signature")
	}
}

// Attempts are bounded; a webhook without a secret gets no signature.
func TestWebhookDeliveryGivesUp(t *testing.T) {
	rc, srv := newReceiver(t, 500, 500, 500, 500, 500, 500)
	s := New(Options{WebhookRetryWait: time.Millisecond, WebhookMaxAttempts: 3})
	defer s.Close()
	mustCreate(t, s, "/rest/1000/webhooks", map[string]any{"url": srv.URL, "events": []string{"export.finished"}})
	s.Emit("export.finished", nil)
	got := rc.wait(t, 3)
	d := waitState(t, s, 0)
	if d.State != DeliveryFailed || d.Attempts != 3 || d.LastStatus != 500 {
		t.Errorf("delivery = %+v; want failed after 3 attempts", d)
	}
	if got[0].header.Get("X-RMS-Signature") != "" {
		t.Error("a webhook without a secret got a signature")
	}
	// The delivery is final; Close waits for its goroutine, so no attempt
	// can still be on its way.
	s.Close()
	if n := len(rc.wait(t, 0)); n != 3 {
		t.Errorf("%d attempts, want 3", n)
	}
}

// Close stops pending retries and waits for them; Emit after Close does
// nothing. Closing a Listener closes its Server.
func TestWebhookDeliveryStopsOnClose(t *testing.T) {
	rc, srv := newReceiver(t, 500)
	l, err := Listen("127.0.0.1:0", Options{WebhookRetryWait: time.Hour})
	if err != nil {
		t.Fatal(err)
	}
	mustCreate(t, l.Server, "/rest/1000/webhooks", map[string]any{"url": srv.URL, "events": []string{"message.sent"}})
	l.Server.Emit("message.sent", nil)
	rc.wait(t, 1)
	done := make(chan struct{})
	go func() { _ = l.Close(); close(done) }()
	select {
	case <-done:
	case <-time.After(5 * time.Second):
		t.Fatal("Close did not stop a delivery waiting to retry")
	}
	if d := l.Server.Deliveries()[0]; d.State != DeliveryFailed || d.Attempts != 1 {
		t.Errorf("delivery after Close = %+v", d)
	}
	l.Server.Emit("message.sent", nil)
	if n := len(l.Server.Deliveries()); n != 1 {
		t.Errorf("Emit after Close started a delivery (%d deliveries)", n)
	}
}
