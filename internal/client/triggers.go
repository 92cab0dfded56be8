package client

import (
	"context"
	"fmt"
	"net/http"
)

// Recipient is who a transactional message goes to: an e-mail address for
// an EMAIL trigger, a mobile number for an SMS trigger.
type Recipient struct {
	Email      string `json:"email,omitempty"`
	Mobile     string `json:"mobile,omitempty"`
	OriginalID string `json:"originalId,omitempty"`
}

// TransactionalMessage is the body of POST /{customerid}/triggers/{id}/messages
// (documented in the emulator's OpenAPI document and the provider's docs).
// Properties fill the trigger's placeholders; OrderRows feed its templating.
type TransactionalMessage struct {
	Recipient  Recipient         `json:"recipient"`
	Properties map[string]string `json:"properties,omitempty"`
	OrderRows  []map[string]any  `json:"orderRows,omitempty"`
}

// SentMessage is the service's answer to a send.
type SentMessage struct {
	ID        ID        `json:"id"`
	TriggerID ID        `json:"triggerId"`
	Channel   string    `json:"channel"`
	Status    string    `json:"status"`
	SentAt    Timestamp `json:"sentAt"`
	Recipient Recipient `json:"recipient"`
}

// Send sends one message through a trigger. A POST is
// retried only when the service cannot have acted, so a message is never
// sent twice by the client. The error matches ErrNotFound when the trigger
// does not exist.
func (s *TriggerService) Send(ctx context.Context, triggerID string, msg TransactionalMessage) (*SentMessage, error) {
	a, err := s.c.write(ctx, http.MethodPost, Path("triggers", triggerID, "messages"), msg)
	if err != nil {
		return nil, fmt.Errorf("sending a message through trigger %s: %w", triggerID, err)
	}
	// The message was sent (2xx): an answer that says less, or nothing, is
	// kept as far as it goes and never fails the send, which must not be
	// repeated. A sent message cannot be read back.
	out := SentMessage{TriggerID: ID(triggerID), Recipient: msg.Recipient}
	if a.object() != nil {
		if err := a.decode(&out); err != nil {
			s.c.logger.Warn(ctx, "the answer to a sent message could not be read; keeping what was sent", map[string]any{"trigger_id": triggerID, "error": err.Error()})
			out = SentMessage{TriggerID: ID(triggerID), Recipient: msg.Recipient}
		}
	}
	if out.ID == "" {
		out.ID = ID(locationID(a.location))
	}
	return &out, nil
}
