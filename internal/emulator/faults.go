package emulator

import (
	"bytes"
	"fmt"
	"io"
	"math/rand/v2"
	"net"
	"net/http"
	"strings"
	"sync"
	"time"
)

// Fault kinds the emulator can inject.
const (
	FaultTooManyRequests = "429"
	FaultInternal        = "500"
	FaultBadGateway      = "502"
	FaultUnavailable     = "503"
	FaultGatewayTimeout  = "504"
	FaultDrop            = "drop" // connection closed before any response

	// FaultHTML and the faults below it are answers a broken proxy or
	// gateway might give instead of the service's. They happen before the
	// emulator acts, like the others.
	FaultHTML      = "html"      // 200 with an HTML page
	FaultEmpty     = "empty"     // 200 with an empty body
	FaultTruncated = "truncated" // 200 with JSON cut off half way
	FaultMalformed = "malformed" // 200 with a body that is not JSON
	FaultHuge      = "huge"      // 200 with a JSON body larger than any page
	FaultRedirect  = "redirect"  // 302 to another host
)

// CorruptFaults are the kinds that answer 200 or 302 with a broken body;
// they are never chosen by default, only when listed in Kinds.
var CorruptFaults = []string{FaultHTML, FaultEmpty, FaultTruncated, FaultMalformed, FaultHuge, FaultRedirect}

// hugeFaultSize is the size of a FaultHuge body: larger than the client's
// bound on a JSON answer.
const hugeFaultSize = 65 << 20

// AllFaults are the kinds injected when FaultOptions.Kinds is empty.
var AllFaults = []string{FaultTooManyRequests, FaultInternal, FaultBadGateway, FaultUnavailable, FaultGatewayTimeout, FaultDrop}

// FaultOptions make the emulator misbehave the way a shared, rate-limited
// service does now and then, reproducibly for a given Seed. Faults happen
// before the emulator acts, so a retried request is safe, except the opt-in
// ActThenDropRate for POST, where the emulator acts and then drops the
// connection: the case in which a careless client creates a thing twice.
type FaultOptions struct {
	// Rate is the fraction (0..1) of matching requests answered with a fault.
	Rate float64
	// Kinds to choose from, uniformly; empty means AllFaults.
	Kinds []string
	// RetryAfter is sent with 429 and 503; default 1s.
	RetryAfter time.Duration
	// Latency is added to every matching request.
	Latency time.Duration
	// Seed makes the sequence of faults reproducible; 0 picks 1.
	Seed uint64
	// Methods restricts faults to these methods (e.g. "POST"); empty is all.
	Methods []string
	// PathPrefix restricts faults to paths below /rest/{customerid}/ that
	// start with it (e.g. "lists"); empty is all.
	PathPrefix string
	// ActThenDropRate is the fraction of matching POSTs that the emulator
	// carries out and then answers by closing the connection.
	ActThenDropRate float64
}

// FaultStats counts what was injected.
type FaultStats struct {
	Injected    map[string]int64
	ActThenDrop int64
}

// enabled reports whether any fault can happen.
func (f FaultOptions) enabled() bool {
	return f.Rate > 0 || f.ActThenDropRate > 0 || f.Latency > 0
}

// Validate checks the options; New panics on invalid options only through
// the command-line, which validates first.
func (f FaultOptions) Validate() error {
	if f.Rate < 0 || f.Rate > 1 {
		return fmt.Errorf("fault rate %v must be between 0 and 1", f.Rate)
	}
	if f.ActThenDropRate < 0 || f.ActThenDropRate > 1 {
		return fmt.Errorf("act-then-drop rate %v must be between 0 and 1", f.ActThenDropRate)
	}
	for _, k := range f.Kinds {
		if !validFault(k) {
			return fmt.Errorf("unknown fault kind %q; use one of %s, %s", k, strings.Join(AllFaults, ", "), strings.Join(CorruptFaults, ", "))
		}
	}
	return nil
}

func validFault(k string) bool {
	for _, a := range append(append([]string{}, AllFaults...), CorruptFaults...) {
		if a == k {
			return true
		}
	}
	return false
}

// faultInjector decides, per request, whether and which fault happens.
type faultInjector struct {
	opts  FaultOptions
	mu    sync.Mutex
	rng   *rand.Rand
	stats FaultStats
}

func newFaultInjector(opts FaultOptions) *faultInjector {
	seed := opts.Seed
	if seed == 0 {
		seed = 1
	}
	if len(opts.Kinds) == 0 {
		opts.Kinds = AllFaults
	}
	if opts.RetryAfter <= 0 {
		opts.RetryAfter = time.Second
	}
	return &faultInjector{
		opts:  opts,
		rng:   rand.New(rand.NewPCG(seed, seed^0x9e3779b97f4a7c15)),
		stats: FaultStats{Injected: map[string]int64{}},
	}
}

func (f *faultInjector) matches(r *http.Request) bool {
	rest, ok := strings.CutPrefix(r.URL.Path, "/rest/")
	if !ok {
		return false // documentation and object storage are never faulted
	}
	if len(f.opts.Methods) > 0 {
		found := false
		for _, m := range f.opts.Methods {
			if strings.EqualFold(m, r.Method) {
				found = true
			}
		}
		if !found {
			return false
		}
	}
	if f.opts.PathPrefix != "" {
		_, below, _ := strings.Cut(rest, "/")
		if !strings.HasPrefix(below, strings.TrimPrefix(f.opts.PathPrefix, "/")) {
			return false
		}
	}
	return true
}

// decide returns the fault for this request ("" for none) and whether a POST
// is to be acted on and then dropped.
func (f *faultInjector) decide(r *http.Request) (fault string, actThenDrop bool) {
	if !f.matches(r) {
		return "", false
	}
	f.mu.Lock()
	defer f.mu.Unlock()
	if f.opts.Rate > 0 && f.rng.Float64() < f.opts.Rate {
		fault = f.opts.Kinds[f.rng.IntN(len(f.opts.Kinds))]
		f.stats.Injected[fault]++
		return fault, false
	}
	if r.Method == http.MethodPost && f.opts.ActThenDropRate > 0 && f.rng.Float64() < f.opts.ActThenDropRate {
		f.stats.ActThenDrop++
		return "", true
	}
	return "", false
}

func (f *faultInjector) snapshot() FaultStats {
	f.mu.Lock()
	defer f.mu.Unlock()
	out := FaultStats{Injected: map[string]int64{}, ActThenDrop: f.stats.ActThenDrop}
	for k, v := range f.stats.Injected {
		out.Injected[k] = v
	}
	return out
}

// dropConnection closes the client's connection without an answer.
func dropConnection(w http.ResponseWriter) {
	conn, rw, err := http.NewResponseController(w).Hijack()
	if err != nil {
		// Not hijackable (HTTP/2 or a test recorder): abort the handler,
		// which net/http turns into a reset stream or closed connection.
		panic(http.ErrAbortHandler)
	}
	_ = rw.Flush()
	if tc, ok := conn.(*net.TCPConn); ok {
		_ = tc.SetLinger(0) // a reset, as a crashed proxy would send
	}
	_ = conn.Close()
}

// bufferedWriter collects a response that will never be sent.
type bufferedWriter struct {
	header http.Header
	status int
	body   bytes.Buffer
}

func (b *bufferedWriter) Header() http.Header { return b.header }
func (b *bufferedWriter) WriteHeader(code int) {
	if b.status == 0 {
		b.status = code
	}
}
func (b *bufferedWriter) Write(p []byte) (int, error) { return b.body.Write(p) }

func isCorrupt(k string) bool {
	for _, c := range CorruptFaults {
		if c == k {
			return true
		}
	}
	return false
}

// writeCorrupt answers as a misconfigured proxy would.
func writeCorrupt(w http.ResponseWriter, kind string) {
	switch kind {
	case FaultHTML:
		w.Header().Set("Content-Type", "text/html; charset=utf-8")
		w.WriteHeader(http.StatusOK)
		_, _ = io.WriteString(w, "<html><head><title>Maintenance</title></head><body><h1>We will be back soon</h1></body></html>")
	case FaultEmpty:
		w.Header().Set("Content-Type", jsonContentType)
		w.WriteHeader(http.StatusOK)
	case FaultTruncated:
		w.Header().Set("Content-Type", jsonContentType)
		w.WriteHeader(http.StatusOK)
		_, _ = io.WriteString(w, `{"id": 1, "name": "cut of`)
	case FaultMalformed:
		w.Header().Set("Content-Type", jsonContentType)
		w.WriteHeader(http.StatusOK)
		_, _ = io.WriteString(w, `{"id": 1, "name": }`)
	case FaultHuge:
		w.Header().Set("Content-Type", jsonContentType)
		w.WriteHeader(http.StatusOK)
		_, _ = io.WriteString(w, `{"padding":"`)
		chunk := strings.Repeat("x", 64<<10)
		for written := 0; written < hugeFaultSize; written += len(chunk) {
			if _, err := io.WriteString(w, chunk); err != nil {
				return
			}
		}
		_, _ = io.WriteString(w, `"}`)
	case FaultRedirect:
		// Another host on the loopback range, so a client that follows it
		// reaches nothing beyond this machine.
		w.Header().Set("Location", "http://127.0.0.2:9/rest/")
		w.WriteHeader(http.StatusFound)
	}
}
