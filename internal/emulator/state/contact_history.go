package state

// A contact's last status changes and what made each one, for the
// emulator's console: a person looking at an account after a CI run wants
// to tell Terraform's writes from a CRM's or a hosted opt-out page's, and an
// import's from a single call. Only the last HistoryLen changes of a
// contact are kept (oldest dropped), in memory only: the data directory
// does not keep them, so a restored contact starts without history.
//
// Memory: a change is 24 bytes, a contact's history at most HistoryLen of
// them. A history, like a contact, is never modified in place: a change
// stores a new one, so an old contact value keeps its own. The contacts
// one write creates with the same states share one history (see
// birthLocked), so seeding or importing a million contacts costs one
// history, not a million; only contacts whose status changed afterwards
// hold their own.

// HistoryLen bounds the status changes a contact remembers.
const HistoryLen = 20

// Kinds of Cause.
const (
	// CauseCall is a single call of the interface.
	CauseCall = "call"
	// CauseImport is an import batch.
	CauseImport = "import"
	// CauseGoAPI is the emulator's Go API (Server.UpsertContacts and
	// ReplaceContacts), which tests and tools seed accounts with.
	CauseGoAPI = "go-api"
	// CauseFixtures is the fixture file a new account was loaded from.
	CauseFixtures = "fixtures"
)

// Cause is what made a change. Causes are shared by every change they
// made and never modified once a write has used them (an import's BatchID
// is set when its batch starts, before any row is handled).
type Cause struct {
	Kind string
	// UserAgent and Call (method and route pattern) name a single call.
	UserAgent string
	Call      string
	// ImportID, ImportType and BatchID name an import batch.
	ImportID   int64
	ImportType string
	BatchID    int64
}

// StatusChange is one change of one channel's status, as the console
// shows it: From is "" for the state a new contact started with.
type StatusChange struct {
	At       int64 // unix seconds
	Channel  string
	From, To string
	By       *Cause
}

// Channels of a StatusChange.
const (
	ChannelEmail  = "email"
	ChannelMobile = "mobile"
)

// change is a StatusChange as a history keeps it: 24 bytes.
type change struct {
	at       int64
	by       *Cause
	mobile   bool
	from, to statusCode
}

// statusCode is a subscription state in one byte.
type statusCode uint8

const (
	codeNone statusCode = iota
	codeSubscribed
	codeUnsubscribed
	codePending
	codeOther // a state no write of the emulator sets
)

func codeOf(s string) statusCode {
	switch s {
	case "":
		return codeNone
	case StatusSubscribed:
		return codeSubscribed
	case StatusUnsubscribed:
		return codeUnsubscribed
	case StatusPending:
		return codePending
	}
	return codeOther
}

func (c statusCode) String() string {
	return [...]string{"", StatusSubscribed, StatusUnsubscribed, StatusPending, "OTHER"}[c]
}

// history is a contact's last changes, oldest first, at most HistoryLen.
type history struct {
	changes []change
}

// with returns a new history: h's changes and add, the oldest dropped
// beyond HistoryLen. h may be nil.
func (h *history) with(add []change) *history {
	var old []change
	if h != nil {
		old = h.changes
	}
	keep := max(0, min(len(old), HistoryLen-len(add)))
	n := &history{changes: make([]change, 0, keep+len(add))}
	n.changes = append(n.changes, old[len(old)-keep:]...)
	n.changes = append(n.changes, add[max(0, len(add)-HistoryLen):]...)
	return n
}

// view returns the changes, newest first.
func (h *history) view() []StatusChange {
	if h == nil {
		return nil
	}
	out := make([]StatusChange, len(h.changes))
	for i, c := range h.changes {
		ch := ChannelEmail
		if c.mobile {
			ch = ChannelMobile
		}
		out[len(out)-1-i] = StatusChange{At: c.at, Channel: ch, From: c.from.String(), To: c.to.String(), By: c.by}
	}
	return out
}

// statusChanges lists what changed from old (nil for a new contact) to c.
func statusChanges(old, c *Contact, by *Cause, stamp int64) (add [2]change, n int) {
	fromEmail, fromMobile := codeNone, codeNone
	if old != nil {
		fromEmail, fromMobile = old.status, old.mobile
	}
	if old == nil || fromEmail != c.status {
		add[n] = change{at: stamp, by: by, from: fromEmail, to: c.status}
		n++
	}
	if old == nil || fromMobile != c.mobile {
		add[n] = change{at: stamp, by: by, mobile: true, from: fromMobile, to: c.mobile}
		n++
	}
	return add, n
}

// noteLocked gives c, a new value not yet stored, its history: old's (nil
// for a new contact) and the status changes from old to c, stamped with
// c's modification time. The caller holds mu for writing.
func (cs *Contacts) noteLocked(old, c *Contact, by *Cause) {
	var prev *history
	if old != nil {
		prev = old.hist
	}
	add, n := statusChanges(old, c, by, int64(c.modified))
	switch {
	case n == 0:
		c.hist = prev
	case old == nil:
		c.hist = cs.birthLocked(add[:n])
	default:
		c.hist = prev.with(add[:n])
	}
}

// birthLocked is the history of a new contact: the one the previous new
// contact got when it started the same way (same time, cause and states),
// which a bulk write gives thousands of contacts in a row.
func (cs *Contacts) birthLocked(add []change) *history {
	if h := cs.lastBirth; h != nil && len(h.changes) == len(add) {
		same := true
		for i := range add {
			same = same && h.changes[i] == add[i]
		}
		if same {
			return h
		}
	}
	cs.lastBirth = (*history)(nil).with(add)
	return cs.lastBirth
}
