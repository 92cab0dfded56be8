package emulator

import (
	"bytes"
	"context"
	"crypto/hmac"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"io"
	"log/slog"
	"net/http"
	"slices"
	"strconv"
	"sync"
	"time"
)

// Webhook deliveries, as the service conventions guide fixes them: a POST of
// { id, event, occurredAt, data } with X-RMS-Event, X-RMS-Delivery,
// X-RMS-Timestamp and, when the webhook has a secret,
// X-RMS-Signature: v1=hex(HMAC-SHA256(secret, timestamp + "." + body)).
// A delivery not answered 2xx is retried with doubling waits, a bounded
// number of times, in its own goroutine; Server.Close cancels every pending
// delivery and waits for them. Deliveries go only where webhooks_targets.go
// allows, not at all with Options.WebhookDeliveriesOff; failures are logged
// per target as webhooks_health.go says, not per attempt.

// Delivery is one event sent (or being sent, or not sent) to one webhook.
type Delivery struct {
	ID        string // X-RMS-Delivery; the same on every attempt
	WebhookID int64
	Event     string
	URL       string
	Body      []byte
	Attempts  int
	// LastStatus is the status of the last answer, 0 when none came.
	LastStatus int
	// State is "pending", "delivered", "failed" or "skipped".
	State string
	// Reason says why a skipped delivery was not sent.
	Reason string
}

// Delivery states. A skipped delivery is recorded as every other (the
// event happened) but never sent: deliveries are off, or its target is
// not one the emulator sends to.
const (
	DeliveryPending   = "pending"
	DeliveryDelivered = "delivered"
	DeliveryFailed    = "failed"
	DeliverySkipped   = "skipped"
)

// deliveriesOffReason is the Reason of every delivery while deliveries
// are off.
const deliveriesOffReason = "webhook deliveries are off (rms-emulator -webhook-deliveries-off, Options.WebhookDeliveriesOff)"

// deliveryAttemptTimeout bounds one POST to a receiver.
const deliveryAttemptTimeout = 10 * time.Second

// deliverer runs the deliveries of one Server.
type deliverer struct {
	ctx     context.Context
	cancel  context.CancelFunc
	client  *http.Client
	log     *slog.Logger
	off     bool
	allowed *webhookTargets
	wg      sync.WaitGroup

	mu         sync.Mutex
	closed     bool
	nextID     int64
	deliveries []*Delivery
	targets    map[targetKey]*targetHealth
}

func newDeliverer(opts Options, allowed *webhookTargets) *deliverer {
	ctx, cancel := context.WithCancel(context.Background())
	return &deliverer{
		ctx:     ctx,
		cancel:  cancel,
		log:     opts.Logger,
		off:     opts.WebhookDeliveriesOff,
		allowed: allowed,
		targets: map[targetKey]*targetHealth{},
		client: &http.Client{
			Timeout: deliveryAttemptTimeout,
			// No keep-alive: an idle connection would hold a goroutine after Close.
			Transport: &http.Transport{DisableKeepAlives: true, Proxy: nil, DialContext: allowed.dialContext},
			// A receiver's redirect is an answer, not a place to send account data.
			CheckRedirect: func(*http.Request, []*http.Request) error { return http.ErrUseLastResponse },
		},
	}
}

// Emit reports that event happened with data as its payload. Every active
// webhook subscribed to event receives a delivery, asynchronously. It is the
// one entry point the emulator's areas call (message.sent from triggers;
// contact and batch events from their areas); after Close it does nothing.
func (s *Server) Emit(event string, data map[string]any) { s.emit(event, data) }

// emit delivers event to every active webhook subscribed to it.
func (s *base) emit(event string, data map[string]any) {
	hooks, _, _ := s.store.Page(nil, webhooksKey, 0, int(^uint(0)>>1))
	occurredAt := s.now()
	for _, h := range hooks {
		if active, _ := h["active"].(bool); !active {
			continue
		}
		events, _ := h["events"].([]any)
		if !slices.Contains(events, any(event)) {
			continue
		}
		url, _ := h["url"].(string)
		secret, _ := h["secret"].(string)
		s.hooks.start(s, h["id"].(int64), url, secret, event, occurredAt, data)
	}
}

func (d *deliverer) start(s *base, webhookID int64, url, secret, event, occurredAt string, data map[string]any) {
	l := d.enqueue(s, webhookID, url, secret, event, occurredAt, data)
	l.write(d.log)
}

// enqueue records the delivery and starts it, unless it is not to be
// sent; it returns a line to log about a refused target.
func (d *deliverer) enqueue(s *base, webhookID int64, url, secret, event, occurredAt string, data map[string]any) *logLine {
	d.mu.Lock()
	defer d.mu.Unlock()
	if d.closed {
		return nil
	}
	d.nextID++
	id := "dlv-" + strconv.FormatInt(d.nextID, 10)
	if data == nil {
		data = map[string]any{}
	}
	body, err := json.Marshal(map[string]any{"id": id, "event": event, "occurredAt": occurredAt, "data": data})
	if err != nil {
		s.log.Error("encoding a webhook delivery", "event", event, "error", err)
		return nil
	}
	dl := &Delivery{ID: id, WebhookID: webhookID, Event: event, URL: url, Body: body, State: DeliveryPending}
	d.deliveries = append(d.deliveries, dl)
	if d.off {
		dl.State, dl.Reason = DeliverySkipped, deliveriesOffReason
		return nil
	}
	if why := d.allowed.refusal(url); why != "" {
		dl.State, dl.Reason = DeliverySkipped, why
		// Once per target: every event of a fixture's webhook would
		// otherwise repeat it.
		h := d.target(targetKey{webhookID, url})
		if h.refusalLogged {
			return nil
		}
		h.refusalLogged = true
		return &logLine{msg: "webhook deliveries not sent to this target", attrs: []any{"webhook", webhookID, "url", logURL(url), "reason", why}}
	}
	d.wg.Add(1)
	go func() {
		defer d.wg.Done()
		d.run(s, dl, secret)
	}()
	return nil
}

// run makes the attempts of one delivery.
func (d *deliverer) run(s *base, dl *Delivery, secret string) {
	wait := s.opts.WebhookRetryWait
	k := targetKey{dl.WebhookID, dl.URL}
	for attempt := 1; ; attempt++ {
		status, failure := d.attempt(s, dl, secret)
		last := failure == "" || attempt == s.opts.WebhookMaxAttempts
		d.mu.Lock()
		dl.Attempts = attempt
		dl.LastStatus = status
		switch {
		case failure == "":
			dl.State = DeliveryDelivered
		case last:
			dl.State = DeliveryFailed
		}
		var l *logLine
		// An attempt cut short by Close says nothing about the receiver.
		if d.ctx.Err() == nil {
			l = d.noteLocked(k, failure, last && failure != "")
		}
		d.mu.Unlock()
		l.write(d.log)
		if last {
			return
		}
		t := time.NewTimer(wait)
		select {
		case <-d.ctx.Done():
			t.Stop()
			d.finish(dl, DeliveryFailed)
			return
		case <-t.C:
		}
		wait = min(wait*2, maxDeliveryWait)
	}
}

// maxDeliveryWait caps the doubling wait between attempts.
const maxDeliveryWait = time.Minute

func (d *deliverer) finish(dl *Delivery, state string) {
	d.mu.Lock()
	defer d.mu.Unlock()
	dl.State = state
}

// attempt POSTs the delivery once and returns the status (0 on a transport
// error) and, unless it was answered 2xx, what went wrong.
func (d *deliverer) attempt(s *base, dl *Delivery, secret string) (int, string) {
	req, err := http.NewRequestWithContext(d.ctx, http.MethodPost, dl.URL, bytes.NewReader(dl.Body))
	if err != nil {
		return 0, err.Error()
	}
	ts := strconv.FormatInt(s.opts.Now().Unix(), 10)
	req.Header.Set("Content-Type", "application/json")
	req.Header.Set("User-Agent", "rms-emulator-webhooks")
	req.Header.Set("X-RMS-Event", dl.Event)
	req.Header.Set("X-RMS-Delivery", dl.ID)
	req.Header.Set("X-RMS-Timestamp", ts)
	if secret != "" {
		req.Header.Set("X-RMS-Signature", WebhookSignature(secret, ts, dl.Body))
	}
	resp, err := d.client.Do(req)
	if err != nil {
		return 0, attemptFailure(err)
	}
	defer func() { _ = resp.Body.Close() }()
	_, _ = io.Copy(io.Discard, io.LimitReader(resp.Body, 64<<10))
	if resp.StatusCode < 200 || resp.StatusCode > 299 {
		return resp.StatusCode, "answered " + resp.Status
	}
	return resp.StatusCode, ""
}

// WebhookSignature is the X-RMS-Signature value of a delivery:
// "v1=" + lower-case hex of HMAC-SHA256(secret, timestamp + "." + body).
func WebhookSignature(secret, timestamp string, body []byte) string {
	mac := hmac.New(sha256.New, []byte(secret))
	mac.Write([]byte(timestamp))
	mac.Write([]byte{'.'})
	mac.Write(body)
	return "v1=" + hex.EncodeToString(mac.Sum(nil))
}

// Deliveries returns a snapshot of every delivery so far, in order.
func (s *Server) Deliveries() []Delivery {
	s.hooks.mu.Lock()
	defer s.hooks.mu.Unlock()
	out := make([]Delivery, len(s.hooks.deliveries))
	for i, dl := range s.hooks.deliveries {
		out[i] = *dl
		out[i].Body = bytes.Clone(dl.Body)
	}
	return out
}

// close stops every pending delivery and waits for their goroutines, then
// logs what the log has not said yet about failing targets.
func (d *deliverer) close() {
	d.mu.Lock()
	d.closed = true
	d.stopFlushesLocked()
	d.mu.Unlock()
	d.cancel()
	d.wg.Wait()
	d.client.CloseIdleConnections()
	for _, l := range d.finalLines() {
		l.write(d.log)
	}
}

// Close stops the Server's background work (webhook deliveries, writes to
// the data directory) and waits for it; with a data directory it writes the
// state a last time, logging a failure (Listener.Close and Shutdown return
// it). Listener.Close and Shutdown call it; a Server used directly as a
// handler should be closed by its owner. It is safe to call more than once.
func (s *Server) Close() {
	if err := s.close(); err != nil {
		s.log.Error("closing the emulator", "error", err)
	}
}

// close is Close returning the final write's error.
func (s *Server) close() error {
	s.hooks.close()
	if s.persist != nil {
		return s.persist.close()
	}
	return nil
}
