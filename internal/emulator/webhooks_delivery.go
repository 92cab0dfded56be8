package emulator

import (
	"bytes"
	"cmp"
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

// deliverer runs the deliveries of one Server.
type deliverer struct {
	ctx     context.Context
	cancel  context.CancelFunc
	client  *http.Client
	log     *slog.Logger
	opts    Options // the retry wait, the attempts and the clock
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
		opts:    opts,
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

func (d *deliverer) start(webhookID int64, url, secret, event, occurredAt string, data map[string]any) {
	l := d.enqueue(webhookID, url, secret, event, occurredAt, data)
	l.write(d.log)
}

// enqueue records the delivery and starts it, unless it is not to be
// sent; it returns a line to log about a refused target.
func (d *deliverer) enqueue(webhookID int64, url, secret, event, occurredAt string, data map[string]any) *logLine {
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
		d.log.Error("encoding a webhook delivery", "event", event, "error", err)
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
		d.run(dl, secret)
	}()
	return nil
}

// run makes the attempts of one delivery.
func (d *deliverer) run(dl *Delivery, secret string) {
	wait := d.opts.WebhookRetryWait
	k := targetKey{dl.WebhookID, dl.URL}
	for attempt := 1; ; attempt++ {
		status, failure := d.attempt(dl, secret)
		last := failure == "" || attempt == d.opts.WebhookMaxAttempts
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
func (d *deliverer) attempt(dl *Delivery, secret string) (int, string) {
	req, err := http.NewRequestWithContext(d.ctx, http.MethodPost, dl.URL, bytes.NewReader(dl.Body))
	if err != nil {
		return 0, err.Error()
	}
	ts := strconv.FormatInt(d.opts.Now().Unix(), 10)
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

// target returns the health of k, new when k is. Call with d.mu held.
func (d *deliverer) target(k targetKey) *targetHealth {
	h := d.targets[k]
	if h == nil {
		h = &targetHealth{}
		d.targets[k] = h
	}
	return h
}

// noteLocked records the outcome of one attempt to k (failure is empty
// when it succeeded) and returns the line to log now, if any. Call with
// d.mu held.
func (d *deliverer) noteLocked(k targetKey, failure string, gaveUp bool) *logLine {
	h := d.target(k)
	if failure == "" {
		if !h.failing && !h.due() {
			return nil
		}
		h.failing = false
	} else {
		h.failing = true
		h.failed++
		h.lastFailure = failure
	}
	if gaveUp {
		h.gaveUp++
	}
	return d.reportLocked(k, h)
}

// reportLocked returns the line due for k now, or arranges for it to be
// logged when deliveryReportEvery has passed since the last one. Call with
// d.mu held.
func (d *deliverer) reportLocked(k targetKey, h *targetHealth) *logLine {
	if !h.due() {
		return nil
	}
	now := time.Now()
	if !h.lastLine.IsZero() {
		if wait := h.lastLine.Add(deliveryReportEvery).Sub(now); wait > 0 {
			if h.flush == nil && !d.closed {
				d.wg.Add(1)
				h.flush = time.AfterFunc(wait, func() {
					defer d.wg.Done()
					d.flushTarget(k)
				})
			}
			return nil
		}
	}
	return h.line(k, now)
}

// flushTarget logs the line held back for k.
func (d *deliverer) flushTarget(k targetKey) {
	d.mu.Lock()
	h := d.targets[k]
	h.flush = nil
	var l *logLine
	if !d.closed { // close reports it
		l = d.reportLocked(k, h)
	}
	d.mu.Unlock()
	l.write(d.log)
}

// stopFlushesLocked stops the held-back lines' timers, for close. Call
// with d.mu held.
func (d *deliverer) stopFlushesLocked() {
	for _, h := range d.targets {
		if h.flush != nil && h.flush.Stop() {
			d.wg.Done()
		}
		h.flush = nil
	}
}

// finalLines reports, in a stable order, what no line has said yet: the
// last words of close, however recent the previous line.
func (d *deliverer) finalLines() []*logLine {
	d.mu.Lock()
	defer d.mu.Unlock()
	keys := make([]targetKey, 0, len(d.targets))
	for k, h := range d.targets {
		if h.due() {
			keys = append(keys, k)
		}
	}
	slices.SortFunc(keys, func(a, b targetKey) int {
		return cmp.Or(cmp.Compare(a.webhook, b.webhook), cmp.Compare(a.url, b.url))
	})
	lines := make([]*logLine, 0, len(keys))
	now := time.Now()
	for _, k := range keys {
		lines = append(lines, d.targets[k].line(k, now))
	}
	return lines
}
