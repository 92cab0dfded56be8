package main

import (
	"encoding/json"
	"net/http"
	"net/http/httptest"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/rms-labs/terraform-provider-rms/internal/emulator"
)

// Real deliveries from the emulator pass Verify and reach the handler.
func TestReceiverAcceptsSignedDeliveries(t *testing.T) {
	// The handler passes on each event it accepts; the test waits for the
	// first, not for time to pass.
	accepted := make(chan Event, 10)
	recv := httptest.NewServer(Handler([]byte("s3cret"), time.Now, func(ev Event) error {
		accepted <- ev
		return nil
	}))
	defer recv.Close()

	l, err := emulator.Listen("127.0.0.1:0", emulator.Options{Fixtures: &emulator.Fixtures{
		Webhooks: []map[string]any{{"url": recv.URL, "events": []any{"message.sent"}, "secret": "s3cret"}},
		Triggers: []map[string]any{{"id": 100, "name": "T"}},
	}})
	if err != nil {
		t.Fatal(err)
	}
	defer func() { _ = l.Close() }()
	req, _ := http.NewRequest(http.MethodPost, l.URL+"/rest/1000/triggers/100/messages", strings.NewReader(`{"recipient":{"email":"ada@example.com"}}`))
	req.SetBasicAuth(emulator.DefaultUsername, emulator.DefaultPassword)
	req.Header.Set("Content-Type", "application/json")
	req.Header.Set("Accept", "application/json")
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	_ = resp.Body.Close()
	if resp.StatusCode != http.StatusCreated {
		t.Fatalf("send: %d", resp.StatusCode)
	}
	var ev Event
	select {
	case ev = <-accepted:
	case <-time.After(10 * time.Second):
		t.Fatalf("no delivery accepted within 10s; deliveries: %+v", l.Server.Deliveries())
	}
	var data struct {
		TriggerID int64 `json:"triggerId"`
	}
	if err := json.Unmarshal(ev.Data, &data); err != nil || ev.Event != "message.sent" || data.TriggerID != 100 {
		t.Errorf("event = %+v (%v)", ev, err)
	}
}

func TestVerifyRefusesForgeriesAndReplays(t *testing.T) {
	now := time.Unix(1_800_000_000, 0)
	body := []byte(`{"id":"dlv-1","event":"contact.created","occurredAt":"2027-01-15T08:00:00Z","data":{}}`)
	signed := func(secret string, at time.Time, b []byte) http.Header {
		ts := strconv.FormatInt(at.Unix(), 10)
		return http.Header{
			"X-Rms-Timestamp": {ts},
			"X-Rms-Signature": {emulator.WebhookSignature(secret, ts, b)},
		}
	}
	if err := Verify([]byte("s3cret"), signed("s3cret", now, body), body, now); err != nil {
		t.Fatalf("a good delivery: %v", err)
	}
	tampered := signed("s3cret", now, body)
	tests := []struct {
		name   string
		header http.Header
		body   []byte
		want   string
	}{
		{"other secret", signed("guess", now, body), body, "does not match"},
		{"body changed", signed("s3cret", now, body), []byte(strings.Replace(string(body), "created", "deleted", 1)), "does not match"},
		{"timestamp changed", func() http.Header {
			tampered.Set("X-RMS-Timestamp", strconv.FormatInt(now.Unix()+1, 10))
			return tampered
		}(), body, "does not match"},
		{"too old", signed("s3cret", now.Add(-6*time.Minute), body), body, "possible replay"},
		{"from the future", signed("s3cret", now.Add(6*time.Minute), body), body, "possible replay"},
		{"unsigned", http.Header{"X-Rms-Timestamp": {strconv.FormatInt(now.Unix(), 10)}}, body, "missing X-RMS-Signature"},
		{"no timestamp", http.Header{}, body, "X-RMS-Timestamp"},
		{"not hex", http.Header{"X-Rms-Timestamp": {strconv.FormatInt(now.Unix(), 10)}, "X-Rms-Signature": {"v1=zz"}}, body, "malformed"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			err := Verify([]byte("s3cret"), tt.header, tt.body, now)
			if err == nil || !strings.Contains(err.Error(), tt.want) {
				t.Errorf("err = %v, want one containing %q", err, tt.want)
			}
		})
	}

	// The handler answers 401 to a forgery, so nothing acts on it.
	rec := httptest.NewRecorder()
	r := httptest.NewRequest(http.MethodPost, "/", strings.NewReader(string(body)))
	for k, v := range signed("guess", now, body) {
		r.Header[k] = v
	}
	Handler([]byte("s3cret"), func() time.Time { return now }, func(Event) error {
		t.Error("a forged delivery reached the handler")
		return nil
	}).ServeHTTP(rec, r)
	if rec.Code != http.StatusUnauthorized {
		t.Errorf("status = %d, want 401", rec.Code)
	}
}
