package state

import "time"

// SentMessage is one transactional message the emulator has sent. The
// account keeps them so that statistics exports can count them; the JSON
// form is the one of data-dir snapshots.
type SentMessage struct {
	ID         int64          `json:"id"`
	TriggerID  int64          `json:"triggerId"`
	Channel    string         `json:"channel"`
	Recipient  map[string]any `json:"recipient"`
	Properties map[string]any `json:"properties,omitempty"`
	OrderRows  []any          `json:"orderRows,omitempty"`
	Status     string         `json:"status"`
	SentAt     time.Time      `json:"sentAt"`
}
