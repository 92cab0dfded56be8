package state

import "time"

// The URLs of finished exports' results: each is a token the emulator's
// stand-in object storage opens (internal/emulator/exports_results.go). They
// are short-lived and not kept by the data directory: a client asks for a
// new one.

// ResultLink is what a token opens: a batch's file, until Expires.
type ResultLink struct {
	BatchID int64
	Expires time.Time
}

// ResultLinks holds the minted tokens: a store of its own over the
// account's one lock (Store), reached as Store.ResultLinks.
type ResultLinks struct {
	st    *Store
	links map[string]ResultLink
}

// Add keeps token as opening link, and forgets every token that expired
// more than keepExpired before now (until then an expired token is
// answered 410 rather than 404).
func (rl *ResultLinks) Add(token string, link ResultLink, now time.Time, keepExpired time.Duration) {
	rl.st.mu.Lock()
	defer rl.st.mu.Unlock()
	for t, l := range rl.links {
		if now.Sub(l.Expires) > keepExpired {
			delete(rl.links, t)
		}
	}
	rl.links[token] = link
}

// Get returns what token opens, expired or not.
func (rl *ResultLinks) Get(token string) (ResultLink, bool) {
	rl.st.mu.RLock()
	defer rl.st.mu.RUnlock()
	l, ok := rl.links[token]
	return l, ok
}
