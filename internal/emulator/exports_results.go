package emulator

import (
	"crypto/rand"
	"encoding/hex"
	"net/http"
	"strconv"
	"sync"
	"time"

	"github.com/rms-labs/terraform-provider-rms/internal/emulator/apierr"
)

// The interface says a finished export's result is held in an object
// storage service and reached through a URL. The emulator stands in for that
// service at /objectstore/{token}: like a pre-signed URL, the path carries an
// unguessable token (32 hex digits from crypto/rand), needs no credentials,
// and stops working after Options.ResultURLTTL (410 GONE; an unknown token is
// 404). Every request for the URL mints a new token.

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

// mintResultURL makes a new URL for batch id's file, on the host the client
// reached the emulator by.
func (s *exportsAPI) mintResultURL(r *http.Request, id int64) string {
	var raw [16]byte
	_, _ = rand.Read(raw[:]) // crypto/rand.Read never fails
	token := hex.EncodeToString(raw[:])
	now := s.opts.Now()
	objs := s.objects
	objs.mu.Lock()
	for t, l := range objs.links {
		if now.Sub(l.expires) > keepExpired {
			delete(objs.links, t)
		}
	}
	objs.links[token] = resultLink{batchID: id, expires: now.Add(s.opts.ResultURLTTL)}
	objs.mu.Unlock()
	scheme := "http"
	if r.TLS != nil {
		scheme = "https"
	}
	return scheme + "://" + r.Host + objectStorePrefix + token
}

func (s *exportsAPI) registerObjectStore() {
	s.handle("GET "+objectStorePrefix+"{token}", s.serveObject)
}

// serveObject streams an export file to a holder of a valid token.
func (s *exportsAPI) serveObject(w http.ResponseWriter, r *http.Request) {
	token := r.PathValue("token")
	objs := s.objects
	objs.mu.Lock()
	link, ok := objs.links[token]
	objs.mu.Unlock()
	if !ok {
		s.writeError(w, apierr.Errorf(http.StatusNotFound, "no object at this URL"))
		return
	}
	if now := s.opts.Now(); !now.Before(link.expires) {
		s.writeError(w, apierr.Errorf(http.StatusGone, "this result URL expired at %s; ask for a new one with GET .../batches/%d/result/url", link.expires.UTC().Format(time.RFC3339), link.batchID))
		return
	}
	b, ok := s.batchesAPI.batch(link.batchID)
	if !ok {
		s.writeError(w, apierr.Errorf(http.StatusNotFound, "no object at this URL"))
		return
	}
	job, ok := b.work.(*exportJob)
	if !ok {
		s.writeError(w, apierr.Errorf(http.StatusNotFound, "no object at this URL"))
		return
	}
	s.writeExportFile(w, r, b, job)
}

// writeExportFile streams an export's file as the answer.
func (s *exportsAPI) writeExportFile(w http.ResponseWriter, r *http.Request, b *batch, job *exportJob) {
	w.Header().Set("Content-Type", "text/csv; charset=utf-8")
	w.Header().Set("Content-Disposition", `attachment; filename="statistics-`+strconv.FormatInt(b.id, 10)+`.csv"`)
	w.Header().Set("Cache-Control", "private, no-store")
	w.WriteHeader(http.StatusOK)
	if r.Method == http.MethodHead {
		return
	}
	if err := job.writeCSV(w); err != nil {
		// The status is sent; a client sees a truncated body.
		s.log.Debug("writing export file", "batch", b.id, "error", err)
	}
}
