package state

import "time"

// Messages is the transactional messages sent through triggers, in order:
// a store of its own over the account's one lock (Store), reached as
// Store.Messages.
type Messages struct {
	st   *Store
	list []SentMessage
}

// Add stamps msg with the account's next id and keeps it.
func (ms *Messages) Add(msg SentMessage) SentMessage {
	ms.st.mu.Lock()
	defer ms.st.mu.Unlock()
	ms.st.nextID++
	msg.ID = ms.st.nextID
	ms.list = append(ms.list, msg)
	return msg
}

// Since returns the messages sent at or after since, in order; the
// statistics export counts them.
func (ms *Messages) Since(since time.Time) []SentMessage {
	ms.st.mu.RLock()
	defer ms.st.mu.RUnlock()
	var out []SentMessage
	for _, m := range ms.list {
		if !m.SentAt.Before(since) {
			out = append(out, m)
		}
	}
	return out
}
