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
