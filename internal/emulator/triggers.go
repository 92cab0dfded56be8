package emulator

import (
	"maps"
	"net/http"
	"regexp"
	"slices"
	"strings"
	"time"

	"github.com/rms-labs/terraform-provider-rms/internal/emulator/apierr"
	"github.com/rms-labs/terraform-provider-rms/internal/emulator/state"
)

// Transactional messages: POST /{customerid}/triggers/{id}/messages sends one
// message through a trigger. Triggers themselves follow the generic pattern;
// the send reads the trigger's "channel" ("EMAIL", the default, or "SMS") to
// know which recipient field it needs. The body (not shown by the interface;
// documented in openapi/50-triggers.json):
//
//	{ "recipient": { "email": "ada@example.com", "mobile": "+4912345", "originalId": "c-1" },
//	  "properties": { "firstname": "Ada" },
//	  "orderRows": [ { "sku": "A1", "qty": 2 } ] }

var (
	messageKeys   = []string{"recipient", "properties", "orderRows"}
	recipientKeys = []string{"email", "mobile", "originalId"}
	emailPattern  = regexp.MustCompile(`^[^@\s]+@[^@\s]+\.[^@\s]+$`)
	mobilePattern = regexp.MustCompile(`^\+?[0-9]{6,15}$`)
)

func (s *triggersAPI) registerTriggers() {
	s.handleJSON("POST /rest/{customerid}/triggers/{id}/messages", s.sendMessage)
}

func (s *triggersAPI) sendMessage(w http.ResponseWriter, r *http.Request) *apierr.Error {
	raw := r.PathValue("id")
	tid, ok := parseID(raw)
	trigger, found := s.store.Get("triggers", tid)
	if !ok || !found {
		return apierr.Errorf(http.StatusNotFound, "no trigger with id %q; create the trigger (POST /triggers) before sending through it", raw)
	}
	channel := "EMAIL"
	if c, ok := trigger["channel"].(string); ok && c != "" {
		channel = strings.ToUpper(c)
	}
	if channel != "EMAIL" && channel != "SMS" {
		return apierr.Errorf(http.StatusBadRequest, "trigger %d has channel %q; only EMAIL and SMS triggers send messages", tid, channel)
	}
	body, err := readJSONObject(r)
	if err != nil {
		return err
	}
	msg, err := parseMessage(body, channel)
	if err != nil {
		return err
	}
	msg.TriggerID = tid
	msg.Channel = channel
	msg.Status = "SENT"
	msg.SentAt = s.opts.Now().UTC().Truncate(time.Second)
	msg = s.store.Messages.Add(msg)

	answer := map[string]any{
		"id":        msg.ID,
		"triggerId": tid,
		"channel":   channel,
		"status":    msg.Status,
		"sentAt":    msg.SentAt.Format(time.RFC3339),
		"recipient": msg.Recipient,
	}
	s.emit("message.sent", map[string]any{
		"messageId": msg.ID,
		"triggerId": tid,
		"channel":   channel,
		"recipient": maps.Clone(msg.Recipient),
	})
	s.writeJSON(w, http.StatusCreated, answer)
	return nil
}

// parseMessage validates a send body for a trigger of channel.
func parseMessage(body map[string]any, channel string) (SentMessage, *apierr.Error) {
	var msg SentMessage
	for k := range body {
		if !slices.Contains(messageKeys, k) {
			return msg, apierr.FieldError(k, "unknown field %q; a message has %s", k, strings.Join(messageKeys, ", "))
		}
	}
	rcpt, ok := body["recipient"].(map[string]any)
	if !ok {
		return msg, apierr.FieldError("recipient", "recipient is mandatory: an object with email (EMAIL triggers) or mobile (SMS triggers)")
	}
	for k, v := range rcpt {
		if !slices.Contains(recipientKeys, k) {
			return msg, apierr.FieldError("recipient."+k, "unknown recipient field %q; a recipient has %s", k, strings.Join(recipientKeys, ", "))
		}
		if _, ok := v.(string); !ok {
			return msg, apierr.FieldError("recipient."+k, "recipient.%s must be a string", k)
		}
	}
	email, _ := rcpt["email"].(string)
	mobile, _ := rcpt["mobile"].(string)
	switch {
	case channel == "EMAIL" && email == "":
		return msg, apierr.FieldError("recipient.email", "recipient.email is mandatory for an EMAIL trigger")
	case channel == "SMS" && mobile == "":
		return msg, apierr.FieldError("recipient.mobile", "recipient.mobile is mandatory for an SMS trigger")
	case email != "" && !emailPattern.MatchString(email):
		return msg, apierr.FieldError("recipient.email", "recipient.email %q is not an e-mail address", email)
	case mobile != "" && !mobilePattern.MatchString(mobile):
		return msg, apierr.FieldError("recipient.mobile", "recipient.mobile %q is not a mobile number (digits, optionally with a leading +)", mobile)
	}
	msg.Recipient = rcpt
	if p, present := body["properties"]; present && p != nil {
		props, ok := p.(map[string]any)
		if !ok {
			return msg, apierr.FieldError("properties", "properties must be an object of strings")
		}
		for k, v := range props {
			if _, ok := v.(string); !ok {
				return msg, apierr.FieldError("properties."+k, "properties.%s must be a string", k)
			}
		}
		msg.Properties = props
	}
	if o, present := body["orderRows"]; present && o != nil {
		rows, ok := o.([]any)
		if !ok {
			return msg, apierr.FieldError("orderRows", "orderRows must be an array of objects")
		}
		for i, row := range rows {
			if _, ok := row.(map[string]any); !ok {
				return msg, apierr.FieldError("orderRows", "orderRows[%d] must be an object", i)
			}
		}
		msg.OrderRows = rows
	}
	return msg, nil
}

// SentMessage is one transactional message the emulator has sent (the
// account's state keeps them).
type SentMessage = state.SentMessage

// triggersAPI serves the sending of transactional messages.
type triggersAPI struct{ *base }
