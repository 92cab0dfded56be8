package emulator

// The request pipeline below ServeHTTP: faults first, then the account
// guard and the mux, with a JSON answer for a path no route serves.

import (
	"net/http"
	"strconv"
	"strings"
	"time"

	"github.com/rms-labs/terraform-provider-rms/internal/emulator/apierr"
)

// serve answers one request and returns the mux pattern that served it ("" when
// none did).
func (s *Server) serve(w http.ResponseWriter, r *http.Request) string {
	// Batches progress with the clock; bringing them up to date before any
	// request means every answer, a list's contacts included, reflects the
	// work done by then, whether or not anyone polled the batch.
	s.batchesAPI.advanceBatches()
	if rest, ok := strings.CutPrefix(r.URL.Path, "/rest/"); ok {
		if !s.guardAccount(w, r, rest) {
			return ""
		}
	}
	_, pattern := s.mux.Handler(r)
	if pattern == "" {
		s.noRoute(w, r)
		return ""
	}
	s.mux.ServeHTTP(w, r)
	return pattern
}

// noRoute answers, as JSON, a request no pattern matches. The mux knows
// whether the path exists with other methods (405, with Allow) or not at all
// (404); we let it decide into a scratch writer and keep only that verdict.
func (s *Server) noRoute(w http.ResponseWriter, r *http.Request) {
	scratch := &discardWriter{header: http.Header{}}
	s.mux.ServeHTTP(scratch, r)
	if scratch.status == http.StatusMethodNotAllowed {
		e := apierr.Errorf(http.StatusMethodNotAllowed, "method %s is not allowed on %s", r.Method, r.URL.Path)
		e.Allow = scratch.header.Get("Allow")
		s.writeError(w, e)
		return
	}
	s.writeError(w, apierr.Errorf(http.StatusNotFound, "no such path: %s", r.URL.Path))
}

// collectionOf is the first segment below /rest/{customerid}/, or "".
func collectionOf(path string) string {
	rest, ok := strings.CutPrefix(path, "/rest/")
	if !ok {
		return ""
	}
	_, tail, ok := strings.Cut(rest, "/")
	if !ok {
		return ""
	}
	coll, _, _ := strings.Cut(tail, "/")
	return coll
}

// discardWriter records the status and headers of a response and drops its
// body.
type discardWriter struct {
	header http.Header
	status int
}

func (w *discardWriter) Header() http.Header { return w.header }

func (w *discardWriter) WriteHeader(code int) {
	if w.status == 0 {
		w.status = code
	}
}

func (w *discardWriter) Write(b []byte) (int, error) {
	if w.status == 0 {
		w.status = http.StatusOK
	}
	return len(b), nil
}

// withFaults wraps the handler: latency first, then a fault instead of the
// real answer, or the real answer swallowed by a dropped connection.
func (s *Server) withFaults(w http.ResponseWriter, r *http.Request, next func(http.ResponseWriter, *http.Request)) {
	if s.faults == nil || !s.faults.matches(r) {
		next(w, r)
		return
	}
	if d := s.faults.opts.Latency; d > 0 {
		select {
		case <-time.After(d):
		case <-r.Context().Done():
			return
		}
	}
	fault, actThenDrop := s.faults.decide(r)
	switch {
	case fault == FaultDrop:
		dropConnection(w)
	case isCorrupt(fault):
		writeCorrupt(w, fault)
	case fault != "":
		status, _ := strconv.Atoi(fault)
		e := apierr.Errorf(status, "injected fault: %s", http.StatusText(status))
		if status == http.StatusTooManyRequests || status == http.StatusServiceUnavailable {
			w.Header().Set("Retry-After", strconv.Itoa(max(1, int(s.faults.opts.RetryAfter.Round(time.Second)/time.Second))))
		}
		s.writeError(w, e)
	case actThenDrop:
		// Act for real into a buffer, then drop: the client never learns.
		buf := &bufferedWriter{header: http.Header{}}
		next(buf, r)
		dropConnection(w)
	default:
		next(w, r)
	}
}
