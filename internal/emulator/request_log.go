package emulator

import (
	"strings"
	"sync"
	"time"
)

// requestLogLen bounds the requests the console shows: the last ones
// served, oldest dropped.
const requestLogLen = 200

// ServedRequest is one request as the console lists it. Headers other
// than the User-Agent are never kept: they carry the credentials.
type ServedRequest struct {
	At        time.Time
	Method    string
	Path      string
	Status    int
	UserAgent string
	Duration  time.Duration
}

// requestLog is a ring of the last requestLogLen requests served, safe
// for concurrent use. Its memory is bounded: paths and User-Agents are cut
// to maxCauseText bytes.
type requestLog struct {
	mu   sync.Mutex
	ring [requestLogLen]ServedRequest
	next int // where the next request goes
	n    int // requests held, up to requestLogLen
}

func (l *requestLog) record(r ServedRequest) {
	r.Path, r.UserAgent = clip(r.Path), clip(r.UserAgent)
	l.mu.Lock()
	defer l.mu.Unlock()
	l.ring[l.next] = r
	l.next = (l.next + 1) % requestLogLen
	l.n = min(l.n+1, requestLogLen)
}

// last returns the requests held, newest first.
func (l *requestLog) last() []ServedRequest {
	l.mu.Lock()
	defer l.mu.Unlock()
	out := make([]ServedRequest, l.n)
	for i := range out {
		out[i] = l.ring[(l.next-1-i+2*requestLogLen)%requestLogLen]
	}
	return out
}

// logged reports whether a request to path belongs in the log: the
// console's own pages do not, so that looking does not push out what one
// came to see.
func logged(path string) bool {
	return path != consoleBase && !strings.HasPrefix(path, consoleBase+"/")
}
