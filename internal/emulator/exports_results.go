package emulator

import (
	"sync"
	"time"
)

// The interface says a finished export's result is held in an object
// storage service and reached through a URL. The emulator stands in for that
// service at /objectstore/{token}: like a pre-signed URL, the path carries an
// unguessable token (32 hex digits from crypto/rand), needs no credentials,
// and stops working after Options.ResultURLTTL (410 GONE; an unknown token is
// 404). Every request for the URL mints a new token; minting and serving
// are the export routes' (exports_routes.go), the tokens are kept here.

const objectStorePrefix = "/objectstore/"

// resultLink is what a token opens: a batch's file, until expires.
type resultLink struct {
	batchID int64
	expires time.Time
}

// objectStore holds the minted tokens.
type objectStore struct {
	mu    sync.Mutex
	links map[string]resultLink
}

func newObjectStore() *objectStore {
	return &objectStore{links: map[string]resultLink{}}
}

// has reports whether token was minted here (expired or not), so that a
// front serving several accounts finds the one that serves it.
func (o *objectStore) has(token string) bool {
	o.mu.Lock()
	defer o.mu.Unlock()
	_, ok := o.links[token]
	return ok
}

// keepExpired is how long an expired token is remembered, so that it is
// answered 410 rather than 404 for a while, before it is forgotten.
const keepExpired = time.Hour
