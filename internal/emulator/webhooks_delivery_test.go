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
	"testing/synctest"
	"time"
)

// receiver is a webhook endpoint that answers the statuses it is given in
// turn (then 204) and records what it received. A test reaches it over a
// loopback socket (listen) or, in a synctest bubble, in memory (attach).
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

func newReceiver(statuses ...int) *receiver {
	return &receiver{statuses: statuses, arrived: make(chan struct{}, 100)}
}

// listen serves rc on a loopback port until the test ends and returns its
// base URL.
func (rc *receiver) listen(t *testing.T) string {
	srv := httptest.NewServer(rc)
	t.Cleanup(srv.Close)
	return srv.URL
}

// attach makes every webhook delivery of s reach rc in memory, in the
// delivering goroutine, and returns the base URL to subscribe webhooks
// with (loopback, so plain http is accepted; it is never dialled). A socket
// is not part of a synctest bubble: while one was open the bubble's clock
// could not move, and synctest.Wait could not tell that a delivery is done.
// Call it before anything emits an event.
func (rc *receiver) attach(s *Server) string {
	s.hooks.client.Transport = roundTripFunc(func(r *http.Request) (*http.Response, error) {
		defer func() { _ = r.Body.Close() }()
		rec := httptest.NewRecorder()
		rc.ServeHTTP(rec, r)
		return rec.Result(), nil
	})
	return "http://127.0.0.1"
}

type roundTripFunc func(*http.Request) (*http.Response, error)

func (f roundTripFunc) RoundTrip(r *http.Request) (*http.Response, error) { return f(r) }

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

// wait waits for n more deliveries, for a receiver reached over a socket,
// and returns every delivery so far.
func (rc *receiver) wait(t *testing.T, n int) []receivedDelivery {
	t.Helper()
	for range n {
		select {
		case <-rc.arrived:
		case <-time.After(10 * time.Second):
			t.Fatalf("timed out waiting for delivery")
		}
	}
	return rc.received()
}

// received returns every delivery so far. In a bubble, after
// synctest.Wait, these are all the deliveries made by then: each delivery
// goroutine has either finished or waits for its retry timer.
func (rc *receiver) received() []receivedDelivery {
	rc.mu.Lock()
	defer rc.mu.Unlock()
	return append([]receivedDelivery(nil), rc.got...)
}

// A delivery arrives signed as the conventions guide says, and a failed
// attempt is retried, after the retry wait, with the same delivery id and
// a fresh timestamp and signature.
func TestWebhookDeliverySignedAndRetried(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		start := time.Now()
		s := New(Options{}) // the default retry wait, on the bubble's clock
		defer s.Close()
		rc := newReceiver(http.StatusInternalServerError)
		url := rc.attach(s)
		mustCreate(t, s, "/rest/1000/webhooks", map[string]any{"url": url + "/hook", "events": []string{"message.sent"}, "secret": "top-secret"})
		mustCreate(t, s, "/rest/1000/webhooks", map[string]any{"url": url + "/other", "events": []string{"import.finished"}})
		mustCreate(t, s, "/rest/1000/webhooks", map[string]any{"url": url + "/off", "events": []string{"message.sent"}, "active": false})

		s.Emit("message.sent", map[string]any{"messageId": 7})
		synctest.Wait()
		ds := s.Deliveries()
		if len(ds) != 1 {
			t.Fatalf("%d deliveries; only the active webhook subscribed to message.sent should get one", len(ds))
		}
		if d := ds[0]; d.State != DeliveryPending || d.Attempts != 1 || d.LastStatus != http.StatusInternalServerError {
			t.Errorf("after the first attempt: %+v; want pending, one attempt answered 500", d)
		}
		// No second attempt before the retry wait is over.
		advance(DefaultWebhookRetryWait - time.Millisecond)
		synctest.Wait()
		if n := len(rc.received()); n != 1 {
			t.Fatalf("%d attempts before the retry wait was over, want 1", n)
		}
		advance(time.Millisecond)
		synctest.Wait()
		if d := s.Deliveries()[0]; d.State != DeliveryDelivered || d.Attempts != 2 || d.LastStatus != http.StatusNoContent {
			t.Errorf("delivery = %+v; want delivered on the second attempt", d)
		}
		got := rc.received()
		if len(got) != 2 {
			t.Fatalf("%d attempts received, want 2", len(got))
		}
		for i, g := range got {
			if g.header.Get("X-RMS-Delivery") != got[0].header.Get("X-RMS-Delivery") || g.header.Get("X-RMS-Delivery") == "" {
				t.Errorf("attempt %d: delivery id %q differs from the first attempt's", i, g.header.Get("X-RMS-Delivery"))
			}
			if g.header.Get("X-RMS-Event") != "message.sent" || g.header.Get("Content-Type") != "application/json" {
				t.Errorf("attempt %d: headers %v", i, g.header)
			}
			// Unix seconds of the attempt: the first at once, the second
			// after the retry wait.
			ts := g.header.Get("X-RMS-Timestamp")
			if want := strconv.FormatInt(start.Add(time.Duration(i)*DefaultWebhookRetryWait).Unix(), 10); ts != want {
				t.Errorf("attempt %d: timestamp %q, want %s", i, ts, want)
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
	})
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
	synctest.Test(t, func(t *testing.T) {
		s := New(Options{WebhookMaxAttempts: 3})
		defer s.Close()
		rc := newReceiver(500, 500, 500, 500, 500, 500)
		mustCreate(t, s, "/rest/1000/webhooks", map[string]any{"url": rc.attach(s), "events": []string{"export.finished"}})
		s.Emit("export.finished", nil)
		// Attempts at once, after the retry wait and after twice that.
		advance(3 * DefaultWebhookRetryWait)
		synctest.Wait()
		if d := s.Deliveries()[0]; d.State != DeliveryFailed || d.Attempts != 3 || d.LastStatus != 500 {
			t.Errorf("delivery = %+v; want failed after 3 attempts", d)
		}
		// The delivery is final: however long the clock runs, no attempt
		// follows.
		advance(time.Hour)
		synctest.Wait()
		got := rc.received()
		if len(got) != 3 {
			t.Fatalf("%d attempts, want 3", len(got))
		}
		if got[0].header.Get("X-RMS-Signature") != "" {
			t.Error("a webhook without a secret got a signature")
		}
	})
}

// Close stops pending retries and waits for them; Emit after Close does
// nothing. Closing a Listener closes its Server.
func TestWebhookDeliveryStopsOnClose(t *testing.T) {
	rc := newReceiver(500)
	l, err := Listen("127.0.0.1:0", Options{WebhookRetryWait: time.Hour})
	if err != nil {
		t.Fatal(err)
	}
	mustCreate(t, l.Server, "/rest/1000/webhooks", map[string]any{"url": rc.listen(t), "events": []string{"message.sent"}})
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

// With deliveries off, every event a webhook subscribes to is recorded as
// a skipped delivery, with the reason, and nothing is sent or logged.
func TestWebhookDeliveriesOff(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		s, logs := newLoggedServer(Options{WebhookDeliveriesOff: true})
		rc := newReceiver()
		mustCreate(t, s, "/rest/1000/webhooks", map[string]any{"url": rc.attach(s) + "/hook", "events": []string{"message.sent"}})
		mustCreate(t, s, "/rest/1000/webhooks", map[string]any{"url": "https://hooks.example.com/x", "events": []string{"message.sent"}})
		for range 3 {
			s.Emit("message.sent", map[string]any{"messageId": 7})
		}
		advance(time.Hour)
		synctest.Wait()
		s.Close()
		ds := s.Deliveries()
		if len(ds) != 6 {
			t.Fatalf("%d deliveries recorded, want 6: one per event and webhook", len(ds))
		}
		for _, d := range ds {
			if d.State != DeliverySkipped || d.Attempts != 0 || d.Reason != deliveriesOffReason || len(d.Body) == 0 {
				t.Errorf("delivery %+v; want skipped with the reason and its body, never attempted", d)
			}
		}
		if n := len(rc.received()); n != 0 {
			t.Errorf("%d deliveries sent with deliveries off", n)
		}
		wantWarnings(t, logs, "with deliveries off")
	})
}
