package state

import "time"

// AddMessage stamps msg with the account's next id and keeps it.
func (st *Store) AddMessage(msg SentMessage) SentMessage {
	st.Lock()
	defer st.Unlock()
	st.nextID++
	msg.ID = st.nextID
	st.messages = append(st.messages, msg)
	return msg
}

// SentMessages returns the messages sent at or after since, in order; the
// statistics export counts them.
func (st *Store) SentMessages(since time.Time) []SentMessage {
	st.RLock()
	defer st.RUnlock()
	var out []SentMessage
	for _, m := range st.messages {
		if !m.SentAt.Before(since) {
			out = append(out, m)
		}
	}
	return out
}

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
