package emulator

import (
	"log/slog"
	"maps"
	"net/http"
	"strings"
	"time"
)

// Server is one emulated account. It implements http.Handler; every Server
// holds its own state, so tests run many side by side.
type Server struct {
	opts    Options
	log     *slog.Logger
	mux     *http.ServeMux
	store   *store
	counter *requestCounter
	batches *batchEngine
	objects *objectStore
	imports *importRegistry
	faults  *faultInjector // nil when no fault is configured
	tokens  *tokenIssuer   // OAuth 2.0 clients and the tokens issued to them

	// routes lists every registered mux pattern ("GET /rest/{customerid}/..."),
	// so a test can check each is documented in the OpenAPI fragments.
	routes []string
	// knownCollections are the segments below /rest/{customerid}/ that some
	// route serves: the generic domains plus the literal first segment of
	// every explicit route.
	knownCollections map[string]bool
	// explicitSubs are "collection/sub" pairs that explicit routes serve (e.g.
	// "lists/contacts"); the generic nested handlers refuse them so that a
	// method the explicit routes lack is 405, not a generic write.
	explicitSubs map[string]bool
	// mandatory is this server's copy of mandatoryFields.
	mandatory map[string][]string
	// hooks delivers webhook events in the background until Close.
	hooks *deliverer
	// persist writes the account to Options.DataDir; nil without one.
	persist *persister
	// loaded says where the initial state came from (Open).
	loaded string
}

// New returns a Server for opts, with defaults filled (see Options). It
// panics when opts.Fixtures or opts.DataDir is set, which only Open (and
// Listen) apply, so that neither is ever silently ignored, and on an
// invalid opts.WebhookAllowHosts entry, which Open returns as an error.
func New(opts Options) *Server {
	if opts.Fixtures != nil || opts.DataDir != "" {
		panic("emulator: New does not apply Options.Fixtures or Options.DataDir; use Open")
	}
	opts = opts.withDefaults()
	targets, err := newWebhookTargets(opts.WebhookAllowHosts)
	if err != nil {
		panic("emulator: " + err.Error())
	}
	s := &Server{
		opts:             opts,
		log:              opts.Logger,
		mux:              http.NewServeMux(),
		store:            newStore(),
		counter:          newRequestCounter(),
		batches:          newBatchEngine(),
		objects:          newObjectStore(),
		imports:          newImportRegistry(),
		knownCollections: maps.Clone(genericDomains),
		explicitSubs:     map[string]bool{},
		mandatory:        maps.Clone(mandatoryFields),
		hooks:            newDeliverer(opts, targets),
		tokens:           newTokenIssuer(opts),
	}
	if opts.Faults.enabled() {
		s.faults = newFaultInjector(opts.Faults)
	}
	s.store.preloadProperties(s.now())
	s.registerRoutes()
	return s
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
	// Never log headers: they carry the credentials.
	s.log.Info("request", "method", r.Method, "path", r.URL.Path, "status", status, "duration", time.Since(start))
}

// serve answers one request and returns the mux pattern that served it ("" when
// none did).
func (s *Server) serve(w http.ResponseWriter, r *http.Request) string {
	// Batches progress with the clock; bringing them up to date before any
	// request means every answer, a list's contacts included, reflects the
	// work done by then, whether or not anyone polled the batch.
	s.advanceBatches()
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
		e := errorf(http.StatusMethodNotAllowed, "method %s is not allowed on %s", r.Method, r.URL.Path)
		e.allow = scratch.header.Get("Allow")
		s.writeError(w, e)
		return
	}
	s.writeError(w, errorf(http.StatusNotFound, "no such path: %s", r.URL.Path))
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

// now is the account's clock as the interface writes times: RFC 3339 UTC,
// whole seconds.
func (s *Server) now() string {
	return s.opts.Now().UTC().Truncate(time.Second).Format(time.RFC3339)
}
