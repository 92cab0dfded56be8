package emulator

import (
	"net/http"
	"testing"
	"testing/synctest"
	"time"
)

func TestSendTransactionalMessage(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		t0 := time.Now()
		s := New(Options{})
		defer s.Close()
		rc := newReceiver()
		mustCreate(t, s, "/rest/1000/webhooks", map[string]any{"url": rc.attach(s), "events": []string{"message.sent"}})
		email := mustCreate(t, s, "/rest/1000/triggers", map[string]any{"name": "order confirmation", "subject": "Your order"})
		sms := mustCreate(t, s, "/rest/1000/triggers", map[string]any{"name": "code", "channel": "sms"})

		rec := do(t, s, http.MethodPost, "/rest/1000/triggers/"+idOf(t, email)+"/messages", map[string]any{
			"recipient":  map[string]any{"email": "ada@example.com", "originalId": "c-1"},
			"properties": map[string]any{"firstname": "Ada"},
			"orderRows":  []any{map[string]any{"sku": "A1", "qty": 2}},
		})
		wantStatus(t, rec, http.StatusCreated)
		got := decodeObject(t, rec)
		if got["status"] != "SENT" || got["channel"] != "EMAIL" || got["sentAt"] != rfc3339(t0) || idOf(t, got) == "" {
			t.Errorf("answer = %v", got)
		}
		advance(time.Minute)
		wantStatus(t, do(t, s, http.MethodPost, "/rest/1000/triggers/"+idOf(t, sms)+"/messages", `{"recipient":{"mobile":"+4915112345678"}}`), http.StatusCreated)

		msgs := s.SentMessages()
		if len(msgs) != 2 || msgs[0].Channel != "EMAIL" || msgs[1].Channel != "SMS" || msgs[0].Properties["firstname"] != "Ada" || len(msgs[0].OrderRows) != 1 {
			t.Fatalf("sent messages = %+v", msgs)
		}
		if !msgs[1].SentAt.Equal(t0.Add(time.Minute)) || msgs[1].ID <= msgs[0].ID {
			t.Errorf("second message = %+v", msgs[1])
		}
		if n := len(s.store.Messages.Since(t0.Add(time.Minute))); n != 1 {
			t.Errorf("%d messages since the second send, want 1", n)
		}
		// Each send emits message.sent.
		synctest.Wait()
		if n := len(rc.received()); n != 2 {
			t.Errorf("%d message.sent deliveries, want 2", n)
		}
	})
}

func TestSendTransactionalMessageRefused(t *testing.T) {
	s := New(Options{})
	defer s.Close()
	email := "/rest/1000/triggers/" + idOf(t, mustCreate(t, s, "/rest/1000/triggers", map[string]any{"name": "e"})) + "/messages"
	sms := "/rest/1000/triggers/" + idOf(t, mustCreate(t, s, "/rest/1000/triggers", map[string]any{"channel": "SMS"})) + "/messages"
	fax := "/rest/1000/triggers/" + idOf(t, mustCreate(t, s, "/rest/1000/triggers", map[string]any{"channel": "FAX"})) + "/messages"
	tests := []struct {
		name, path, body, field string
	}{
		{"no recipient", email, `{}`, "recipient"},
		{"email trigger without email", email, `{"recipient":{"mobile":"+4915112345678"}}`, "recipient.email"},
		{"sms trigger without mobile", sms, `{"recipient":{"email":"a@example.com"}}`, "recipient.mobile"},
		{"bad email", email, `{"recipient":{"email":"not-an-address"}}`, "recipient.email"},
		{"bad mobile", sms, `{"recipient":{"mobile":"call me"}}`, "recipient.mobile"},
		{"unknown recipient field", email, `{"recipient":{"email":"a@example.com","fax":"1"}}`, "recipient.fax"},
		{"property not a string", email, `{"recipient":{"email":"a@example.com"},"properties":{"n":1}}`, "properties.n"},
		{"order rows not objects", email, `{"recipient":{"email":"a@example.com"},"orderRows":[1]}`, "orderRows"},
		{"unknown field", email, `{"recipient":{"email":"a@example.com"},"cc":"x"}`, "cc"},
		{"unsupported channel", fax, `{"recipient":{"email":"a@example.com"}}`, ""},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got := wantErrorCode(t, do(t, s, http.MethodPost, tt.path, tt.body), http.StatusBadRequest, CodeValidation)
			if got.Field != tt.field {
				t.Errorf("field = %q, want %q (%s)", got.Field, tt.field, got.Message)
			}
		})
	}
	wantErrorCode(t, do(t, s, http.MethodPost, "/rest/1000/triggers/424242/messages", `{"recipient":{"email":"a@example.com"}}`), http.StatusNotFound, CodeNotFound)
	// The messages of a trigger are sent, never read or listed.
	wantErrorCode(t, do(t, s, http.MethodGet, email, nil), http.StatusMethodNotAllowed, CodeMethodNotAllowed)
	if n := len(s.SentMessages()); n != 0 {
		t.Errorf("%d messages recorded from refused sends", n)
	}
}
