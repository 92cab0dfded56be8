package emulator

// The Go API of a Server that tests, tools and the bench call besides HTTP:
// its options, what it counted, injected, sent and delivered, and Close.

import (
	"bytes"
	"maps"
	"net/http"
	"slices"
	"time"
)

// Faults returns how many faults were injected so far.
func (s *Server) Faults() FaultStats {
	if s.faults == nil {
		return FaultStats{Injected: map[string]int64{}}
	}
	return s.faults.snapshot()
}

// Requests returns a snapshot of the request counts so far.
func (s *Server) Requests() RequestStats {
	return s.counter.snapshot()
}

// SentMessages returns every transactional message the account has sent, in
// order, for tests and tools that check what a configuration sent.
func (s *Server) SentMessages() []SentMessage {
	return s.store.Messages.Since(time.Time{})
}

// Emit reports that event happened with data as its payload. Every active
// webhook subscribed to event receives a delivery, asynchronously. It is the
// one entry point the emulator's areas call (message.sent from triggers;
// contact and batch events from their areas); after Close it does nothing.
func (s *Server) Emit(event string, data map[string]any) { s.emit(event, data) }

// Deliveries returns a snapshot of every delivery so far, in order.
func (s *Server) Deliveries() []Delivery {
	s.hooks.mu.Lock()
	defer s.hooks.mu.Unlock()
	out := make([]Delivery, len(s.hooks.deliveries))
	for i, dl := range s.hooks.deliveries {
		out[i] = *dl
		out[i].Body = bytes.Clone(dl.Body)
	}
	return out
}

// Close stops the Server's background work (webhook deliveries, writes to
// the data directory) and waits for it; with a data directory it writes the
// state a last time, logging a failure (Listener.Close and Shutdown return
// it). Listener.Close and Shutdown call it; a Server used directly as a
// handler should be closed by its owner. It is safe to call more than once.
func (s *Server) Close() {
	if err := s.close(); err != nil {
		s.log.Error("closing the emulator", "error", err)
	}
}

// close is Close returning the final write's error.
func (s *Server) close() error {
	s.hooks.close()
	if s.persist != nil {
		return s.persist.Close()
	}
	return nil
}

// Options returns the effective options, defaults filled.
func (s *Server) Options() Options {
	o := s.opts
	o.Retired = maps.Clone(o.Retired)
	return o
}

// ServeHTTP answers one request, counting and logging it.
func (s *Server) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	start := time.Now()
	sw := &statusWriter{ResponseWriter: w}
	var pattern string
	s.withFaults(sw, r, func(w http.ResponseWriter, r *http.Request) { pattern = s.serveWire(w, r) })
	status := sw.status
	if status == 0 {
		status = http.StatusOK
	}
	s.counter.record(r.Method, collectionOf(r.URL.Path), pattern, status)
	if logged(r.URL.Path) {
		s.served.record(ServedRequest{At: start, Method: r.Method, Path: r.URL.Path, Status: status, UserAgent: r.UserAgent(), Duration: time.Since(start)})
	}
	// Never log headers: they carry the credentials.
	s.log.Info("request", "method", r.Method, "path", r.URL.Path, "status", status, "duration", time.Since(start))
}

// statusWriter remembers the status answered, for counting and logging.
type statusWriter struct {
	http.ResponseWriter
	status int
}

func (w *statusWriter) WriteHeader(code int) {
	if w.status == 0 {
		w.status = code
	}
	w.ResponseWriter.WriteHeader(code)
}

func (w *statusWriter) Write(b []byte) (int, error) {
	if w.status == 0 {
		w.status = http.StatusOK
	}
	return w.ResponseWriter.Write(b)
}

// Unwrap lets http.ResponseController reach the underlying writer (flushing
// for streamed downloads in later work).
func (w *statusWriter) Unwrap() http.ResponseWriter { return w.ResponseWriter }

// OAuth2Tokens returns what the token endpoint has done so far.
func (s *Server) OAuth2Tokens() OAuth2TokenStats { return s.tokens.snapshot() }

// IssuedOAuth2Tokens returns the tokens issued and not yet forgotten, for
// tests that search logs and files for them.
func (s *Server) IssuedOAuth2Tokens() []string {
	s.tokens.mu.Lock()
	defer s.tokens.mu.Unlock()
	return slices.Collect(maps.Keys(s.tokens.tokens))
}

// RevokeOAuth2Tokens makes every token issued so far unknown, as a
// restart or a gateway's key rotation would: the next call with one is 401.
func (s *Server) RevokeOAuth2Tokens() { s.tokens.revokeAll() }
